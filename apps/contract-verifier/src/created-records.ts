import type { OperationInfo } from "./spec-operations.js";

/** A record the run made on the server, and where the spec deletes it. */
export interface CreatedRecord {
  /** The request that made it: `POST /api/admin/tags`. */
  readonly madeBy: string;
  /** Its id, as the server answered it (its Location, or the body's id or name). */
  readonly id: string;
  /** The path the spec's DELETE removes it at; undefined when the spec has no DELETE for it. */
  readonly deletePath?: string;
  /** That DELETE operation (the run may be told never to call it: --exclude-operations). */
  readonly deleteOperation?: OperationInfo;
}

/** What the run made and could not remove, and why. */
export interface LeftRecord {
  readonly madeBy: string;
  readonly id: string;
  /** Where it is, when the spec says (its DELETE's path). */
  readonly path?: string;
  readonly why: string;
}

/** The run's cleanup, in its report: what it deleted, what it left and why. */
export interface CleanupReport {
  /** Records the run created and then deleted itself (its DELETE checks, then the cleanup). */
  readonly deleted: number;
  readonly left: readonly LeftRecord[];
  /** `--keep-created`: nothing was deleted at the end; `left` is what stays. */
  readonly kept?: true;
  /** The run was interrupted (SIGINT, SIGTERM): the cleanup ran before it stopped. */
  readonly interrupted?: true;
}

/** A path template as a pattern: `/tags/{type}/{value}` matches `/tags/simple/x`, its groups the parameters in order. */
function matcher(template: string): RegExp {
  const pattern = template.replace(/\/+$/, "").replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);
  return new RegExp(`^${pattern.replace(/\\\{([^}]+)\\\}/g, "([^/]+)")}/*$`);
}

/** `template` with its parameters filled in order (`/projects/{id}/features/{name}/` → `/projects/p-1/features/x/`). */
const filled = (template: string, values: readonly string[]) => {
  let i = 0;
  return template.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++] ?? ""));
};

const withoutTrailingSlash = (path: string) => path.replace(/\/+$/, "");

const lastSegment = (path: string) =>
  decodeURIComponent(path.split("?")[0]?.replace(/\/+$/, "").split("/").pop() ?? "");

/**
 * The records a run creates, and which it deletes again (RESTler's garbage collector): a POST (or a
 * PUT answered 201) that made something, kept with the spec's DELETE for it (the operation one path
 * segment deeper, `DELETE /tags/{type}/{value}` for `POST /tags/{type}`, or at its own path); a
 * DELETE that removed it forgets it. Deleted in reverse, children before their parents.
 */
export class CreatedRecords {
  /** Each DELETE: its template as the spec writes it (trailing slash and all), and its pattern. */
  readonly #deletes: readonly { template: string; pattern: RegExp; op: OperationInfo }[];
  readonly #records: CreatedRecord[] = [];
  #deleted = 0;
  /** The ids each list operation answered before the run's checks, by its template. */
  readonly #listedBefore = new Map<string, Set<string>>();
  /** Text the run sent in writes: what a record it made as a side effect holds. */
  readonly #sentText = new Set<string>();

  constructor(operations: readonly OperationInfo[]) {
    this.#deletes = operations
      .filter((op) => op.method.toUpperCase() === "DELETE")
      .map((op) => ({ template: op.template, pattern: matcher(op.template), op }));
  }

  /** Notes an answer: a record made, or one deleted. `path` is the spec's path as sent, without the query. */
  note(
    method: string,
    path: string,
    status: number,
    reply: { readonly headers: Readonly<Record<string, string>>; readonly body: unknown },
    sent?: unknown,
  ): void {
    const verb = method.toUpperCase();
    const clean = path.split("?")[0]?.replace(/\/+$/, "") ?? "";
    // Any write's text, accepted or not: a server may keep part of a request it then refuses (ARA
    // makes a playbook's labels before it finds the playbook invalid).
    if (verb !== "GET" && verb !== "DELETE") for (const text of texts(sent)) this.#sentText.add(text);
    if (verb === "DELETE") {
      // Gone, whoever asked (its own check, or the cleanup) and whatever it said: 404 is gone too.
      if ((status >= 200 && status < 300) || status === 404 || status === 410) this.#forget(clean);
      return;
    }
    if ((verb !== "POST" && verb !== "PUT") || status < 200 || status >= 300) return;
    const made = this.#madeRecord(verb, clean, status, reply);
    if (made) this.#records.push(made);
  }

