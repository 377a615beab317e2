import { SAFE_METHODS } from "./options.js";

/**
 * A POST that empties, removes, overwrites or rewrites what is already there, whatever its path:
 * WireMock's `POST /__admin/reset`, `/mappings/import` (which may delete every stub not imported) and
 * `/mappings/save` (which marks every stub persistent), Unleash's `/user-admin/reset-password` and
 * `/inactive/delete`, a batch delete.
 */
const DESTROYING_VERB =
  /(^|[^a-z])(reset|remove|delete|clear|purge|truncate|wipe|destroy|drop|erase|revoke|archive|import|restore|overwrite|replace|save|persist)/i;

/** A POST to a server's settings (`/__admin/settings`, `/ui-config`): it changes what everyone has. */
const SETTINGS = /\/(settings|config|configuration|preferences|ui-config)\/?$/i;

/**
 * Why a request to this operation could change or destroy something the run did not make, or
 * undefined when it cannot (a read, or a POST that creates). RESTler's producer-consumer rule, kept
 * strict for a shared server: DELETE, PUT and PATCH act on what exists; a POST does when its path
 * names an existing thing (`/users/{id}/roles`) or its name says it removes.
 */
export function destroys(
  op: { method: string; template: string; operationId: string },
  deletableChildren: ReadonlySet<string> = new Set(),
): string | undefined {
  const method = op.method.toUpperCase();
  if (SAFE_METHODS.includes(method)) return undefined;
  const named = op.template.includes("{");
  if (method === "DELETE") return "deletes";
  if (method === "PUT" || method === "PATCH") return named ? "changes what it names" : "replaces what is there";
  if (DESTROYING_VERB.test(`${op.template} ${op.operationId}`))
    return "says by its name that it removes, resets, overwrites or saves what exists";
  if (SETTINGS.test(op.template)) return "changes the server's settings";
  // A POST to a collection inside an existing thing (`POST /projects/{id}/features`) only adds a child,
  // which the spec can delete and the run deletes at its end: it may go into a parent the server listed.
  if (named && deletableChildren.has(op.template.replace(/\/+$/, ""))) return undefined;
  return named ? "acts on an existing thing that its path names" : undefined;
}

/** The collections whose members the spec deletes (`/projects/{id}/features` for `DELETE /projects/{id}/features/{name}`). */
export function deletableCollections(operations: readonly { method: string; template: string }[]): Set<string> {
  const collections = new Set<string>();
  for (const op of operations) {
    if (op.method.toUpperCase() !== "DELETE") continue;
    const match = /^(.*)\/\{[^}/]+\}\/*$/.exec(op.template);
    if (match?.[1] && !/\}$/.test(match[1])) collections.add(match[1]);
  }
  return collections;
}

/**
 * Whether the run may call the operation only with ids it made itself: a destroying operation whose
 * path names the thing. One whose path names nothing (`DELETE /cache`, `PUT /settings`,
 * `POST /reset`) acts on what exists whatever the run makes, so it is never called by default.
 */
export function needsOwnIds(
  op: { method: string; template: string; operationId: string },
  deletableChildren?: ReadonlySet<string>,
): boolean {
  return destroys(op, deletableChildren) !== undefined && op.template.includes("{");
}

/** Why an operation is never called without --allow-destructive, or undefined when it may be (with its own ids). */
export function neverCalled(op: { method: string; template: string; operationId: string }): string | undefined {
  const why = destroys(op);
  if (why === undefined || needsOwnIds(op)) return undefined;
  return `it ${why}, and names nothing this run could have created`;
}

/** Why a destroying operation's check is skipped: the run made no thing of the kind it acts on. */
export function noOwnId(
  op: { method: string; template: string; operationId: string },
  parameter: string,
  producer?: string,
): string {
  const made = producer
    ? `creating one first (${producer}) gave no id`
    : `no operation creates one (no response link feeds {${parameter}}, and there is no POST to the collection it hangs from)`;
  return `${op.method} ${op.template} ${destroys(op)}, and this run acts only on what it created itself: ${made}. --allow-destructive calls it with ids the server listed, on a server whose data may be lost.`;
}
