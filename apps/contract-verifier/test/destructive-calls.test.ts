import { afterEach, describe, expect, it } from "vitest";
import type { VerificationReport } from "../src/index.js";
import { verifyInlineSpec } from "./support/inline-spec.js";
import { bodyText, type LoopbackServer, sendJson, serveOnLoopback } from "./support/loopback-server.js";

/*
 * A full --spec run on a shared staging server must never destroy what it did not create (issue: the
 * verifier safe on a shared staging server): DELETE, PUT and PATCH, and a POST on a path naming a
 * thing, act only on what the run made itself; what names nothing it could make (settings, a reset,
 * a bulk delete) is not called at all; --allow-destructive is the throw-away server's opt-in.
 */

const user = {
  type: "object",
  required: ["id", "name"],
  properties: { id: { type: "integer", minimum: 1 }, name: { type: "string", minLength: 1, maxLength: 40 } },
};
const newUser = {
  type: "object",
  required: ["name"],
  additionalProperties: false,
  properties: { name: { type: "string", minLength: 1, maxLength: 40 } },
};
const json = (schema: object) => ({ content: { "application/json": { schema } } });
const idParam = { name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } };
const byId = { parameters: [idParam] };

const spec = {
  openapi: "3.1.0",
  info: { title: "Users of a shared staging server", version: "1" },
  paths: {
    "/users": {
      get: { operationId: "listUsers", responses: { "200": json({ type: "array", items: user }) } },
      post: {
        operationId: "createUser",
        requestBody: { required: true, ...json(newUser) },
        responses: { "201": json(user), "400": { description: "bad input" } },
      },
      delete: { operationId: "deleteAllUsers", responses: { "204": { description: "all gone" } } },
    },
    "/users/{id}": {
      ...byId,
      get: { operationId: "getUser", responses: { "200": json(user), "404": { description: "none" } } },
      patch: {
        operationId: "renameUser",
        requestBody: { required: true, ...json(newUser) },
        responses: { "200": json(user), "400": { description: "bad input" }, "404": { description: "none" } },
      },
      delete: {
        operationId: "deleteUser",
        responses: { "204": { description: "gone" }, "404": { description: "none" } },
      },
    },
    "/users/{id}/lock": {
      ...byId,
      post: {
        operationId: "lockUser",
        responses: { "204": { description: "locked" }, "404": { description: "none" } },
      },
    },
    "/files": {
      get: { operationId: "listFiles", responses: { "200": json({ type: "array", items: user }) } },
    },
    "/files/{id}": {
      ...byId,
      delete: {
        operationId: "deleteFile",
        responses: { "204": { description: "gone" }, "404": { description: "none" } },
      },
    },
    "/settings": {
      get: { operationId: "getSettings", responses: { "200": json({ type: "object" }) } },
      put: {
        operationId: "replaceSettings",
        requestBody: { required: true, ...json({ type: "object", properties: { theme: { type: "string" } } }) },
        responses: { "200": json({ type: "object" }) },
      },
    },
    "/reset": { post: { operationId: "resetEverything", responses: { "204": { description: "empty" } } } },
  },
};

