import type { Writable } from "node:stream";
import {
  type CallOptions,
  callInit,
  type ExportFormat,
  type FetchLike,
  type RetryOptions,
  requireCredential,
  resilientFetch,
  resolveValidation,
  retryPolicy,
  specMiddleware,
  type ValidationOptions,
  type WithResponse,
  withResponse,
  withTypedError,
  withTypedErrors,
} from "@payspec/client-core";
import { routes } from "@payspec/payments-zod";
import createClient, { type Client } from "openapi-fetch";
import { type CreateManyOutcome, createMany } from "./batch.js";
import { PaymentsApiError, type PaymentsErrorCode } from "./errors.js";
import { writePayments } from "./export.js";
import { createRecovering } from "./lost-answers.js";
import { paymentPages, paymentsOf } from "./pagination.js";
import { type ReconciledOutcome, reconcile } from "./reconcile.js";
import type {
  Account,
  ListPaymentsQuery,
  Payment,
  PaymentBatchResult,
  PaymentCreate,
  PaymentPage,
  paths,
} from "./types.js";

export interface PaymentsClientOptions {
  /** The service base address, without /v1: the live one, the sandbox, or a local payspec sandbox. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  readonly apiKey: string;
  /** A fetch to use instead of the global one. */
  readonly fetch?: FetchLike;
  /** `true`/`false` switches request and response validation together, or set each. Default: requests only. */
  readonly validate?: boolean | ValidationOptions;
  /** Retries of safe requests (GET, DELETE, never-sent connections). `false` turns them off. */
  readonly retry?: RetryOptions | false;
  /** Per-attempt timeout in ms. Default 30000. */
  readonly timeoutMs?: number;
}

export interface CreatePaymentOptions extends CallOptions {
  /**
   * After a lost answer, find the payment by its `reference` (needed, unique per payment) before
   * sending it again: found, it is returned; not found, it is sent once more.
   */
  readonly recoverLostAnswer?: boolean;
}

/**
 * Every method takes per-call options last (`{ signal, timeoutMs, headers }`), and every answer it
 * returns carries `lastResponse` (its request id, status and headers), as stripe-node's do.
 */
export interface PaymentsClient {
  /** The openapi-fetch client, typed by path and method. Every non-2xx throws ApiError. */
  readonly raw: Client<paths>;
  listAccounts(options?: CallOptions): Promise<WithResponse<Account[]>>;
  /**
   * Creates a payment. With `recoverLostAnswer`, a create whose answer was lost (a connection broken
   * after sending, a timeout, a 5xx) is looked up by its `reference` before it is sent again, so it
   * is never paid twice: see "When the answer is lost" in the README.
   */
  createPayment(payment: PaymentCreate, options?: CreatePaymentOptions): Promise<WithResponse<Payment>>;
  /** Every payment whose reference is exactly `reference` (the listing's `reference` filter). */
  paymentsByReference(reference: string, options?: CallOptions): Promise<WithResponse<Payment>[]>;
  getPayment(id: string, options?: CallOptions): Promise<WithResponse<Payment>>;
  /**
   * Cancels a pending or approved payment; any other state throws PaymentsApiError 409
   * payment_not_cancellable. A cancel whose first attempt reached the server and was retried
   * resolves with the cancelled payment instead of that 409.
   */
  cancelPayment(id: string, options?: CallOptions): Promise<WithResponse<Payment>>;
  /** One call to POST /v1/payments/batch (1 to 500 entries). */
  createPaymentBatch(
    payments: readonly PaymentCreate[],
    options?: CallOptions,
  ): Promise<WithResponse<PaymentBatchResult>>;
  /**
   * Any number of payments, split into batches of 500; one outcome per input, in input order:
   * `created`, `failed` (the server said so) or `unknown` (it may have been created). Set
   * `reference` on each payment so that `reconcile` can settle the unknown ones.
   */
  createMany(payments: readonly PaymentCreate[], options?: CallOptions): Promise<CreateManyOutcome[]>;
  /**
   * Settles createMany's `unknown` outcomes by looking their payments up by `reference`: `created`
   * when found, `missing` (safe to send again) when not. Re-send only the `missing` ones.
   */
  reconcile(
    payments: readonly PaymentCreate[],
    outcomes: readonly CreateManyOutcome[],
    options?: CallOptions,
  ): Promise<ReconciledOutcome[]>;
  /** One page of GET /v1/payments. */
  listPayments(query?: ListPaymentsQuery, options?: CallOptions): Promise<WithResponse<PaymentPage>>;
  /** Every page of a listing, following next_cursor. */
  pages(query?: ListPaymentsQuery, options?: CallOptions): AsyncGenerator<PaymentPage>;
  /** Every payment of a listing: `for await (const p of client.payments({ status: "completed" }))`. */
  payments(query?: ListPaymentsQuery, options?: CallOptions): AsyncGenerator<Payment>;
  /** Streams every matching payment to `destination` as CSV (dashboard columns) or JSON Lines. */
  exportPayments(
    destination: Writable,
    options?: { format?: ExportFormat; query?: ListPaymentsQuery } & CallOptions,
  ): Promise<number>;
}

