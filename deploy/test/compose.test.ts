import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@payspec/test-postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import { REPOSITORY, versionOf } from "./support/images-setup.js";
import { podman, ran, untilAnswers } from "./support/podman.js";

/**
 * compose.yaml as a team starts it: one command, secrets from a .env that is not committed, PostgreSQL
 * in a volume, two sandboxes sharing it behind a reverse proxy, the mock beside them.
 */
const images = inject("images");

interface Service {
  image?: string;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
  read_only?: boolean;
}
const compose = parse(readFileSync(join(REPOSITORY, "compose.yaml"), "utf8"), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const service = (name: string) => compose.services[name] as Service;

describe("compose.yaml, as written", () => {
  it("starts the sandboxes after PostgreSQL is healthy, and the proxy after both sandboxes are ready", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["mock", "postgres", "proxy", "sandbox-1", "sandbox-2"]);
    for (const sandbox of ["sandbox-1", "sandbox-2"]) {
      expect(service(sandbox).depends_on).toEqual({ postgres: { condition: "service_healthy" } });
      // Ready means /readyz (the database at this version's schema), not only a live process.
      expect(service(sandbox).healthcheck?.test.join(" ")).toContain("/readyz");
      expect(service(sandbox).read_only).toBe(true);
    }
    expect(service("proxy").depends_on).toEqual({
      "sandbox-1": { condition: "service_healthy" },
      "sandbox-2": { condition: "service_healthy" },
    });
    expect(service("postgres").healthcheck?.test.join(" ")).toContain("pg_isready");
    expect(service("postgres").volumes).toEqual(["postgres-data:/var/lib/postgresql/data"]);
    expect(Object.keys(compose.volumes)).toEqual(["postgres-data"]);
  });

  it("takes its secrets from a .env that git ignores, publishes on 127.0.0.1 only, and uses the images' own versions", () => {
    const environment = JSON.stringify(service("sandbox-1").environment);
    expect(environment).toContain("${PAYSPEC_SANDBOX_SECRET:?");
    expect(environment).toContain("${POSTGRES_PASSWORD:?");
    expect(readFileSync(join(REPOSITORY, ".gitignore"), "utf8").split("\n")).toContain(".env");
    const example = readFileSync(join(REPOSITORY, ".env.example"), "utf8");
    for (const name of ["POSTGRES_PASSWORD", "PAYSPEC_SANDBOX_SECRET"])
      expect(example).toMatch(new RegExp(`^${name}=$`, "m"));
    for (const [name, published] of Object.entries(compose.services).flatMap(([n, s]) =>
      (s.ports ?? []).map((p) => [n, p]),
    ))
      expect(published, name).toMatch(/^127\.0\.0\.1:/);
    expect(service("sandbox-1").image).toBe(`payspec/sandbox:${versionOf("sandbox")}`);
    expect(service("mock").image).toBe(`payspec/mock:${versionOf("mock")}`);
  });
});

