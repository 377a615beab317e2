import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { parseOptions, runVerification } from "../src/index.js";
import { CLI } from "./support/built-cli.js";
import { bodyText, type LoopbackServer, sendJson, serveOnLoopback } from "./support/loopback-server.js";

/**
 * A run on a shared staging server leaves it as it found it (RESTler's garbage collector): whatever it
 * created is deleted at its end through the spec's own DELETE, children before their parents, also
 * when it is interrupted; what it could not delete is listed with why; --keep-created keeps it all,
 * listed. And it reaches children inside a parent that was there before, without touching the parent.
 */

const json = (schema: object) => ({ content: { "application/json": { schema } } });
const id = { type: "string", pattern: "^[a-z0-9-]{1,40}$" };
const project = { type: "object", required: ["id", "name"], properties: { id, name: { type: "string" } } };
const feature = { type: "object", required: ["name"], properties: { name: id, enabled: { type: "boolean" } } };
const spec = {
  openapi: "3.1.0",
  info: { title: "Feature flags", version: "1" },
  paths: {
    "/projects": {
      get: { operationId: "listProjects", responses: { "200": json({ type: "array", items: project }) } },
      post: {
        operationId: "createProject",
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["name"],
            properties: { name: { type: "string", minLength: 1, maxLength: 20 } },
          }),
        },
        responses: {
          "201": { description: "made", headers: { Location: { schema: { type: "string" } } }, ...json(project) },
          "400": { description: "bad" },
        },
      },
    },
    "/projects/{projectId}": {
      parameters: [{ name: "projectId", in: "path", required: true, schema: id }],
      get: { operationId: "getProject", responses: { "200": json(project), "404": { description: "none" } } },
      delete: {
        operationId: "deleteProject",
        responses: {
          "204": { description: "gone" },
          "404": { description: "none" },
          "409": { description: "has features" },
        },
      },
    },
    "/projects/{projectId}/features": {
      parameters: [{ name: "projectId", in: "path", required: true, schema: id }],
      get: {
        operationId: "listFeatures",
        responses: { "200": json({ type: "array", items: feature }), "404": { description: "none" } },
      },
      post: {
        operationId: "addFeature",
        requestBody: { required: true, ...json({ type: "object", required: ["name"], properties: { name: id } }) },
        responses: { "201": json(feature), "400": { description: "bad" }, "404": { description: "none" } },
      },
    },
    "/projects/{projectId}/features/{featureName}": {
      parameters: [
        { name: "projectId", in: "path", required: true, schema: id },
        { name: "featureName", in: "path", required: true, schema: id },
      ],
      get: { operationId: "getFeature", responses: { "200": json(feature), "404": { description: "none" } } },
      delete: {
        operationId: "deleteFeature",
        responses: { "204": { description: "gone" }, "404": { description: "none" } },
      },
    },
    "/tags": {
      post: {
        operationId: "createTag",
        requestBody: { required: true, ...json({ type: "object", required: ["value"], properties: { value: id } }) },
        responses: {
          "201": json({ type: "object", required: ["id"], properties: { id } }),
          "400": { description: "bad" },
        },
      },
    },
  },
};

/** The feature-flag server: a project "default" with a feature "existing" there before any run. */
class FlagServer {
  projects = new Map<string, { name: string; features: Map<string, boolean> }>([
    ["default", { name: "Default", features: new Map([["existing", true]]) }],
  ]);
  tags: string[] = [];
  served: LoopbackServer | undefined;
  /** Each answer waits this long: an interrupted run is interrupted mid-way. */
  delayMs = 0;
  #next = 0;

  async start(): Promise<string> {
    this.served = await serveOnLoopback(async (req, res) => {
      const text = await bodyText(req);
      if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      const body = (() => {
        try {
          return JSON.parse(text || "{}");
        } catch {
          return undefined;
        }
      })();
      const path = (req.url ?? "").split("?")[0] as string;
      const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
      const found = parts[1] === undefined ? undefined : this.projects.get(parts[1]);
      if (parts[0] === "tags" && req.method === "POST") {
        if (typeof body?.value !== "string" || !/^[a-z0-9-]{1,40}$/.test(body.value)) return sendJson(res, 400, {});
        const tag = `tag-${++this.#next}`;
        this.tags.push(tag);
        return sendJson(res, 201, { id: tag });
      }
      if (parts[0] !== "projects") return sendJson(res, 404, {});
      if (parts.length === 1 && req.method === "GET")
        return sendJson(
          res,
          200,
          [...this.projects].map(([pid, p]) => ({ id: pid, name: p.name })),
        );
      if (parts.length === 1 && req.method === "POST") {
        if (typeof body?.name !== "string" || body.name.length < 1 || body.name.length > 20)
          return sendJson(res, 400, {});
        const pid = `p-${++this.#next}`;
        this.projects.set(pid, { name: body.name, features: new Map() });
        return sendJson(res, 201, { id: pid, name: body.name }, { location: `/projects/${pid}` });
      }
      if (!found) return sendJson(res, 404, {});
      if (parts.length === 2 && req.method === "GET") return sendJson(res, 200, { id: parts[1], name: found.name });
      if (parts.length === 2 && req.method === "DELETE") {
        // Children first: a project that still has features is not deleted.
        if (found.features.size > 0) return sendJson(res, 409, {});
        this.projects.delete(parts[1] as string);
        return res.writeHead(204).end();
      }
      if (parts.length === 3 && req.method === "GET")
        return sendJson(
          res,
          200,
          [...found.features].map(([name, enabled]) => ({ name, enabled })),
        );
      if (parts.length === 3 && req.method === "POST") {
        if (typeof body?.name !== "string" || !/^[a-z0-9-]{1,40}$/.test(body.name)) return sendJson(res, 400, {});
        const name = `${body.name.slice(0, 30)}-${++this.#next}`;
        found.features.set(name, false);
        return sendJson(res, 201, { name, enabled: false });
      }
      const featureName = parts[3] as string;
      if (!found.features.has(featureName)) return sendJson(res, 404, {});
      if (req.method === "GET")
        return sendJson(res, 200, { name: featureName, enabled: found.features.get(featureName) });
      if (req.method === "DELETE") {
        found.features.delete(featureName);
        return res.writeHead(204).end();
      }
      return sendJson(res, 404, {});
    });
    return this.served.url;
  }

