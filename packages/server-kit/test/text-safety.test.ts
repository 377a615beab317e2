import { describe, expect, it } from "vitest";
import {
  containsCardNumber,
  firstUnstorableField,
  firstXmlUnsafeField,
  jsonErrorOffset,
  maskCardNumbers,
  redactCardData,
  redactCardValue,
  tooDeepAt,
  xmlSafeText,
} from "../src/index.js";

describe("tooDeepAt", () => {
  it("finds where level 33 opens, counts only brackets outside strings, and never recurses", () => {
    expect(tooDeepAt(`${"[".repeat(32)}${"]".repeat(32)}`)).toBeUndefined();
    expect(tooDeepAt(`${"[".repeat(33)}${"]".repeat(33)}`)).toBe(32);
    expect(tooDeepAt(`{"a":${'{"b":'.repeat(40)}1${"}".repeat(41)}`)).toBe(5 + 32 * 5 - 5);
    // Brackets in strings, escaped quotes included, are text.
    expect(tooDeepAt(JSON.stringify({ text: "[".repeat(1_000), quoted: '"[[[[' }))).toBeUndefined();
    // Siblings do not add up: depth is nesting, not count.
    expect(tooDeepAt(JSON.stringify(Array.from({ length: 1_000 }, () => [[1]])))).toBeUndefined();
    expect(tooDeepAt("[".repeat(1_000_000), 32)).toBe(32);
    // Objects and arrays nest into one another: 17 of one inside 16 of the other are 33 levels.
    expect(tooDeepAt(`${'{"a":'.repeat(17)}${"[".repeat(16)}1${"]".repeat(16)}${"}".repeat(17)}`)).toBe(17 * 5 + 15);
  });

  it("keeps redactCardData from overflowing the stack on text nested a million levels deep", () => {
    const deep = `${'{"cvc":'.repeat(200_000)}"123"${"}".repeat(200_000)} 4111 1111 1111 1111`;
    const shown = redactCardData(deep);
    expect(shown).not.toContain("4111 1111 1111 1111");
    expect(shown).not.toContain('"123"');
  });
});

describe("jsonErrorOffset", () => {
  it("agrees with JSON.parse on what is valid, and points at the fault", () => {
    const cases: [string, number | undefined][] = [
      ['{"a": [1, 2.5e3, -0, true, null, "x\\u00e7\\n"]}', undefined],
      ["[]", undefined],
      [" {} ", undefined],
      ['{"a": 1,}', 8],
      ["[1 2]", 3],
      ['{"a" 1}', 5],
      ['{"a": 01}', 7],
      ['"\\x"', 1],
      ["", 0],
      ["{} x", 3],
      ['{"a": "unterminated', 19],
    ];
    for (const [text, offset] of cases) {
      expect(jsonErrorOffset(text), text).toBe(offset);
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(valid, text).toBe(offset === undefined);
    }
  });

  it("survives a million open brackets without overflowing the stack", () => {
    expect(jsonErrorOffset("[".repeat(1_000_000))).toBe(1_000_000);
  });
});

describe("maskCardNumbers", () => {
  it("masks plain, percent-encoded and grouped card numbers to six and four digits", () => {
    expect(maskCardNumbers("/x/4543590000000006")).toBe("/x/454359******0006");
    expect(maskCardNumbers("%34%35%34%33%35%39%30%30%30%30%30%30%30%30%30%36")).toBe("454359******0006");
    expect(maskCardNumbers("card 4543 5900 0000 0006 ok")).toBe("card 454359******0006 ok");
    expect(maskCardNumbers("pay_ab12 and 2026-11-22")).toBe("pay_ab12 and 2026-11-22");
  });

  it("finds Luhn-valid 13 to 19 digit numbers in any grouping: dots, plus, percent-encoded separators", () => {
    for (const written of [
      "5516.3991.9193.8598",
      "5767+1900+3076+0632",
      "5214%209284%205200%200493",
      "5214%2B9284%2B5200%2B0493",
      "4543-5900-0000-0006",
      "FTR 2026-11-22 4543590000000006 paid",
      "ref45435900000000 06x",
    ]) {
      expect(containsCardNumber(written), written).toBe(true);
      expect(maskCardNumbers(written), written).not.toMatch(/5900\D?0000\D?0000|9193|3076|9284\D*5200/);
    }
    expect(maskCardNumbers("x 5516.3991.9193.8598 y")).toBe("x 551639******8598 y");
  });

  it("leaves numbers that are not card numbers alone: Luhn-invalid, too short, too long", () => {
    // A millisecond timestamp that fails Luhn, a 2^53 bound, 12 digits, 20 digits in one piece.
    for (const text of ["1763900000001", "9007199254740993", "123456789012", "45435900000000060000"]) {
      expect(containsCardNumber(text), text).toBe(false);
      expect(maskCardNumbers(text)).toBe(text);
    }
  });
});

