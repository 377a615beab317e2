import { fromMinorUnits } from "@payspec/client-core";
import type { Account, Payment } from "@payspec/payments-zod";
import type { PaymentRecord, StoredAccount } from "../store/index.js";

export function accountToApi(account: StoredAccount): Account {
  return {
    id: account.id,
    name: account.name,
    currency: account.currency,
    balance: fromMinorUnits(account.balanceMinor, account.currency),
  };
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
    created_at: new Date(p.createdAt).toISOString(),
  };
  if (p.description !== undefined) payment.description = p.description;
  if (p.reference !== undefined) payment.reference = p.reference;
  if (p.completedAt !== undefined) payment.completed_at = new Date(p.completedAt).toISOString();
  if (p.settledAt !== undefined) payment.settled_at = new Date(p.settledAt).toISOString();
  return payment;
}
