import { ApiError, NetworkError, type PayspecError, TimeoutError } from "@payspec/client-core";
import type { Payment, PaymentBatchResult, PaymentCreate, PaymentsApiErrorBody } from "./types.js";

/** The largest batch the API accepts. */
export const MAX_BATCH_SIZE = 500;

/** What became of one input of createMany, at its input index. */
export type CreateManyOutcome =
  | { readonly index: number; readonly outcome: "created"; readonly payment: Payment }
  | { readonly index: number; readonly outcome: "failed"; readonly error: PaymentsApiErrorBody }
  /** The batch call failed after it may have reached the server: list payments before re-sending. */
  | { readonly index: number; readonly outcome: "unknown"; readonly error: PayspecError };

export type SendBatch = (payments: readonly PaymentCreate[]) => Promise<PaymentBatchResult>;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Sends any number of payments as batches of at most 500, one batch at a time, and returns one
 * outcome per input, in input order. A batch the API rejects whole fails each of its entries with
 * that error; a batch lost on the network is `unknown` (never re-sent: it may have been created).
 */
export async function createMany(
  sendBatch: SendBatch,
  payments: readonly PaymentCreate[],
): Promise<CreateManyOutcome[]> {
  const outcomes: CreateManyOutcome[] = [];
  let offset = 0;
  for (const chunk of chunks(payments, MAX_BATCH_SIZE)) {
    try {
      const result = await sendBatch(chunk);
      const byIndex = new Map(result.results.map((r) => [r.index, r]));
      chunk.forEach((_, i) => {
        const entry = byIndex.get(i);
        const index = offset + i;
        if (entry?.outcome === "created") outcomes.push({ index, outcome: "created", payment: entry.payment });
        else if (entry?.outcome === "failed") outcomes.push({ index, outcome: "failed", error: entry.error });
        else
          outcomes.push({
            index,
            outcome: "failed",
            error: { code: "internal_error", message: `The batch response had no result for entry ${i}.` },
          });
      });
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        const body: PaymentsApiErrorBody = {
          code: "invalid_request",
          message: error.apiMessage ?? error.message,
          ...(error.body as object),
        };
        for (let i = 0; i < chunk.length; i++) outcomes.push({ index: offset + i, outcome: "failed", error: body });
      } else if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof ApiError) {
        for (let i = 0; i < chunk.length; i++) outcomes.push({ index: offset + i, outcome: "unknown", error });
      } else {
        throw error;
      }
    }
    offset += chunk.length;
  }
  return outcomes;
}