/** The staging server: two seeded users and a seeded file that somebody else owns, and its settings. */
function stagingServer() {
  const users = new Map<number, { id: number; name: string; locked?: boolean }>([
    [1, { id: 1, name: "admin" }],
    [2, { id: 2, name: "ayşe" }],
  ]);
  const files = new Map<number, { id: number; name: string }>([[7, { id: 7, name: "contract.pdf" }]]);
  let settings: Record<string, unknown> = { theme: "dark" };
  let nextId = 100;
  const touched: string[] = [];
  const handler = async (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
    const text = await bodyText(req);
    const body = (() => {
      try {
        return JSON.parse(text || "null");
      } catch {
        return null;
      }
    })();
    const [path = ""] = (req.url ?? "").split("?");
    const method = req.method ?? "GET";
    const match = /^\/(users|files)\/(\d+)(\/lock)?$/.exec(path);
    const validName = (b: unknown) =>
      typeof b === "object" &&
      b !== null &&
      typeof (b as { name?: unknown }).name === "string" &&
      (b as { name: string }).name.length >= 1 &&
      (b as { name: string }).name.length <= 40 &&
      Object.keys(b).length === 1;
    if (method !== "GET") touched.push(`${method} ${path}`);
    if (path === "/users" && method === "GET") return sendJson(res, 200, [...users.values()]);
    if (path === "/files" && method === "GET") return sendJson(res, 200, [...files.values()]);
    if (path === "/users" && method === "POST") {
      if (!validName(body)) return sendJson(res, 400, { message: "name is required" });
      const made = { id: nextId++, name: body.name as string };
      users.set(made.id, made);
      return sendJson(res, 201, made);
    }
    if (path === "/users" && method === "DELETE") {
      users.clear();
      return res.writeHead(204).end();
    }
    if (path === "/settings" && method === "GET") return sendJson(res, 200, settings);
    if (path === "/settings" && method === "PUT") {
      settings = typeof body === "object" && body !== null ? body : {};
      return sendJson(res, 200, settings);
    }
    if (path === "/reset" && method === "POST") {
      users.clear();
      files.clear();
      return res.writeHead(204).end();
    }
    if (match) {
      const store = match[1] === "users" ? users : files;
      const id = Number(match[2]);
      const found = store.get(id);
      if (!found) return sendJson(res, 404, { message: "no such thing" });
      if (match[3] && method === "POST") {
        (found as { locked?: boolean }).locked = true;
        return res.writeHead(204).end();
      }
      if (method === "GET") return sendJson(res, 200, found);
      if (method === "DELETE") {
        store.delete(id);
        return res.writeHead(204).end();
      }
      if (method === "PATCH") {
        if (!validName(body)) return sendJson(res, 400, { message: "name is required" });
        found.name = body.name;
        return sendJson(res, 200, found);
      }
    }
    return sendJson(res, 404, { message: "no such route" });
  };
  return { users, files, touched, settings: () => settings, handler };
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const resultOf = (report: VerificationReport, id: string) => report.results.find((r) => r.id === id);

describe("a full --spec run on a shared server", () => {
  it("changes and deletes only what it created itself, and says what it left alone", async () => {
    const staging = stagingServer();
    server = await serveOnLoopback(staging.handler);
    const report = await verifyInlineSpec(spec, server.url, "--seed", "3");

    // Everything that was there before the run is there after it, as it was.
    expect(staging.users.get(1)).toEqual({ id: 1, name: "admin" });
    expect(staging.users.get(2)).toEqual({ id: 2, name: "ayşe" });
    expect(staging.files.get(7)).toEqual({ id: 7, name: "contract.pdf" });
    expect(staging.settings()).toEqual({ theme: "dark" });
    const onSeeded = staging.touched.filter((t) => /^(DELETE|PATCH|POST|PUT) \/(users|files)\/[127]($|\/)/.test(t));
    expect(onSeeded).toEqual([]);
    expect(staging.touched).not.toContain("DELETE /users");
    expect(staging.touched).not.toContain("PUT /settings");
    expect(staging.touched).not.toContain("POST /reset");

    // The by-id writes ran, on users the run made first.
    expect(staging.touched.some((t) => /^DELETE \/users\/1\d\d$/.test(t))).toBe(true);
    expect(staging.touched.some((t) => /^PATCH \/users\/1\d\d$/.test(t))).toBe(true);
    expect(staging.touched.some((t) => /^POST \/users\/1\d\d\/lock$/.test(t))).toBe(true);
    expect(resultOf(report, "positive.deleteUser")?.status).toBe("passed");

    // Files have no producer: their delete is skipped, saying why and how to opt in.
    const deleteFile = resultOf(report, "positive.deleteFile");
    expect(deleteFile?.status).toBe("skipped");
    expect(deleteFile?.note).toContain("DELETE /files/{id} deletes, and this run acts only on what it created itself");
    expect(deleteFile?.note).toContain("no operation creates one");
    expect(deleteFile?.note).toContain("--allow-destructive");
    // Operations that name nothing the run could make are not checked at all, and the summary lists them.
    const ids = report.results.map((r) => r.id);
    for (const op of ["deleteAllUsers", "replaceSettings", "resetEverything"])
      expect(ids.filter((id) => id.endsWith(`.${op}`))).toEqual([]);
    const note = report.warnings?.find((w) => w.startsWith("left alone"));
    expect(note).toContain("3 operations never called");
    expect(note).toContain("DELETE /users, PUT /settings, POST /reset");
    expect(note).toContain("skipped, as the run created no thing of the kind they act on (DELETE /files/{id}");
  });

  it("calls them all with --allow-destructive, on a throw-away server (the test above would have seen it)", async () => {
    const staging = stagingServer();
    server = await serveOnLoopback(staging.handler);
    await verifyInlineSpec(spec, server.url, "--seed", "3", "--allow-destructive");
    expect(staging.touched).toContain("POST /reset");
    expect(staging.touched).toContain("PUT /settings");
    expect(staging.touched.some((t) => /^DELETE \/files\/7$/.test(t))).toBe(true);
  });
});

describe("a rerun of a check the run leaves alone", () => {
  it("says why it is not run and how to opt in, rather than that no such check exists", async () => {
    const staging = stagingServer();
    server = await serveOnLoopback(staging.handler);
    await expect(verifyInlineSpec(spec, server.url, "--only", "positive.resetEverything")).rejects.toThrow(
      "positive.resetEverything is not run: POST /reset it says by its name that it removes, resets, overwrites or saves what exists, and names nothing this run could have created. Give --allow-destructive to run it",
    );
    expect(staging.touched).toEqual([]);
  });
});
