import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_PORT, type RunningSandbox, SHUTDOWN_BOUND_MS, startSandbox } from "@payspec/sandbox";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { Service } from "kubernetes-models/v1/Service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { REPOSITORY, versionOf } from "./support/images-setup.js";

/**
 * The Kubernetes manifests cannot be applied here (no cluster): they are rendered as kubectl renders
 * them (Kustomize), every object validated against the Kubernetes schemas (kubernetes-models), and
 * their probes, port, drain time, user and sizing checked against the sandbox and the image themselves.
 */
const rendered = execFileSync("kubectl", ["kustomize", join(REPOSITORY, "deploy/kubernetes/base")], {
  encoding: "utf8",
});
const objects = parseAllDocuments(rendered).map((doc) => doc.toJSON() as { kind: string; [key: string]: unknown });
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  Deployment: Deployment as never,
  Service: Service as never,
  PodDisruptionBudget: PodDisruptionBudget as never,
};
const deployment = new Deployment(objects.find((o) => o.kind === "Deployment") as never);
const pod = deployment.spec?.template.spec;
const container = pod?.containers[0];

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox?.close());

describe("the Kustomize base, rendered by kubectl", () => {
  it("is a Deployment, a Service and a PodDisruptionBudget, each valid against the Kubernetes schemas", () => {
    expect(objects.map((o) => o.kind).sort()).toEqual(["Deployment", "PodDisruptionBudget", "Service"]);
    for (const object of objects) {
      const Model = MODELS[object.kind];
      if (!Model) throw new Error(`No schema for ${object.kind}`);
      expect(() => new Model(object as never).validate(), object.kind).not.toThrow();
    }
    // The validator itself refuses what Kubernetes would: a port that is not a number or a name.
    const broken = structuredClone(objects.find((o) => o.kind === "Deployment")) as never;
    (broken as any).spec.template.spec.containers[0].readinessProbe.httpGet.port = true;
    expect(() => new Deployment(broken).validate()).toThrow();
  });

  it("probes the paths the sandbox answers (/healthz alive, /readyz ready) on the port it listens on", async () => {
    const port = container?.ports?.find((p) => p.name === "http");
    expect(port?.containerPort).toBe(DEFAULT_PORT);
    expect(container?.env?.find((e) => e.name === "PORT")?.value).toBe(String(DEFAULT_PORT));
    expect(container?.livenessProbe?.httpGet?.path).toBe("/healthz");
    expect(container?.startupProbe?.httpGet?.path).toBe("/healthz");
    expect(container?.readinessProbe?.httpGet?.path).toBe("/readyz");
    for (const probe of [container?.livenessProbe, container?.readinessProbe, container?.startupProbe]) {
      expect(probe?.httpGet?.port).toBe("http");
      const answer = await fetch(`${sandbox.url}${probe?.httpGet?.path}`);
      expect(answer.status, probe?.httpGet?.path).toBe(200);
    }
    const metrics = pod && deployment.spec?.template.metadata?.annotations;
    expect(metrics?.["prometheus.io/path"]).toBe("/metrics");
    expect(metrics?.["prometheus.io/port"]).toBe(String(DEFAULT_PORT));
    expect((await fetch(`${sandbox.url}/metrics`)).headers.get("content-type")).toContain("text/plain");
  });

  it("gives the drain its time: the grace period covers the preStop wait and the sandbox's 25 s bound", () => {
    const preStop = Number(container?.lifecycle?.preStop?.exec?.command?.at(-1));
    expect(preStop).toBeGreaterThan(0);
    expect(pod?.terminationGracePeriodSeconds).toBeGreaterThan(preStop + SHUTDOWN_BOUND_MS / 1000);
    expect(deployment.spec?.replicas).toBe(2);
    expect(deployment.spec?.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
    const budget = objects.find((o) => o.kind === "PodDisruptionBudget") as any;
    expect(budget.spec.minAvailable).toBe(1);
    expect(budget.spec.selector.matchLabels).toEqual(deployment.spec?.selector.matchLabels);
    const service = objects.find((o) => o.kind === "Service") as any;
    expect(service.spec.selector).toEqual(deployment.spec?.selector.matchLabels);
    expect(service.spec.ports[0].targetPort).toBe("http");
  });

  it("runs as the image's own non-root user, on a read-only root filesystem with /tmp in memory", () => {
    const user = /^USER (\d+):(\d+)$/m.exec(readFileSync(join(REPOSITORY, "Containerfile"), "utf8"));
    expect(pod?.securityContext?.runAsNonRoot).toBe(true);
    expect(pod?.securityContext?.runAsUser).toBe(Number(user?.[1]));
    expect(pod?.securityContext?.runAsGroup).toBe(Number(user?.[2]));
    expect(container?.securityContext?.readOnlyRootFilesystem).toBe(true);
    expect(container?.securityContext?.allowPrivilegeEscalation).toBe(false);
    expect(container?.securityContext?.capabilities?.drop).toEqual(["ALL"]);
    expect(container?.volumeMounts).toEqual([{ name: "tmp", mountPath: "/tmp" }]);
    expect(pod?.volumes?.find((v) => v.name === "tmp")?.emptyDir).toBeDefined();
  });

  it("reads the database URL and the secret from a Secret, and runs the released image", () => {
    const fromSecret = (name: string) => container?.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
    expect(fromSecret("PAYSPEC_DATABASE_URL")).toEqual({ name: "payspec-sandbox", key: "database-url" });
    expect(fromSecret("PAYSPEC_SANDBOX_SECRET")).toEqual({ name: "payspec-sandbox", key: "sandbox-secret" });
    expect(rendered).not.toMatch(/postgres:\/\//);
    expect(container?.image).toBe(`payspec/sandbox:${versionOf("sandbox")}`);
  });

  it("asks for the resources the README's sizing gives", () => {
    const readme = readFileSync(join(REPOSITORY, "deploy/README.md"), "utf8");
    const sizing = (what: string) => new RegExp(`^\\| ${what} \\| ([^|]+) \\|`, "m").exec(readme)?.[1]?.trim();
    expect(container?.resources?.requests).toEqual({ cpu: sizing("CPU request"), memory: sizing("Memory request") });
    expect(container?.resources?.limits).toEqual({ cpu: sizing("CPU limit"), memory: sizing("Memory limit") });
  });
});
