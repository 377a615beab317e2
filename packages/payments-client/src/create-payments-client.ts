import type { Writable } from "node:stream";
import {
  type ExportFormat,
  type FetchLike,
  type RetryOptions,
  resilientFetch,
  resolveValidation,
  retryPolicy,
  specMiddleware,
  type ValidationOptions,
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

export interface CreatePaymentOptions {
  /**
   * After a lost answer, find the payment by its `reference` (needed, unique per payment) before
   * sending it again: found, it is returned; not found, it is sent once more.
   */
  readonly recoverLostAnswer?: boolean;
}

export interface PaymentsClient {
  /** The openapi-fetch client, typed by path and method. Every non-2xx throws ApiError. */
  readonly raw: Client<paths>;
  listAccounts(): Promise<Account[]>;
  /**
   * Creates a payment. With `recoverLostAnswer`, a create whose answer was lost (a connection broken
   * after sending, a timeout, a 5xx) is looked up by its `reference` before it is sent again, so it
   * is never paid twice: see "When the answer is lost" in the README.
   */
  createPayment(payment: PaymentCreate, options?: CreatePaymentOptions): Promise<Payment>;
  /** Every payment whose reference is exactly `reference` (the listing's `reference` filter). */
  paymentsByReference(reference: string): Promise<Payment[]>;
  getPayment(id: string): Promise<Payment>;
  /**
   * Cancels a pending or approved payment; any other state throws PaymentsApiError 409
   * payment_not_cancellable. A cancel whose first attempt reached the server and was retried
   * resolves with the cancelled payment instead of that 409.
   */
  cancelPayment(id: string): Promise<Payment>;
  /** One call to POST /v1/payments/batch (1 to 500 entries). */
  createPaymentBatch(payments: readonly PaymentCreate[]): Promise<PaymentBatchResult>;
  /**
   * Any number of payments, split into batches of 500; one outcome per input, in input order:
   * `created`, `failed` (the server said so) or `unknown` (it may have been created). Set
   * `reference` on each payment so that `reconcile` can settle the unknown ones.
   */
  createMany(payments: readonly PaymentCreate[]): Promise<CreateManyOutcome[]>;
  /**
   * Settles createMany's `unknown` outcomes by looking their payments up by `reference`: `created`
   * when found, `missing` (safe to send again) when not. Re-send only the `missing` ones.
   */
  reconcile(payments: readonly PaymentCreate[], outcomes: readonly CreateManyOutcome[]): Promise<ReconciledOutcome[]>;
  /** One page of GET /v1/payments. */
  listPayments(query?: ListPaymentsQuery): Promise<PaymentPage>;
  /** Every page of a listing, following next_cursor. */
  pages(query?: ListPaymentsQuery): AsyncGenerator<PaymentPage>;
  /** Every payment of a listing: `for await (const p of client.payments({ status: "completed" }))`. */
  payments(query?: ListPaymentsQuery): AsyncGenerator<Payment>;
  /** Streams every matching payment to `destination` as CSV (dashboard columns) or JSON Lines. */
  exportPayments(
    destination: Writable,
    options?: { format?: ExportFormat; query?: ListPaymentsQuery },
  ): Promise<number>;
}

/** openapi-fetch returns `data` as optional; with the error middleware a resolved call always has it. */
function body<T>(result: { data?: T }): T {
  return result.data as T;
}

/** A typed client for the payments-and-accounts API. Every failure throws a typed error (see README). */
export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
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

  const listPayments = async (query: ListPaymentsQuery = {}) =>
    body(await raw.GET("/v1/payments", { params: { query } }));
  const createPaymentBatch = async (payments: readonly PaymentCreate[]) =>
    body(await raw.POST("/v1/payments/batch", { body: { payments: [...payments] } }));
  const getPayment = async (id: string) => body(await raw.GET("/v1/payments/{id}", { params: { path: { id } } }));
  const createOne = async (payment: PaymentCreate) => body(await raw.POST("/v1/payments", { body: payment }));
  const paymentsByReference = async (reference: string) => {
    const found: Payment[] = [];
    for await (const payment of paymentsOf(listPayments, { reference, limit: 100 })) found.push(payment);
    return found;
  };

  const cancelPayment = async (id: string): Promise<Payment> => {
    try {
      return body(await raw.DELETE("/v1/payments/{id}", { params: { path: { id } } }));
    } catch (error) {
      // The first attempt may have cancelled it and lost the answer; the retry then meets a 409.
      if (error instanceof PaymentsApiError && error.status === 409 && error.retried) {
        const payment = await getPayment(id);
        if (payment.status === "cancelled") return payment;
      }
      throw error;
    }
  };

  return {
    raw,
    listAccounts: async () => body(await raw.GET("/v1/accounts")),
    createPayment: (payment, createOptions = {}) =>
      createOptions.recoverLostAnswer ? createRecovering(payment, createOne, paymentsByReference) : createOne(payment),
    paymentsByReference,
    getPayment,
    cancelPayment,
    createPaymentBatch,
    createMany: (payments) => createMany(createPaymentBatch, payments),
    reconcile: (payments, outcomes) =>
      withTypedError("reconcile", () => reconcile((query) => paymentsOf(listPayments, query), payments, outcomes)),
    listPayments,
    pages: (query) => paymentPages(listPayments, query),
    payments: (query) => paymentsOf(listPayments, query),
    exportPayments: (destination, exportOptions = {}) =>
      writePayments(
        paymentsOf(listPayments, { limit: 10_000, ...exportOptions.query }),
        destination,
        exportOptions.format ?? "csv",
      ),
  };
}
