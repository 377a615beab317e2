import { routes, zPaymentCreate } from "@payspec/payments-zod";
import { ApiFailure, assertStorableText, coerceNumbers, credentialsFor, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ApiKeys } from "../api-keys/index.js";
import { type SandboxClocks, workspaceScope } from "../clock/index.js";
import type { DeclaredFaults } from "../faults/index.js";
import { faultBeforeHandling } from "../faults/index.js";
import type { SandboxConfig } from "../infrastructure/config/config.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { AccountsAnswer } from "./accounts-answer.js";
import { AccountDirectory } from "./creation/account-directory.js";
import { checkPayment, createPayment } from "./creation/create-payment.js";
import { nowAfterElapsedTime, REQUEST_CHUNKS, readAfterElapsedTime } from "./lifecycle/elapsed-time.js";
import { DEFAULT_PAGE_SIZE, listPayments } from "./listing/list-payments.js";
import { specSerializer } from "./response-serializers.js";
import { paymentToApi } from "./serialize.js";
import type { PaymentsStore, WithElapsed } from "./store/payments-store.js";

export interface PaymentsApiDeps {
  readonly config: SandboxConfig;
  readonly store: PaymentsStore;
  readonly clocks: SandboxClocks;
  readonly secret: SandboxSecret;
  readonly apiKeys: ApiKeys;
  /** Faults tests declared; absent when the control API is off. */
  readonly faults?: DeclaredFaults | undefined;
}

declare module "fastify" {
  interface FastifyRequest {
    workspace: string;
    /** The workspace's sandbox clock, read once per request before its handler runs (see clockOffsetMs). */
    clockNow: number;
    /**
     * For a create whose clockNow is this process's last reading of the clock (not a fresh read), the
     * offset it was worked out with: the store checks it again as it inserts (NewPayment.clockOffsetMs).
     * Null otherwise.
     */
    clockOffsetMs: number | null;
    /**
     * Set when the hook left time's effects to the handler's read, which asks about them in its own
     * statement (readAfterElapsedTime); clockNow is then set by that read.
     */
    elapsedWithRead: boolean;
  }
}

/**
 * Creates read no other payment, so they need not wait for due payments to complete or settle first:
 * the next request that reads does that, at the times the payments fell due.
 */
const WRITE_ONLY_ROUTES = new Set(["/v1/payments", "/v1/payments/batch"]);

/**
 * A create, which needs no due payment completed first (see WRITE_ONLY_ROUTES). Judged by the path
 * as sent, not by `request.routeOptions.url`: Fastify builds that whole options object anew on every
 * read, on every create. A path spelled otherwise that still reaches a create is taken for a read,
 * which costs it only the due-payment pass.
 */
function writeOnly(request: FastifyRequest): boolean {
  if (request.method !== "POST") return false;
  const url = request.url;
  const query = url.indexOf("?");
  return WRITE_ONLY_ROUTES.has(query === -1 ? url : url.slice(0, query));
}

/**
 * A read whose handler can ask nowAfterElapsedTime's question in its own statement, where the store
 * can (see readAfterElapsedTime): GET /v1/accounts and GET /v1/payments/{id}, by the path as sent (see
 * writeOnly). Any other spelling of those paths takes the hook's way, which costs it a round trip.
 */
function readsWithElapsed(request: FastifyRequest, store: PaymentsStore): boolean {
  if (request.method !== "GET") return false;
  const url = request.url;
  if (url === "/v1/accounts") return store.accountsWithElapsed !== undefined;
  return (
    store.paymentWithElapsed !== undefined &&
    url.startsWith(PAYMENT_PATH) &&
    url.length > PAYMENT_PATH.length &&
    !/[/?]/.test(url.slice(PAYMENT_PATH.length))
  );
}
const PAYMENT_PATH = "/v1/payments/";

/**
 * `parse()`, the schema's reading of a create's body, with text no database can hold (a NUL, a lone
 * surrogate) named in words when it fails: the schema's own pattern refuses that text too, but only
 * says the field does not match. A body the schema accepts holds none (a strict object whose every
 * string is a pattern or an enum), so the words cost nothing on the way that succeeds.
 */
function namingUnstorableText<T>(body: unknown, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    assertStorableText(body);
    throw error;
  }
}

/** Whether the caller sent `limit` itself (the parsed query has the spec's default filled in). */
function rawLimitGiven(query: unknown): boolean {
  return typeof query === "object" && query !== null && "limit" in query;
}

/**
 * What every /v1 request needs before its handler, in one hook, not three: every API request runs it.
 * It authenticates (before any body is read), reads the workspace's clock once for the whole request
 * (a create may use this process's last reading, which its insert checks again), and lets due
 * payments complete and settle before anything reads them. Its common case (a configured key, no
 * faults, a clock and payments held in this process, nothing due) is answered at once, without a promise.
 */
class RequestPreparation {
  readonly #deps: PaymentsApiDeps;
  readonly #completeAfterMs: number;

