import { ApiError, type PayspecError, ProtocolError, toPayspecError } from "@payspec/client-core";
import type { Payment, PaymentBatchResult, PaymentCreate, PaymentsApiErrorBody } from "./types.js";

const OPERATION = "POST /v1/payments/batch";

/** The largest batch the API accepts. */
export const MAX_BATCH_SIZE = 500;

/** What became of one input of createMany, at its input index. */
export type CreateManyOutcome =
  | { readonly index: number; readonly outcome: "created"; readonly payment: Payment }
  | { readonly index: number; readonly outcome: "failed"; readonly error: PaymentsApiErrorBody }
  /**
   * The server may or may not have created it (the answer was lost, cut short or incomplete). Never
   * re-send it blindly: `reconcile` looks it up by its `reference`.
   */
  | {
      readonly index: number;
      readonly outcome: "unknown";
      readonly error: PayspecError;
      /** When its batch was sent: reconcile lists payments from that day on. */
      readonly sentAt: Date;
    };

export type SendBatch = (payments: readonly PaymentCreate[]) => Promise<PaymentBatchResult>;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type BatchEntry = PaymentBatchResult["results"][number];

/** The results of a batch answer by index, or undefined when the answer is not a batch result at all. */
function resultsByIndex(result: unknown): Map<number, BatchEntry> | undefined {
  const results = (result as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return undefined;
  const byIndex = new Map<number, BatchEntry>();
  for (const entry of results as BatchEntry[]) {
    if (typeof entry?.index === "number" && (entry.outcome === "created" || entry.outcome === "failed")) {
      byIndex.set(entry.index, entry);
    }
  }
  return byIndex;
}

/**
 * Sends any number of payments as batches of at most 500, one batch at a time, and returns one
 * outcome per input, in input order, whatever happens to an answer. An entry is `failed` only when
 * the server said so (per entry, or by rejecting the whole batch with a 4xx). Everything else the
 * server may have acted on (a lost connection, a 5xx, a truncated or corrupt answer, a missing
 * result) is `unknown`, never `failed`, and is never re-sent here.
 */
export async function createMany(
  sendBatch: SendBatch,
  payments: readonly PaymentCreate[],
): Promise<CreateManyOutcome[]> {
  const outcomes: CreateManyOutcome[] = [];
  let offset = 0;
  for (const chunk of chunks(payments, MAX_BATCH_SIZE)) {
    const sentAt = new Date();
    const unknown = (i: number, error: PayspecError): CreateManyOutcome => ({
      index: offset + i,
      outcome: "unknown",
      error,
      sentAt,
    });
    try {
      const result = await sendBatch(chunk);
      const byIndex = resultsByIndex(result);
      const missing = new ProtocolError(OPERATION, "the batch answer has no result for this entry.");
      chunk.forEach((_, i) => {
        const entry = byIndex?.get(i);
        if (entry?.outcome === "created")
          outcomes.push({ index: offset + i, outcome: "created", payment: entry.payment });
        else if (entry?.outcome === "failed")
          outcomes.push({ index: offset + i, outcome: "failed", error: entry.error });
        else outcomes.push(unknown(i, missing));
      });
    } catch (caught) {
      const error = toPayspecError(OPERATION, caught);
      if (error instanceof ApiError && error.status < 500) {
        const body: PaymentsApiErrorBody = {
          code: "invalid_request",
          message: error.apiMessage ?? error.message,
          ...(typeof error.body === "object" && error.body !== null ? error.body : {}),
        };
        for (let i = 0; i < chunk.length; i++) outcomes.push({ index: offset + i, outcome: "failed", error: body });
      } else {
        for (let i = 0; i < chunk.length; i++) outcomes.push(unknown(i, error));
      }
    }
    offset += chunk.length;
  }
  return outcomes;
}
