import { describe, expect, it } from "vitest";
import { firstXmlUnsafeField, jsonErrorOffset, maskCardNumbers, xmlSafeText } from "../src/index.js";

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
});

describe("XML 1.0 safety", () => {
  it("names the first unsafe field and cleans text for a cell", () => {
    expect(firstXmlUnsafeField({ a: "ok", b: [{ c: "x\u0001" }] })).toBe("b[0].c");
    expect(firstXmlUnsafeField({ a: "tab\tand\nnewline ok 😀" })).toBeUndefined();
    expect(xmlSafeText("a\uFFFEb\uD800")).toBe("a\uFFFDb\uFFFD");
  });
});
