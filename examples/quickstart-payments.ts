// Quickstart: the payments API against a local sandbox (`npx payspec-sandbox`, or `pnpm start` in a clone).
import { createPaymentsClient } from "@payspec/payments-client";

const baseUrl = process.env.PAYSPEC_SANDBOX_URL ?? "http://127.0.0.1:4010";
const payments = createPaymentsClient({ baseUrl, apiKey: "sk_sandbox_demo_1" });

const accounts = await payments.listAccounts();
const [from, to] = accounts.filter((account) => account.currency === "TRY");
if (!from || !to) throw new Error("The sandbox workspace should have two TRY accounts.");

const created = await payments.createPayment({
  amount: 150075, // 1,500.75 TRY, in kuruş
  currency: "TRY",
  method: "eft",
  from_account: from.id,
  to_account: to.id,
  reference: "INV-2026-0001",
});
console.log(`created ${created.id}: ${created.status}`);

// Per-call options (a timeout, a trace header, an AbortSignal), and the request id of every answer.
const read = await payments.getPayment(created.id, { timeoutMs: 5_000, headers: { "x-trace-id": "quickstart" } });
console.log(`read ${read.id} (request ${read.lastResponse.requestId})`);

for await (const payment of payments.payments({ status: "completed" })) {
  console.log(`completed ${payment.id}: ${payment.amount} ${payment.currency}`);
}
