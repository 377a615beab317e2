import { describe, expect, it } from "vitest";
import { cardGatewaySpec, createSpecValidator, pointerOf } from "../src/index.js";

/**
 * The lookup's referenceId says in the spec what the gateway refuses (400/6001): blank text, a NUL,
 * a lone surrogate. Specmatic found the old `\S` let NUL through, so a spec-driven tool expected a
 * lookup where the gateway answered 400.
 */
describe("GET /api/v1/payments/reference/{referenceId}", () => {
  const validator = createSpecValidator(cardGatewaySpec);
  const pointer = pointerOf("paths", "/api/v1/payments/reference/{referenceId}", "get", "parameters", 0, "schema");
  const accepts = (value: string) => validator.validate(pointer, value).valid;

  it("accepts any reference a card payment could have been made with, Turkish and emoji included", () => {
    for (const value of ["3f1c9a52-7b4e-4d2a-9c61-2e8f5b7a1d04", "FTR-ŞĞİ-0042", " a ", "ödeme 😀", "tab\there"])
      expect(accepts(value), JSON.stringify(value)).toBe(true);
  });

  it("refuses blank text, a NUL and a lone surrogate, as the gateway does", () => {
    for (const value of ["", "   ", "a\u0000b", "\u0000", "a\uD800", "\uDC00b"])
      expect(accepts(value), JSON.stringify(value)).toBe(false);
  });
});
