// Testing your retries: the sandbox resets the connection *after* it stored the payment, the classic
// lost answer. A plain fetch client that retries blindly pays twice; the payments client does not
// re-send a create that may have happened, and looks the payment up by its reference instead.
// Faults are declared over HTTP (any language can), for this workspace only.
import { randomUUID } from "node:crypto";
import { createPaymentsClient, NetworkError, type PaymentCreate, TimeoutError } from "@payspec/payments-client";

const baseUrl = process.env.PAYSPEC_SANDBOX_URL ?? "http://127.0.0.1:4010";
const apiKey = "sk_sandbox_demo_1";
const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
const payments = createPaymentsClient({ baseUrl, apiKey });

/** The next create is stored, then its connection is reset: the client never hears the answer. */
async function loseTheNextCreatesAnswer(): Promise<void> {
  const declared = await fetch(`${baseUrl}/_sandbox/faults`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ operation: "createPayment", fault: "reset-after-commit", next: 1 }),
  });
  if (declared.status !== 201) throw new Error(`declaring the fault failed: ${await declared.text()}`);
}

/** How many payments the sandbox holds with this reference: what was really charged. */
async function stored(reference: string): Promise<number> {
  let count = 0;
  for await (const payment of payments.payments()) if (payment.reference === reference) count++;
  return count;
}

const [from, to] = (await payments.listAccounts()).filter((account) => account.currency === "TRY");
if (!from || !to) throw new Error("The sandbox workspace should have two TRY accounts.");
const payment = (reference: string): PaymentCreate => ({
  amount: 4_990,
  currency: "TRY",
  method: "eft",
  from_account: from.id,
  to_account: to.id,
  reference,
});

// 1. A plain fetch client that retries any failure, up to three attempts.
const naive = `NAIVE-${randomUUID().slice(0, 8)}`;
await loseTheNextCreatesAnswer();
for (let attempt = 1; attempt <= 3; attempt++) {
  try {
    const answer = await fetch(`${baseUrl}/v1/payments`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify(payment(naive)),
    });
    if (answer.ok) break;
  } catch {
    // "fetch failed": it retries, not knowing the payment was stored.
  }
}
console.log(`plain fetch, retrying blindly: ${await stored(naive)} payments stored for ${naive}`);

// 2. The payments client: a create that reached the server is not re-sent; the reference finds it.
const careful = `CAREFUL-${randomUUID().slice(0, 8)}`;
await loseTheNextCreatesAnswer();
try {
  await payments.createPayment(payment(careful));
} catch (error) {
  const mayHaveHappened = (error instanceof NetworkError && error.sent) || error instanceof TimeoutError;
  if (!mayHaveHappened) throw error;
  // Only a payment that is not there is sent again.
  if ((await payments.paymentsByReference(careful)).length === 0) await payments.createPayment(payment(careful));
}
console.log(`payments client, looking before resending: ${await stored(careful)} payment stored for ${careful}`);

// 3. The same, done by the client: recoverLostAnswer looks the payment up by its reference first.
const recovered = `RECOVERED-${randomUUID().slice(0, 8)}`;
await loseTheNextCreatesAnswer();
const answer = await payments.createPayment(payment(recovered), { recoverLostAnswer: true });
console.log(`recoverLostAnswer: answered ${answer.id}, ${await stored(recovered)} payment stored for ${recovered}`);
