import type { CreateManyOutcome } from "./batch.js";
import { sameRequest } from "./lost-answers.js";
import type { ListPaymentsQuery, Payment, PaymentCreate } from "./types.js";

/** An outcome after reconciliation: `missing` is known not to exist, so it is safe to send again. */
export type ReconciledOutcome =
  | Exclude<CreateManyOutcome, { outcome: "unknown" }>
  | (Extract<CreateManyOutcome, { outcome: "unknown" }> & {
      /** Why it is still unknown: without a `reference` a payment cannot be told apart from its twins. */
      readonly reason: "no_reference";
    })
  | { readonly index: number; readonly outcome: "missing"; readonly input: PaymentCreate };

const utcDate = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Settles the `unknown` outcomes of createMany: each one whose input has a `reference` is looked up
 * in a listing of the payments created since its batch was sent (by reference, amount, currency and
 * accounts). Found: `created`. Not found: `missing`, safe to send again. Without a reference it stays
 * `unknown` (reason `no_reference`): set `reference` on every payment you batch.
 */
export async function reconcile(
  list: (query: ListPaymentsQuery) => AsyncIterable<Payment>,
  inputs: readonly PaymentCreate[],
  outcomes: readonly CreateManyOutcome[],
  now: () => Date = () => new Date(),
): Promise<ReconciledOutcome[]> {
  const open = outcomes.filter(
    (o): o is Extract<CreateManyOutcome, { outcome: "unknown" }> =>
      o.outcome === "unknown" && inputs[o.index]?.reference !== undefined,
  );
  const found = new Map<number, Payment>();
  if (open.length > 0) {
    const earliest = new Date(Math.min(...open.map((o) => o.sentAt.getTime())));
    const claimed = new Set<string>();
    for await (const payment of list({ from: utcDate(earliest), to: utcDate(now()), limit: 10_000 })) {
      const match = open.find((o) => !found.has(o.index) && sameRequest(payment, inputs[o.index] as PaymentCreate));
      if (match && !claimed.has(payment.id)) {
        found.set(match.index, payment);
        claimed.add(payment.id);
      }
    }
  }
  return outcomes.map((outcome): ReconciledOutcome => {
    if (outcome.outcome !== "unknown") return outcome;
    const input = inputs[outcome.index] as PaymentCreate;
    if (input.reference === undefined) return { ...outcome, reason: "no_reference" };
    const payment = found.get(outcome.index);
    return payment
      ? { index: outcome.index, outcome: "created", payment }
      : { index: outcome.index, outcome: "missing", input };
  });
}
