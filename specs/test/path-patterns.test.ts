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

/**
 * Any spec's patterns, as real specs write them: ReadMe's schema-validation example holds a braced
 * GUID, `^(?:{[0-9a-fA-F]{4}…}|…)$`, whose literal `{` only ECMAScript's older grammar accepts. The
 * validator compiled every pattern in Unicode mode and threw on it, so nothing in that spec could be
 * checked; such a pattern now compiles without the `u` flag, and means what its authors meant.
 */
describe("patterns written for ECMAScript's older grammar", () => {
  const GUID = "^(?:{[0-9a-fA-F]{4}(?:-?[0-9a-fA-F]{4}){7}}|[0-9a-fA-F]{4}(?:-?[0-9a-fA-F]{4}){7})$";
  const spec = {
    openapi: "3.1.0",
    info: { title: "patterns", version: "1" },
    paths: {},
    components: {
      schemas: { Guid: { type: "string", pattern: GUID }, Word: { type: "string", pattern: "^\\p{L}+$" } },
    },
  };
  const validator = createSpecValidator(spec);

  it("reads a braced GUID pattern, accepting both forms and refusing what is neither", () => {
    const guid = pointerOf("components", "schemas", "Guid");
    expect(validator.validate(guid, "{0123-4567-89ab-cdef-0123-4567-89ab-cdef}").valid).toBe(true);
    expect(validator.validate(guid, "0123456789abcdef0123456789abcdef").valid).toBe(true);
    expect(validator.validate(guid, "{0123").errors).toEqual([`(root) must match pattern "${GUID}" (pattern)`]);
  });

  it("keeps Unicode mode for every pattern that compiles in it (a property escape, Turkish letters)", () => {
    const word = pointerOf("components", "schemas", "Word");
    expect(validator.validate(word, "Şığİ").valid).toBe(true);
    expect(validator.validate(word, "Ş1").valid).toBe(false);
  });
});
