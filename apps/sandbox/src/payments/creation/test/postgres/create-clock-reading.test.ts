import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freshDatabase, TEST_SECRET } from "../../../../../test/support/test-stores.js";
import { MAX_CLOCK_ADVANCE_SECONDS, workspaceScope } from "../../../../clock/index.js";
import { postgresStores, type SandboxStores, seedWorkspace } from "../../../../index.js";
import { SandboxSecret } from "../../../../infrastructure/secret/sandbox-secret.js";
import type { NewPayment } from "../../../store/payments-store.js";

/**
 * A create on PostgreSQL works out its time with the instance's last reading of the workspace clock
 * and sends no read of its own; the insert moves that time by however far the clock has moved since.
 */
const HOUR = 3_600_000;
const seed = seedWorkspace("sk_clock_reading");
const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];

describe("the insert, given a create's clock reading", () => {
  let stores: SandboxStores;
  beforeEach(async () => {
    const secret = new SandboxSecret(TEST_SECRET);
    stores = await postgresStores(await freshDatabase(), { storedWorkspaceId: (key) => secret.storedWorkspaceId(key) });
    await stores.payments.reset([seed]);
    await stores.clocks.reset();
  });
  afterEach(() => stores.close());

  let n = 0;
  const draft = (createdAt: number, clockOffsetMs?: number): NewPayment => ({
    id: `pay_clockreading${String(++n).padStart(4, "0")}`,
    amount: 100,
    currency: "TRY",
    method: "eft",
    from_account: from,
    to_account: to,
    createdAt,
    countdownFrom: createdAt,
    status: "pending",
    cause: "api",
    ...(clockOffsetMs === undefined ? {} : { clockOffsetMs }),
  });

  it("moves a time read before the clock moved by the move, in the payment, its countdown and its history", async () => {
    await stores.clocks.advance(workspaceScope(seed.workspace), HOUR, MAX_CLOCK_ADVANCE_SECONDS * 1000);
    const asked = Date.now();
    const stored = await stores.payments.insert(seed.workspace, draft(asked, 0));
    expect(stored.createdAt).toBe(asked + HOUR);
    expect(stored.countdownFrom).toBe(asked + HOUR);
    expect(stored.history[0]?.at).toBe(asked + HOUR);
    expect(stored).not.toHaveProperty("clockOffsetMs");
    const read = await stores.payments.payment(seed.workspace, stored.id);
    expect(read?.createdAt).toBe(asked + HOUR);
    expect(read?.countdownFrom).toBe(asked + HOUR);
  });

  it("keeps a time read with the clock's current offset, and a time given without a reading, as they are", async () => {
    await stores.clocks.advance(workspaceScope(seed.workspace), HOUR, MAX_CLOCK_ADVANCE_SECONDS * 1000);
    const asked = Date.now() + HOUR;
    expect((await stores.payments.insert(seed.workspace, draft(asked, HOUR))).createdAt).toBe(asked);
    expect((await stores.payments.insert(seed.workspace, draft(asked + 1))).createdAt).toBe(asked + 1);
  });
});
