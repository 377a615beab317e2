import { ApiError, NetworkError, PayspecError, TimeoutError } from "@payspec/client-core";
import type { Payment, PaymentCreate } from "./types.js";

/**
 * Whether a failed create may have been stored: the connection broke after the request was sent, no
 * complete answer came in time, or the server answered 5xx. A 4xx, or a connection never made, means
 * it was not.
 */
export function mayHaveBeenStored(error: unknown): boolean {
  if (error instanceof NetworkError) return error.sent;
  if (error instanceof TimeoutError) return true;
  return error instanceof ApiError && error.status >= 500;
}

/** Several payments answer to one reference and the request: which one was this call's cannot be told. */
export class AmbiguousReferenceError extends PayspecError {
  override readonly name = "AmbiguousReferenceError";
  constructor(
    readonly reference: string,
    readonly payments: readonly Payment[],
  ) {
    super(
      `createPayment lost its answer, and ${payments.length} payments carry reference ${reference} with this request's amount, currency and accounts (${payments.map((p) => p.id).join(", ")}): give every payment its own reference, then decide which of these to keep.`,
    );
  }
}

/** A stored payment is this request's when it has its reference, amount, currency and accounts. */
export function sameRequest(payment: Payment, input: PaymentCreate): boolean {
  return (
    payment.reference === input.reference &&
    payment.amount === input.amount &&
    payment.currency === input.currency &&
    payment.from_account === input.from_account &&
    payment.to_account === input.to_account
  );
}

/**
 * A create that survives a lost answer without paying twice (the API has no idempotency key; its
 * `reference` filter, a payspec extension, stands in): after a failure that may have stored it, the
 * payment is looked up by its reference before anything is sent again; found, it is the answer; not
 * found, it is sent once more. Needs `input.reference`, unique per payment.
 */
export async function createRecovering<P extends Payment>(
  input: PaymentCreate,
  create: (input: PaymentCreate) => Promise<P>,
  byReference: (reference: string) => Promise<P[]>,
): Promise<P> {
  const reference = input.reference;
  if (reference === undefined || reference === "")
    throw new PayspecError(
      "createPayment(…, { recoverLostAnswer: true }) needs the payment's reference: a lost answer is recovered by looking the payment up by it. Give each payment its own reference.",
    );
  try {
    return await create(input);
  } catch (error) {
    if (!mayHaveBeenStored(error)) throw error;
    const stored = (await byReference(reference)).filter((payment) => sameRequest(payment, input));
    if (stored.length === 1) return stored[0] as P;
    if (stored.length > 1) throw new AmbiguousReferenceError(reference, stored);
    // Not stored: sending it again cannot pay twice. Once only; a second lost answer is the caller's.
    return create(input);
  }
}