  #madeRecord(
    verb: string,
    path: string,
    status: number,
    reply: { readonly headers: Readonly<Record<string, string>>; readonly body: unknown },
  ): CreatedRecord | undefined {
    const madeBy = `${verb} ${path}`;
    // A PUT answered 201 made what its own path names, deleted there.
    if (verb === "PUT") {
      if (status !== 201) return undefined;
      const own = this.#deletes.find((d) => d.pattern.test(path));
      const values = own?.pattern.exec(path)?.slice(1).map(decodeURIComponent);
      return {
        madeBy,
        id: lastSegment(path),
        ...(own && values ? { deletePath: filled(own.template, values), deleteOperation: own.op } : {}),
      };
    }
    const location = reply.headers.location;
    const located = location ? new URL(location, "http://server.invalid").pathname.replace(/\/+$/, "") : undefined;
    // A Location that names the collection itself (Unleash answers a project token's create so) is no id.
    const fromLocation = located && lastSegment(located) !== lastSegment(path) ? located : undefined;
    // The DELETE one segment below the collection the POST went to, its parameters filled from the POST's path.
    const child = this.#deletes.find((d) => {
      const template = withoutTrailingSlash(d.template);
      return /\/\{[^}]+\}$/.test(template) && matcher(template.slice(0, template.lastIndexOf("/"))).test(path);
    });
    const body = reply.body as Record<string, unknown> | undefined;
    const parameter = child ? (/\{([^}]+)\}\/*$/.exec(child.template)?.[1] as string) : "id";
    const fromBody = idIn(body, parameter);
    const id = fromLocation ? lastSegment(fromLocation) : fromBody;
    // Only what it says it made: a 201, a Location, or an id where the spec deletes such things.
    if (id === undefined || id === "" || (status !== 201 && !fromLocation && !child)) return undefined;
    if (!child) return { madeBy, id };
    const parent = withoutTrailingSlash(child.template);
    const values =
      matcher(parent.slice(0, parent.lastIndexOf("/")))
        .exec(path)
        ?.slice(1) ?? [];
    return {
      madeBy,
      id,
      deletePath: filled(child.template, [...values.map(decodeURIComponent), id]),
      deleteOperation: child.op,
    };
  }

  #forget(path: string): void {
    const before = this.#records.length;
    for (let i = this.#records.length - 1; i >= 0; i--) {
      const deletePath = this.#records[i]?.deletePath;
      if (deletePath !== undefined && withoutTrailingSlash(deletePath) === path) this.#records.splice(i, 1);
    }
    this.#deleted += before - this.#records.length;
  }

  /** Keeps the ids a list operation answered before the run's checks: what was there. */
  listedBefore(template: string, body: unknown): void {
    this.#listedBefore.set(withoutTrailingSlash(template), new Set(listedIds(body)));
  }

  /** The list operations answered before the checks, to ask again at the end. */
  get lists(): readonly string[] {
    return [...this.#listedBefore.keys()];
  }

  /**
   * Records a list answers now that it did not before the checks and the run did not make itself by a
   * create it saw answered: made as a side effect of its writes (labels named in a playbook it posted).
   * Each is the run's when one of its texts is text the run sent in an accepted write; the others
   * appeared during the run, perhaps another client's, and are only named.
   */
  appeared(template: string, body: unknown): { readonly ours: CreatedRecord[]; readonly others: string[] } {
    const list = withoutTrailingSlash(template);
    const before = this.#listedBefore.get(list) ?? new Set();
    const tracked = new Set(this.#records.map((r) => r.deletePath && withoutTrailingSlash(r.deletePath)));
    const ours: CreatedRecord[] = [];
    const others: string[] = [];
    const remover = this.#deletes.find((d) => {
      const item = withoutTrailingSlash(d.template);
      return /\/\{[^}]+\}$/.test(item) && item.slice(0, item.lastIndexOf("/")) === list;
    });
    // A list whose items the spec never deletes (an event log, a search) holds no record to clean up.
    if (!remover) return { ours, others };
    for (const item of listedItems(body)) {
      const id = String(item.id);
      const deletePath = remover ? filled(remover.template, [id]) : undefined;
      if (before.has(id) || (deletePath && tracked.has(withoutTrailingSlash(deletePath)))) continue;
      const mine = Object.entries(item).some(
        ([key, value]) => key !== "id" && typeof value === "string" && this.#sentText.has(value),
      );
      if (!mine) others.push(id);
      else
        ours.push({
          madeBy: `a write of the run (found in GET ${template})`,
          id,
          ...(deletePath ? { deletePath, deleteOperation: remover.op } : {}),
        });
    }
    return { ours, others };
  }

  /** Takes records the run made as a side effect (see `appeared`) as its own, to be deleted like the rest. */
  adopt(records: readonly CreatedRecord[]): void {
    // Before the ones it made itself in the order of deletion: a parent it posted goes first, then these.
    this.#records.unshift(...records);
  }

  /** What the run made and has not deleted, newest first: the order to delete them in. */
  get pending(): readonly CreatedRecord[] {
    return [...this.#records].reverse();
  }

  get deleted(): number {
    return this.#deleted;
  }
}

