import { KEY } from "./harness.js";

/**
 * A request to a sandbox at `base` as a workspace (Bearer `key`): a string body goes as text/csv (a
 * statement), anything else as JSON. For tests that run sandboxes of their own (processes, instances).
 */
export async function sandboxCall(base: string, method: string, path: string, body?: unknown, key: string = KEY) {
  const csv = typeof body === "string";
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": csv ? "text/csv" : "application/json" }),
    },
    ...(body === undefined ? {} : { body: csv ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any, text };
}
