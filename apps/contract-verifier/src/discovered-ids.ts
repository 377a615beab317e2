/**
 * Ids the server itself returned, from the list operations a run of another spec calls before its
 * checks (RESTler's producer-consumer idea, kept simple): a path parameter is filled with one of them
 * instead of a generated string, so a by-id operation is exercised past its 404. Gathered once per
 * run, before any check, so a check run alone (--only) gets the same ids as in the full run.
 */
export class DiscoveredIds {
  /** `id`s of the objects a collection's GET answered, by its path template (`/bookings`). */
  readonly #collections = new Map<string, string[]>();
  /** Values of id-named fields (`id`, `petId`, `booking_id`), by the field's normalised name. */
  readonly #fields = new Map<string, string[]>();
  /** The operations whose path parameters were filled from these ids, for the run's summary. */
  readonly used = new Set<string>();
  /** Ids the run made itself before the checks (see produced-ids.ts), and the operations that took one. */
  readonly #made = new Set<string>();
  readonly usedMade = new Set<string>();
  /** The producer called for a path parameter (`POST /users`), by template and parameter, made an id or not. */
  readonly #producers = new Map<string, string>();

  /** Notes that `producer` was called to make an id for a path parameter. */
  tried(template: string, parameter: string, producer: string): void {
    this.#producers.set(`${template} ${parameter}`, producer);
  }

  /** The producer called for a path parameter, if one was. */
  producerOf(template: string, parameter: string): string | undefined {
    return this.#producers.get(`${template} ${parameter}`);
  }

  /** Keeps an id the run created for a path parameter no list filled: by its collection, and by name. */
  produced(template: string, parameter: string, id: string): void {
    const collection = collectionOf(template, parameter);
    if (collection) add(this.#collections, collection, id);
    if (normalised(parameter) !== "id") add(this.#fields, normalised(parameter), id);
    this.#made.add(id);
  }

  /** Whether `id` is one the run made itself, not one a list answered. */
  made(id: string): boolean {
    return this.#made.has(id);
  }

  /** Keeps the ids of one answer of a collection's GET (a list, or an object holding lists). */
  harvest(listTemplate: string, body: unknown): void {
    // `/movies/` and `/movies` name one collection (Platformatic lists at the first, reads `/movies/{id}`).
    const template = listTemplate.replace(/\/+$/, "");
    let nodes = 0;
    const walk = (node: unknown, depth: number) => {
      if (depth > 6 || ++nodes > 5_000 || typeof node !== "object" || node === null) return;
      if (Array.isArray(node)) {
        for (const item of node) walk(item, depth + 1);
        return;
      }
      for (const [key, value] of Object.entries(node)) {
        if ((typeof value === "string" && value !== "") || (typeof value === "number" && Number.isFinite(value))) {
          if (key === "id") add(this.#collections, template, String(value));
          if (/(^id$|id$|_id$)/i.test(key)) add(this.#fields, normalised(key), String(value));
        } else walk(value, depth + 1);
      }
    };
    walk(body, 0);
  }

  /**
   * An id for a path parameter: a field of the same name the server returned (`petId`), else an `id`
   * from the collection the parameter's path hangs from (`/bookings` for `/bookings/{bookingId}`).
   */
  candidates(template: string, parameter: string): string[] {
    const collection = collectionOf(template, parameter);
    // A parameter called just `id` names no kind of thing: every collection's objects have an `id`
    // (Unleash's feature type "release" is no addon id), so only its own collection's ids fit it.
    const byName = normalised(parameter) === "id" ? [] : (this.#fields.get(normalised(parameter)) ?? []);
    return [...byName, ...(collection ? (this.#collections.get(collection) ?? []) : [])];
  }

  get size(): number {
    return this.#collections.size + this.#fields.size;
  }
}

/** The collection a path parameter's path hangs from: `/bookings` for `/bookings/{bookingId}`. */
export const collectionOf = (template: string, parameter: string) =>
  template.slice(0, template.indexOf(`/{${parameter}}`));

const normalised = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

function add(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key) ?? [];
  if (list.length < 20 && !list.includes(value)) list.push(value);
  map.set(key, list);
}