describe("redactCardData", () => {
  it("removes every CVC-named field whatever its value type, and masks card numbers in any string", () => {
    const body = {
      card: { cardNumber: "4543590000000006", cvc: "123" },
      cvc: ["1357"],
      card_cvc: "8642",
      CVV2: 9753,
      extra: { cvn: { v: "2468" } },
      note: "paid with 5516.3991.9193.8598",
    };
    const shown = redactCardData(JSON.stringify(body));
    for (const secret of ['123"', "1357", "8642", "9753", "2468", "4543590000000006", "9193"]) {
      expect(shown).not.toContain(secret.replace("\\", ""));
    }
    expect(redactCardValue(body)).toMatchObject({ card: { cardNumber: "454359******0006", cvc: "***" }, cvc: "***" });
    // A field named as a card number is masked even when its digits fail the Luhn check.
    expect(redactCardValue({ card: { cardNumber: "2153960390549674746" }, pan: 4543590000000007 })).toEqual({
      card: { cardNumber: "215396*********4746" },
      pan: "454359******0007",
    });
    // A body cut short is not JSON: its CVC fields are blanked by pattern.
    const cut = redactCardData('{"card_cvc": "8642", "cvc": ["1357", "24');
    expect(cut).not.toMatch(/8642|1357/);
  });
});

describe("firstUnstorableField", () => {
  it("names the field holding a NUL or a lone surrogate, and passes any other text", () => {
    expect(firstUnstorableField({ a: "ok", b: { c: "x\u0000y" } })).toBe("b.c");
    expect(firstUnstorableField({ list: ["ok", "\uD800"] })).toBe("list[1]");
    expect(firstUnstorableField({ a: "ş ğ ı İ 😀 \uFFFE" })).toBeUndefined();
  });

  it("names a bad key by its parent, a bad body by 'body', and the first of several, under a given prefix", () => {
    expect(firstUnstorableField({ payments: [{ ok: 1 }, { description: "\u0000", reference: "\uDC00" }] })).toBe(
      "payments[1].description",
    );
    expect(firstUnstorableField({ meta: { "k\u0000": "v" } })).toBe("meta");
    expect(firstUnstorableField({ "k\u0000": "v" })).toBe("body");
    expect(firstUnstorableField("\u0000")).toBe("body");
    expect(firstUnstorableField([null, 3, true, ["\uD800"]])).toBe("[3][0]");
    expect(firstUnstorableField({ b: "\u0000" }, "entry")).toBe("entry.b");
    expect(firstUnstorableField(Object.create({ inherited: "\u0000" }))).toBeUndefined();
  });
});

describe("XML 1.0 safety", () => {
  it("names the first unsafe field and cleans text for a cell", () => {
    expect(firstXmlUnsafeField({ a: "ok", b: [{ c: "x\u0001" }] })).toBe("b[0].c");
    expect(firstXmlUnsafeField({ a: "tab\tand\nnewline ok 😀" })).toBeUndefined();
    expect(xmlSafeText("a\uFFFEb\uD800")).toBe("a\uFFFDb\uFFFD");
  });
});
