import { fromMinorUnits } from "@payspec/client-core";
import type { Account, Payment } from "@payspec/payments-zod";
import type { PaymentRecord, StoredAccount } from "./store/payments-store.js";

export function accountToApi(account: StoredAccount): Account {
  return {
    id: account.id,
    name: account.name,
    currency: account.currency,
    balance: fromMinorUnits(account.balanceMinor, account.currency),
  };
}

/**
 * The last instant formatted, and its text. Creates arriving together share a millisecond (thousands
 * a second), and formatting was the costliest step of answering one.
 */
const lastFormatted = { ms: Number.NaN, iso: "" };

function isoTime(ms: number): string {
  if (ms !== lastFormatted.ms) {
    lastFormatted.iso = new Date(ms).toISOString();
    lastFormatted.ms = ms;
  }
  return lastFormatted.iso;
}

export function paymentToApi(p: PaymentRecord): Payment {
  const payment: Payment = {
    id: p.id,
    amount: p.amount,
    currency: p.currency,
    method: p.method,
    from_account: p.from_account,
    to_account: p.to_account,
    status: p.status,
    created_at: isoTime(p.createdAt),
  };
  if (p.description !== undefined) payment.description = p.description;
  if (p.reference !== undefined) payment.reference = p.reference;
  if (p.completedAt !== undefined) payment.completed_at = isoTime(p.completedAt);
  if (p.settledAt !== undefined) payment.settled_at = isoTime(p.settledAt);
  return payment;
}
