import { afterAll, expect, it } from "vitest";
import { freshDatabase, onPostgres } from "../../../../test/support/test-stores.js";
import { openPool } from "../../../infrastructure/postgres/pool.js";
import { seedWorkspace } from "../../creation/seed.js";
import { MemoryPaymentsStore } from "../../store/memory/memory-payments-store.js";
import type { NewPayment, PaymentsStore } from "../../store/payments-store.js";
import { PostgresPaymentsStore } from "../../store/postgres/postgres-payments-store.js";

/**
 * The background work's backlog, as `/metrics` shows it: the payments whose completion delay has
 * passed and that are not completed yet. Not those cancelled, waiting for an approver, or not due.
 */
const closeAfter: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closeAfter) await close();
});

async function store(): Promise<PaymentsStore> {
  if (!onPostgres()) return new MemoryPaymentsStore();
  const pool = await openPool(await freshDatabase(), 2, (key) => key);
  closeAfter.push(() => pool.end());
  return new PostgresPaymentsStore(pool);
}

it("counts the payments fallen due and not completed, and none once completion has run", async () => {
  const payments = await store();
  const seed = seedWorkspace("sk_sandbox_backlog");
  await payments.reset([seed]);
  const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  const t0 = Date.UTC(2026, 10, 29, 9);
  const delay = 30_000;
  const make = async (n: number, countdownFrom: number | undefined) =>
    payments.insert(seed.workspace, {
      id: `pay_backlog${String(n).padStart(9, "0")}`,
      amount: 100,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
      createdAt: t0,
      ...(countdownFrom === undefined ? {} : { countdownFrom }),
      status: "pending",
      cause: "api",
    } satisfies NewPayment);
  await make(1, t0);
  await make(2, t0);
  const cancelled = await make(3, t0);
  await make(4, t0 + 60_000);
  // Waiting for an approver: no countdown at all.
  await make(5, undefined);
  await payments.transition(seed.workspace, cancelled.id, ["pending"], "cancelled", t0 + 1_000, "api");

  expect(await payments.dueBacklog(seed.workspace, t0 + delay - 1, delay)).toBe(0);
  expect(await payments.dueBacklog(seed.workspace, t0 + delay, delay)).toBe(2);
  expect(await payments.dueBacklog(seed.workspace, t0 + 60_000 + delay, delay)).toBe(3);
  await payments.completeDue(seed.workspace, t0 + 60_000 + delay, delay);
  expect(await payments.dueBacklog(seed.workspace, t0 + 60_000 + delay, delay)).toBe(0);
});