  constructor(deps: PaymentsApiDeps) {
    this.#deps = deps;
    this.#completeAfterMs = deps.config.completeAfterSeconds * 1000;
  }

  get completeAfterMs(): number {
    return this.#completeAfterMs;
  }

  /** The hook itself: at once when it can be, else after `prepare`. */
  onRequest(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    if (this.readyAtOnce(request)) done();
    else this.prepare(request, reply).then(() => done(), done);
  }

  readyAtOnce(request: FastifyRequest): boolean {
    const key = credentialsFor("Bearer", request.headers.authorization);
    const workspace = key === undefined ? undefined : this.#deps.apiKeys.configuredWorkspace(key);
    if (workspace === undefined) return false;
    const scope = workspaceScope(workspace);
    if (this.#deps.faults?.hasAny(scope)) return false;
    const now = this.#deps.clocks.nowIfKnown(scope);
    if (now === undefined) {
      // The clock must be asked for: a read that asks in its own statement needs nothing more here.
      if (!readsWithElapsed(request, this.#deps.store)) return false;
      request.workspace = workspace;
      request.elapsedWithRead = true;
      return true;
    }
    if (!writeOnly(request) && this.#deps.store.nothingElapsed?.(workspace, now, this.#completeAfterMs) !== true)
      return false;
    request.workspace = workspace;
    request.clockNow = now;
    return true;
  }

  async prepare(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const key = credentialsFor("Bearer", header) ?? "";
    if (!header) throw new ApiFailure("unauthorized", "Send the API key as 'Authorization: Bearer <API_KEY>'.");
    const authenticated = await this.#deps.apiKeys.authenticate(key);
    if (!authenticated.ok) throw new ApiFailure("unauthorized", authenticated.message);
    request.workspace = authenticated.workspace;
    const scope = workspaceScope(request.workspace);
    const { faults } = this.#deps;
    if (faults?.hasAny(scope)) await faultBeforeHandling(faults, scope, request, reply);
    if (readsWithElapsed(request, this.#deps.store)) {
      request.elapsedWithRead = true;
      return;
    }
    if (writeOnly(request)) {
      // A create's time is checked again where it is stored, against the clock as the insert sees
      // it, so the last reading will do: on PostgreSQL the insert is then the create's one round trip.
      const reading = this.#deps.clocks.lastReading(scope);
      if (reading) {
        request.clockNow = reading.now;
        request.clockOffsetMs = reading.offsetMs;
      } else {
        request.clockNow = await this.#deps.clocks.now(scope);
      }
      return;
    }
    request.clockNow = await nowAfterElapsedTime(
      this.#deps.clocks,
      scope,
      this.#deps.store,
      request.workspace,
      this.#completeAfterMs,
      REQUEST_CHUNKS,
    );
  }

  /** A read after time's effects: the handler's own, where the hook left them to it. */
  async readAfterElapsed<T>(
    request: FastifyRequest,
    withElapsed: (asOf: number) => Promise<WithElapsed<T>> | undefined,
    alone: () => Promise<T>,
  ): Promise<T> {
    if (!request.elapsedWithRead) return alone();
    const scope = workspaceScope(request.workspace);
    const read = await readAfterElapsedTime(
      this.#deps.clocks,
      scope,
      this.#deps.store,
      request.workspace,
      this.#completeAfterMs,
      withElapsed,
      alone,
    );
    request.clockNow = read.now;
    return read.value;
  }
}

/** What the routes share: the deps, the preparation (and its reads), the account directory. */
interface PaymentsRoutes {
  readonly deps: PaymentsApiDeps;
  readonly prepared: RequestPreparation;
  readonly accountDirectory: AccountDirectory;
}

/** GET /v1/accounts, GET /v1/payments/{id}, GET /v1/payments: each after time's effects. */
function registerReads(v1: FastifyInstance, { deps, prepared }: PaymentsRoutes): void {
  const { store, secret } = deps;
  const completeAfterMs = prepared.completeAfterMs;
  const accountsAnswer = new AccountsAnswer();
  v1.get("/v1/accounts", (request, reply) => {
    const kept = store.keptAccounts?.(request.workspace);
    if (kept) {
      accountsAnswer.sendKept(reply, kept);
      return;
    }
    const { workspace } = request;
    return prepared
      .readAfterElapsed(
        request,
        (asOf) => store.accountsWithElapsed?.(workspace, asOf, completeAfterMs),
        () => store.accounts(workspace),
      )
      .then((accounts) => accountsAnswer.fromRead(reply, accounts));
  });

  v1.get<{ Params: { id: string } }>(
    "/v1/payments/:id",
    specSerializer("/v1/payments/{id}", "get", 200),
    async (request) => {
      const { path } = parseRequest(routes["GET /v1/payments/{id}"].data, { path: request.params });
      const { workspace } = request;
      const payment = await prepared.readAfterElapsed(
        request,
        (asOf) => store.paymentWithElapsed?.(workspace, path.id, asOf, completeAfterMs),
        () => store.payment(workspace, path.id),
      );
      if (!payment) throw new ApiFailure("not_found", `No payment ${path.id} in this workspace.`, { param: "id" });
      return paymentToApi(payment);
    },
  );

  v1.get<{ Querystring: Record<string, unknown> }>("/v1/payments", async (request) => {
    const parsed = parseRequest(routes["GET /v1/payments"].data, { query: coerceNumbers(request.query, ["limit"]) });
    const { limit, ...query } = parsed.query ?? { limit: DEFAULT_PAGE_SIZE };
    // The parsed query has the spec's default limit filled in: beside a cursor only a limit the
    // caller sent changes the page size.
    const asked = !query.cursor || rawLimitGiven(request.query) ? { limit: limit ?? DEFAULT_PAGE_SIZE } : {};
    return listPayments(store, secret, request.workspace, { ...query, ...asked });
  });
}

/** POST /v1/payments and POST /v1/payments/batch. */
function registerCreates(v1: FastifyInstance, { deps, accountDirectory }: PaymentsRoutes): void {
  const { store } = deps;
  v1.post("/v1/payments", specSerializer("/v1/payments", "post", 201), async (request, reply) => {
    const { body } = namingUnstorableText(request.body, () =>
      parseRequest(routes["POST /v1/payments"].data, { body: request.body }),
    );
    const accounts = accountDirectory.known(request.workspace) ?? (await accountDirectory.of(request.workspace));
    const offset = request.clockOffsetMs ?? undefined;
    const payment = await createPayment(store, request.workspace, accounts, body, request.clockNow, offset);
    reply.code(201).header("Location", `/v1/payments/${payment.id}`);
    return paymentToApi(payment);
  });

  v1.post("/v1/payments/batch", async (request) => {
    const { body } = parseRequest(routes["POST /v1/payments/batch"].data, { body: request.body });
    const at = request.clockNow;
    const accounts = new Map((await accountDirectory.of(request.workspace)).map((a) => [a.id, a]));
    const offset = request.clockOffsetMs ?? undefined;
    // Every entry is checked first; the valid ones are then inserted together, in index order.
    const checked = await Promise.all(
      body.payments.map(async (entry) => {
        try {
          const input = namingUnstorableText(entry, () => parseRequest(zPaymentCreate, entry));
          return checkPayment((id) => accounts.get(id), input, at, offset);
        } catch (error) {
          return entryFailure(error);
        }
      }),
    );
    const inserted = await Promise.allSettled(
      checked.map((draft) => (draft instanceof ApiFailure ? draft : store.insert(request.workspace, draft))),
    );
    const results = inserted.map((settled, index) => {
      const outcome = settled.status === "fulfilled" ? settled.value : entryFailure(settled.reason);
      return outcome instanceof ApiFailure
        ? { index, outcome: "failed" as const, error: outcome.paymentsBody() }
        : { index, outcome: "created" as const, payment: paymentToApi(outcome) };
    });
    const created = results.filter((r) => r.outcome === "created").length;
    return { created, failed: results.length - created, results };
  });
}

/** DELETE /v1/payments/{id}: a cancel, for a payment still pending or approved. */
function registerCancel(v1: FastifyInstance, { deps }: PaymentsRoutes): void {
  const { store } = deps;
  v1.delete<{ Params: { id: string } }>("/v1/payments/:id", async (request) => {
    const { path } = parseRequest(routes["DELETE /v1/payments/{id}"].data, { path: request.params });
    const result = await store.transition(
      request.workspace,
      path.id,
      ["pending", "approved"],
      "cancelled",
      request.clockNow,
      "api",
    );
    if (result.ok) return paymentToApi(result.payment);
    if (!result.payment) throw new ApiFailure("not_found", `No payment ${path.id} in this workspace.`, { param: "id" });
    throw new ApiFailure(
      "payment_not_cancellable",
      `Payment ${path.id} is ${result.payment.status}; only pending or approved payments can be cancelled.`,
    );
  });
}

/** GET/POST/DELETE under /v1: the payments and accounts service. */
export function registerPaymentsApi(app: FastifyInstance, deps: PaymentsApiDeps): void {
  app.decorateRequest("workspace", "");
  app.decorateRequest("clockNow", 0);
  app.decorateRequest("clockOffsetMs", null);
  app.decorateRequest("elapsedWithRead", false);
  const routes: PaymentsRoutes = {
    deps,
    prepared: new RequestPreparation(deps),
    accountDirectory: new AccountDirectory(deps.store),
  };
  app.register(async (v1) => {
    v1.addHook("onRequest", (request, reply, done) => routes.prepared.onRequest(request, reply, done));
    registerReads(v1, routes);
    registerCreates(v1, routes);
    registerCancel(v1, routes);
  });
}

/**
 * A batch entry's failure as the caller sees it: a fault in one entry must not turn the whole answer
 * into a 500, since the others were created and the caller has to learn which.
 */
function entryFailure(error: unknown): ApiFailure {
  return error instanceof ApiFailure
    ? error
    : new ApiFailure("internal_error", "This entry failed on our side; it was not created. Send it again.");
}