/**
 * openapi-fetch returns `data` as optional; with the error middleware a resolved call always has it.
 * It comes back with its response's details (`lastResponse`).
 */
function body<T>(result: { data?: T; response: Response }): WithResponse<T> {
  return withResponse(result.data as T, result.response);
}

/** A typed client for the payments-and-accounts API. Every failure throws a typed error (see README). */
export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  requireCredential("apiKey", options.apiKey, "the workspace's API key (the sandbox prints its demo key at start)");
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: resilientFetch({
      fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
      retry: retryPolicy(options.retry),
      timeoutMs: options.timeoutMs ?? 30_000,
    }),
  });
  client.use(
    specMiddleware(
      routes,
      resolveValidation(options.validate),
      (operation, status, code, ...rest) =>
        new PaymentsApiError(operation, status, code as PaymentsErrorCode | undefined, ...rest),
    ),
  );
  const raw = withTypedErrors(client);

  const listPayments = async (query: ListPaymentsQuery = {}, call?: CallOptions) =>
    body(await raw.GET("/v1/payments", { params: { query }, ...callInit(call) }));
  const createPaymentBatch = async (payments: readonly PaymentCreate[], call?: CallOptions) =>
    body(await raw.POST("/v1/payments/batch", { body: { payments: [...payments] }, ...callInit(call) }));
  const getPayment = async (id: string, call?: CallOptions) =>
    body(await raw.GET("/v1/payments/{id}", { params: { path: { id } }, ...callInit(call) }));
  const createOne = async (payment: PaymentCreate, call?: CallOptions) =>
    body(await raw.POST("/v1/payments", { body: payment, ...callInit(call) }));
  /** One listing's pages, each fetched with the call's options. */
  const fetchPages = (call?: CallOptions) => (query: ListPaymentsQuery) => listPayments(query, call);
  const paymentsByReference = async (reference: string, call?: CallOptions) => {
    const found: WithResponse<Payment>[] = [];
    for await (const page of paymentPages(fetchPages(call), { reference, limit: 100 }))
      for (const payment of page.data)
        found.push(withResponse(payment, (page as WithResponse<PaymentPage>).lastResponse));
    return found;
  };

  const cancelPayment = async (id: string, call?: CallOptions): Promise<WithResponse<Payment>> => {
    try {
      return body(await raw.DELETE("/v1/payments/{id}", { params: { path: { id } }, ...callInit(call) }));
    } catch (error) {
      // The first attempt may have cancelled it and lost the answer; the retry then meets a 409.
      if (error instanceof PaymentsApiError && error.status === 409 && error.retried) {
        const payment = await getPayment(id, call);
        if (payment.status === "cancelled") return payment;
      }
      throw error;
    }
  };

  return {
    raw,
    listAccounts: async (call) => body(await raw.GET("/v1/accounts", callInit(call))),
    createPayment: ({ ...payment }, { recoverLostAnswer, ...call } = {}) =>
      recoverLostAnswer
        ? createRecovering(
            payment,
            (input) => createOne(input, call),
            (reference) => paymentsByReference(reference, call),
          )
        : createOne(payment, call),
    paymentsByReference,
    getPayment,
    cancelPayment,
    createPaymentBatch,
    createMany: (payments, call) => createMany((batch) => createPaymentBatch(batch, call), payments),
    reconcile: (payments, outcomes, call) =>
      withTypedError("reconcile", () => reconcile((query) => paymentsOf(fetchPages(call), query), payments, outcomes)),
    listPayments,
    pages: (query, call) => paymentPages(fetchPages(call), query),
    payments: (query, call) => paymentsOf(fetchPages(call), query),
    exportPayments: (destination, { format, query, ...call } = {}) =>
      writePayments(paymentsOf(fetchPages(call), { limit: 10_000, ...query }), destination, format ?? "csv"),
  };
}
