import type { PrismAnswer } from "./prism-engine.js";

/** How many distinct answers are kept: operations × statuses × examples × media types, with room. */
const MAX_ENTRIES = 2_000;

/** An answer ready to write: the body already serialized. */
export interface CachedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/**
 * Prism's static answers, remembered. With examples (not `dynamic=true`), what Prism answers a
 * request that passed validation depends only on the operation, the Prefer header's choices and the
 * Accept header, yet Prism negotiates it anew, through fp-ts pipelines, on every request. The first
 * answer for each such key is kept, serialized, and served as it is from then on; Prism still
 * answers anything dynamic, anything it refused, and any request it found a problem with.
 */
export class StaticAnswers {
  readonly #answers = new Map<string, CachedAnswer>();

  static key(parts: { api: string; operation: string; prefer: string; accept: string }): string {
    return `${parts.api}\u0000${parts.operation}\u0000${parts.prefer}\u0000${parts.accept}`;
  }

  get(key: string): CachedAnswer | undefined {
    return this.#answers.get(key);
  }

  /** Keeps an answer Prism gave without finding fault with the request; returns it ready to write. */
  remember(key: string, answer: PrismAnswer): CachedAnswer {
    const cached: CachedAnswer = {
      status: answer.status,
      headers: answer.headers,
      body:
        answer.body === undefined
          ? undefined
          : typeof answer.body === "string"
            ? answer.body
            : JSON.stringify(answer.body),
    };
    // Keys come from request headers: a client sending endless distinct Prefer values must not grow
    // the cache without end; past the bound, answers are simply not remembered.
    if (answer.inputProblems.length === 0 && this.#answers.size < MAX_ENTRIES) this.#answers.set(key, cached);
    return cached;
  }
}
