import { randomBytes } from "node:crypto";
import type { PaymentCreate } from "@payspec/payments-zod";
import { ApiFailure } from "@payspec/server-kit";
import type { PaymentsStore, StoredPayment } from "../store/index.js";

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `pay_` and 16 random base62 characters. */
export function newPaymentId(): string {
  const bytes = randomBytes(16);
  let id = "pay_";
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

/**
 * The business rules of a create, after the schema has passed: both accounts exist in the workspace,
 * differ, and hold the payment's currency. Used by POST /v1/payments and by every batch entry.
 */
export async function createPayment(
  store: PaymentsStore,
  workspace: string,
  input: PaymentCreate,
  now: number,
): Promise<StoredPayment> {
  // Write last: anything that can still fail (here, a clock no date can show) fails before the insert,
  // so a 5xx never leaves a payment behind.
  new Date(now).toISOString();
  if (input.from_account === input.to_account) {
    throw new ApiFailure("invalid_request", "to_account must differ from from_account.", { param: "to_account" });
  }
  for (const field of ["from_account", "to_account"] as const) {
    const account = await store.account(workspace, input[field]);
    if (!account) {
      throw new ApiFailure("account_not_found", `${field}: no account ${input[field]} in this workspace.`, {
        param: field,
      });
    }
    if (account.currency !== input.currency) {
      throw new ApiFailure(
        "currency_mismatch",
        `${field}: account ${account.id} holds ${account.currency}, not ${input.currency}.`,
        { param: "currency" },
      );
    }
  }
  return store.insert(workspace, {
    id: newPaymentId(),
    amount: input.amount,
    currency: input.currency,
    method: input.method,
    from_account: input.from_account,
    to_account: input.to_account,
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.reference === undefined ? {} : { reference: input.reference }),
    createdAt: now,
  });
}