describe("compose up", () => {
  const project = `payspec-test-${randomBytes(4).toString("hex")}`;
  const dir = mkdtempSync(join(tmpdir(), "payspec-compose-"));
  let proxyUrl = "";
  let mockUrl = "";
  const composeCommand = (args: readonly string[]) =>
    ran("podman-compose", ["-p", project, "-f", join(dir, "compose.yaml"), ...args], { cwd: dir, timeoutMs: 600_000 });

  beforeAll(async () => {
    // The repository's compose file in a folder of its own, with the .env a team writes beside it.
    copyFileSync(join(REPOSITORY, "compose.yaml"), join(dir, "compose.yaml"));
    symlinkSync(join(REPOSITORY, "deploy"), join(dir, "deploy"));
    symlinkSync(join(REPOSITORY, "Containerfile"), join(dir, "Containerfile"));
    const [port, mockPort] = [await freePort(), await freePort()];
    writeFileSync(
      join(dir, ".env"),
      [
        `POSTGRES_PASSWORD=${randomBytes(12).toString("hex")}`,
        `PAYSPEC_SANDBOX_SECRET=${randomBytes(32).toString("hex")}`,
        `PAYSPEC_PORT=${port}`,
        `PAYSPEC_MOCK_PORT=${mockPort}`,
        // The bases this machine has (no registry here), and the app folders the images were built from.
        `PAYSPEC_NODE_IMAGE=${images.nodeBase}`,
        `PAYSPEC_DEBIAN_IMAGE=${images.debianBase}`,
        "PAYSPEC_APP_SOURCE=prebuilt",
      ].join("\n"),
    );
    proxyUrl = `http://127.0.0.1:${port}`;
    mockUrl = `http://127.0.0.1:${mockPort}`;
    const up = await composeCommand(["up", "-d"]);
    if (up.code !== 0)
      throw new Error(
        `podman-compose up failed (exit ${up.code}):\n${up.stdout.slice(-3000)}\n${up.stderr.slice(-3000)}`,
      );
    await untilAnswers(`${proxyUrl}/readyz`, 200, 180_000);
  }, 600_000);

  afterAll(async () => {
    await composeCommand(["down", "-v", "-t", "5"]);
    // podman-compose 1.0 leaves the project's network and named volume behind.
    await ran("podman", ["network", "rm", "-f", `${project}_default`]);
    await ran("podman", ["volume", "rm", "-f", `${project}_postgres-data`]);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it("serves both sandboxes through the proxy, on one database, each healthy by its /readyz", async () => {
    for (const name of ["postgres", "sandbox-1", "sandbox-2", "mock", "proxy"])
      expect((await ran("podman", ["healthcheck", "run", `${project}_${name}_1`])).code, name).toBe(0);
    const key = { authorization: "Bearer sk_sandbox_demo_1" };
    const instances = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const answer = await fetch(`${proxyUrl}/v1/accounts`, { headers: key });
      expect(answer.status).toBe(200);
      instances.add((answer.headers.get("x-request-id") ?? "").slice(0, 12));
    }
    expect(instances.size).toBe(2);
    // Made through one instance, read through the other: the state is the database's.
    const accounts = (await (await fetch(`${proxyUrl}/v1/accounts`, { headers: key })).json()) as {
      id: string;
      currency: string;
    }[];
    const [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id);
    const created = await fetch(`${proxyUrl}/v1/payments`, {
      method: "POST",
      headers: { ...key, "content-type": "application/json" },
      body: JSON.stringify({
        amount: 2500,
        currency: "TRY",
        method: "eft",
        from_account: from,
        to_account: to,
        reference: "COMPOSE-1",
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    for (let i = 0; i < 4; i++)
      expect((await fetch(`${proxyUrl}/v1/payments/${id}`, { headers: key })).status).toBe(200);
    expect((await fetch(`${proxyUrl}/_sandbox/dashboard`)).status).toBe(200);
    expect((await fetch(`${mockUrl}/readyz`)).status).toBe(200);
    // The password and the secret came from .env: the database needs the one, cursors the other.
    const sandboxEnv = await podman(["inspect", `${project}_sandbox-1_1`, "--format", "{{json .Config.Env}}"]);
    const env = readFileSync(join(dir, ".env"), "utf8");
    expect(sandboxEnv).toContain(/PAYSPEC_SANDBOX_SECRET=(\w+)/.exec(env)?.[1]);
  });

  it("keeps the database in its volume across a restart of the stack", async () => {
    const key = { authorization: "Bearer sk_sandbox_demo_1" };
    const before = (await (await fetch(`${proxyUrl}/v1/payments?limit=1`, { headers: key })).json()) as {
      pagination: { total: number };
    };
    expect((await composeCommand(["stop", "-t", "30"])).code).toBe(0);
    expect((await composeCommand(["start"])).code).toBe(0);
    await untilAnswers(`${proxyUrl}/readyz`, 200, 180_000);
    const after = (await (await fetch(`${proxyUrl}/v1/payments?limit=1`, { headers: key })).json()) as {
      pagination: { total: number };
    };
    expect(after.pagination.total).toBe(before.pagination.total);
    expect(before.pagination.total).toBeGreaterThan(0);
  });
});
