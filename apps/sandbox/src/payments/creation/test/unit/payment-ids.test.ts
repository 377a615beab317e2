import { describe, expect, it } from "vitest";
import { newPaymentId } from "../../create-payment.js";

describe("payment ids", () => {
  it("are pay_ and 16 base62 characters, all different, across refills of the random pool", () => {
    // 256 ids use up one 4 KiB draw of random bytes: 1,000 cross three refills.
    const ids = Array.from({ length: 1_000 }, () => newPaymentId());
    for (const id of ids) expect(id).toMatch(/^pay_[A-Za-z0-9]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
