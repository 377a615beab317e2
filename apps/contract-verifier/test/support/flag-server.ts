import { bodyText, type LoopbackServer, sendJson, serveOnLoopback } from "./loopback-server.js";

/*
 * A feature-flag server of the tests' own (projects holding features, and tags), with its spec: what a
 * team's staging server looks like to a run of another spec (cleanup, depth, replay).
 */

const json = (schema: object) => ({ content: { "application/json": { schema } } });
const id = { type: "string", pattern: "^[a-z0-9-]{1,40}$" };
const project = { type: "object", required: ["id", "name"], properties: { id, name: { type: "string" } } };
const feature = { type: "object", required: ["name"], properties: { name: id, enabled: { type: "boolean" } } };
export const flagSpec = {
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
export class FlagServer {
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
