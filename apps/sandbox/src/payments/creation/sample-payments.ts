import type { PaymentCreate } from "@payspec/payments-zod";
import { applyElapsedTime } from "../lifecycle/elapsed-time.js";
import type { PaymentsStore, WorkspaceSeed } from "../store/payments-store.js";
import { createPayment } from "./create-payment.js";

const DAY_MS = 86_400_000;

/**
 * A few payments so that a fresh sandbox has something to show in each state a payment reaches by
 * itself: two from two days ago (settled at the Istanbul midnight after they completed), one that
 * completed a second before start (completed until the next midnight), and two created at start
 * (pending until they complete like any other). The command line adds them; `startSandbox()` starts
 * empty unless `samplePayments: true`.
 */
export async function addSamplePayments(
  store: PaymentsStore,
  seed: WorkspaceSeed,
  now: number,
  completeAfterMs: number,
): Promise<void> {
  const account = (id: string) => seed.accounts.find((a) => a.id.endsWith(id))?.id ?? "";
  // Oldest first: a store never lets a later insert be created before an earlier one.
  const samples: (PaymentCreate & { ageMs: number })[] = [
    {
      ageMs: 2 * DAY_MS,
      amount: 1_500_075,
      currency: "TRY",
      method: "bank_transfer",
      from_account: account("try1"),
      to_account: account("try2"),
      description: "Kasım ayı kira ödemesi",
      reference: "FTR-2026-000123",
    },
    {
      ageMs: 2 * DAY_MS - 120_000,
      amount: 12_500,
      currency: "USD",
      method: "card",
      from_account: account("usd1"),
      to_account: account("usd2"),
      description: "Software subscription",
    },
    {
      // Completed one second before start: after the last midnight, so not yet settled.
      ageMs: completeAfterMs + 1_000,
      amount: 49_900,
      currency: "TRY",
      method: "eft",
      from_account: account("try1"),
      to_account: account("try2"),
      reference: "FTR-2026-000124",
    },
    {
      ageMs: 1_000,
      amount: 250_000,
      currency: "TRY",
      method: "virtual_account",
      from_account: account("try1"),
      to_account: account("try2"),
      reference: "FTR-2026-000125",
    },
    {
      ageMs: 0,
      amount: 9_900,
      currency: "EUR",
      method: "eft",
      from_account: account("eur1"),
      to_account: account("eur2"),
    },
  ];
  const accounts = await store.accounts(seed.workspace);
  for (const { ageMs, ...payment } of samples) {
    await createPayment(store, seed.workspace, accounts, payment, now - ageMs);
  }
  await applyElapsedTime(store, seed.workspace, now, completeAfterMs);
}