  /** Every project and feature, as lines: the lists a team would count. */
  records(): string[] {
    return [...this.projects].flatMap(([pid, p]) => [
      `project ${pid}`,
      ...[...p.features.keys()].map((f) => `feature ${pid}/${f}`),
    ]);
  }
}

let server: FlagServer | undefined;
afterEach(async () => {
  await server?.served?.close();
  server = undefined;
});

async function specFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "payspec-cleanup-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "spec.json");
  await writeFile(file, JSON.stringify(spec));
  return file;
}

describe("a full run leaves the server as it found it", () => {
  it("deletes every record it created, children before parents, lists what it could not, and a second run finds the same lists", async () => {
    server = new FlagServer();
    const url = await server.start();
    const file = await specFile();
    const before = server.records();
    const report = await runVerification(parseOptions(["--spec", file, "--target", url, "--seed", "3"]));
    // It reached children inside the project that was there (a feature added to "default", read by id).
    const readFeature = report.results.find((r) => r.id === "positive.getFeature");
    expect(readFeature?.status).toBe("passed");
    expect(server.records()).toEqual(before);
    expect(server.projects.get("default")?.name).toBe("Default");
    expect(report.cleanup?.deleted).toBeGreaterThanOrEqual(2);
    // Tags have no DELETE in the spec: named with their path, id and why.
    expect(server.tags.length).toBeGreaterThan(0);
    expect(report.cleanup?.left.map((r) => `${r.madeBy} ${r.id}: ${r.why}`).sort()).toEqual(
      server.tags.map((tag) => `POST /tags ${tag}: the spec has no DELETE for it`).sort(),
    );
    const again = await runVerification(parseOptions(["--spec", file, "--target", url, "--seed", "3"]));
    expect(again.cleanup?.left.length).toBe(server.tags.length / 2);
    expect(server.records()).toEqual(before);
  });

  it("keeps everything with --keep-created, listed, and then leaves existing parents alone", async () => {
    server = new FlagServer();
    const url = await server.start();
    const file = await specFile();
    const before = server.records();
    const report = await runVerification(
      parseOptions(["--spec", file, "--target", url, "--seed", "3", "--keep-created"]),
    );
    const added = server.records().filter((line) => !before.includes(line));
    expect(server.records()).toEqual(expect.arrayContaining(before));
    expect(report.cleanup?.kept).toBe(true);
    // Every record left is listed (the tags too); no feature went into "default": keeping them, it would stay.
    const kept = report.cleanup?.left.filter((r) => !r.madeBy.startsWith("POST /tags")) ?? [];
    expect(kept.length).toBe(added.length);
    expect(added.filter((line) => line.startsWith("feature default/"))).toEqual([]);
    expect(report.cleanup?.left.every((r) => r.why === "kept: --keep-created")).toBe(true);
  });

  it("cleans up when interrupted by SIGTERM, reports, and exits with the checks' verdict", async () => {
    server = new FlagServer();
    server.delayMs = 40;
    const url = await server.start();
    const file = await specFile();
    const before = server.records();
    const dir = await mkdtemp(join(tmpdir(), "payspec-cleanup-report-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const child = spawn(
      process.execPath,
      [CLI, "--spec", file, "--target", url, "--seed", "3", "--json", join(dir, "r.json")],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    onTestFinished(() => void child.kill("SIGKILL"));
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Once the run has made a project of its own, stop it as a cancelled CI job does.
    const deadline = Date.now() + 60_000;
    while (server.records().length === before.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code === 0 || code === 1).toBe(true);
    expect(stderr).toContain("SIGTERM: finishing the check under way, then deleting what the run created");
    expect(server.records()).toEqual(before);
    const report = JSON.parse(await readFile(join(dir, "r.json"), "utf8"));
    expect(report.cleanup.interrupted).toBe(true);
    expect(report.results.some((r: { note?: string }) => r.note?.includes("the run was interrupted (SIGTERM)"))).toBe(
      true,
    );
  });
});
