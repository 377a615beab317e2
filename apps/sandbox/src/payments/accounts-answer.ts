import type { FastifyReply } from "fastify";
import { accountToApi } from "./serialize.js";
import type { StoredAccount } from "./store/payments-store.js";

/** What Fastify sends for JSON it serializes itself: the answer is the same either way. */
const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** The answer's JSON text. */
function answerText(accounts: readonly StoredAccount[]): string {
  return JSON.stringify(accounts.map(accountToApi));
}

/**
 * GET /v1/accounts as sent. Every API caller reads it, and its text changes only when a balance moves:
 * from a store that keeps its list until then (`keptAccounts`), the text is made once per list and
 * each read sends it as it is, with no serializer and no promise on the way.
 */
export class AccountsAnswer {
  /** Weak, by list: a list the store has let go of takes its text with it. Never keyed by a list made per read. */
  readonly #textOfKeptList = new WeakMap<readonly StoredAccount[], string>();

  /** Sends the answer from a kept list (`keptAccounts`). */
  sendKept(reply: FastifyReply, accounts: readonly StoredAccount[]): void {
    let text = this.#textOfKeptList.get(accounts);
    if (text === undefined) {
      text = answerText(accounts);
      this.#textOfKeptList.set(accounts, text);
    }
    reply.type(JSON_CONTENT_TYPE).send(text);
  }

  /**
   * The answer from a list read for this request alone, for the handler to return: the text, not the
   * reply (a handler's promise that resolves to the reply makes Fastify watch the stream to its end).
   */
  fromRead(reply: FastifyReply, accounts: readonly StoredAccount[]): string {
    reply.type(JSON_CONTENT_TYPE);
    return answerText(accounts);
  }
}
