import { describe, expect, it } from "vitest";
import { paymentToApi } from "../../serialize.js";
import type { PaymentRecord } from "../../store/payments-store.js";

const record = (createdAt: number, completedAt?: number): PaymentRecord => ({
  seq: 1,
  id: "pay_0000000000000001",
  amount: 1000,
  currency: "TRY",
  method: "eft",
  from_account: "acc_a",
  to_account: "acc_b",
  status: completedAt === undefined ? "pending" : "completed",
  createdAt,
  ...(completedAt === undefined ? {} : { completedAt }),
});

describe("a payment as the API shows it", () => {
  it("gives each time its own ISO text, whether the instants repeat, alternate or differ", () => {
    // Runs of one millisecond (creates arriving together) mixed with jumps back and forth.
    const base = Date.UTC(2026, 10, 25, 9, 30);
    const instants = [0, 0, 0, 1, 1, 0, 86_400_000, 1, 1, -5, 999, 999, 1000];
    for (const offset of instants) {
      const created = base + offset;
      const completed = created + 30_000;
      const shown = paymentToApi(record(created, completed));
      expect(shown.created_at).toBe(new Date(created).toISOString());
      expect(shown.completed_at).toBe(new Date(completed).toISOString());
    }
  });
});