/** The objects with an `id` a list answer holds (an array, or an object holding one: `results`, `data`). */
function listedItems(body: unknown): Record<string, unknown>[] {
  const array = Array.isArray(body)
    ? body
    : (Object.values((body ?? {}) as Record<string, unknown>).find(Array.isArray) as unknown[] | undefined);
  return (array ?? []).filter(
    (item): item is Record<string, unknown> =>
      typeof item === "object" && item !== null && ["string", "number"].includes(typeof (item as { id?: unknown }).id),
  );
}

const listedIds = (body: unknown) => listedItems(body).map((item) => String(item.id));

/** Every string in a request body, however deep (at most 500): what the server may keep of it. */
function texts(body: unknown, found: string[] = []): string[] {
  if (found.length >= 500) return found;
  if (typeof body === "string") found.push(body);
  else if (Array.isArray(body)) for (const item of body) texts(item, found);
  else if (body && typeof body === "object") for (const value of Object.values(body)) texts(value, found);
  return found;
}

/**
 * The id a create's answer gives a record, for the DELETE's parameter `parameter`: that field, an
 * `…Id` of it, or the usual names (`id`, `name`, `key`; for a token, its `secret`, which Unleash's
 * `DELETE /api/admin/api-tokens/{token}` takes).
 */
function idIn(body: unknown, parameter: string): string | undefined {
  const fields = body as Record<string, unknown> | undefined;
  const nested = fields?.data as Record<string, unknown> | undefined;
  const names = [
    parameter,
    `${parameter}Id`,
    `${parameter}_id`,
    "id",
    "name",
    "key",
    ...(/token/i.test(parameter) ? ["secret", "token"] : []),
  ];
  for (const source of [fields, nested])
    for (const name of names) {
      const value = source?.[name];
      if (typeof value === "string" || typeof value === "number") return String(value);
    }
  return undefined;
}

/**
 * A record left on the server as a report shows it: a long random id (a token's secret, which works
 * as a credential) only by its start, in its path too.
 */
export function leftRecord(record: CreatedRecord, why: string): LeftRecord {
  const shown = record.id.length > 24 ? `${record.id.slice(0, 8)}…` : record.id;
  const path = record.deletePath?.replace(encodeURIComponent(record.id), shown);
  return { madeBy: record.madeBy, id: shown, ...(path ? { path } : {}), why };
}
