import { describe, expect, it } from "vitest";
import { recordedBody } from "../src/exchange.js";
import { RunSecrets } from "../src/secrets.js";

describe("the request body a record keeps", () => {
  it("keeps 2,000 characters of a large body, card data and credentials redacted, even at the cut", () => {
    const secrets = new RunSecrets();
    const token = `tok_${"a".repeat(60)}`;
    secrets.addValue(token);
    const head = JSON.stringify({ cardNumber: "4111111111111111", cvc: "123", note: "x".repeat(1900) });
    // The credential starts just before the 2,000th character: cut there, its start would show.
    const body = `${head.slice(0, 1990)}${token}${"y".repeat(200_000)}`;
    const kept = recordedBody(body, secrets);
    expect(kept.length).toBeLessThanOrEqual(2000);
    expect(kept).not.toContain("4111111111111111");
    expect(kept).not.toMatch(/"cvc"\s*:\s*"123"/);
    expect(kept).not.toContain("tok_a");
  });

  it("redacts a small body field by field, as a whole", () => {
    const kept = recordedBody(JSON.stringify({ card: { cardNumber: "5528790000000008", cvc: 123 } }), undefined);
    expect(JSON.parse(kept)).toEqual({ card: { cardNumber: "552879******0008", cvc: "***" } });
  });
});
