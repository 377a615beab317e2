import { describe, expect, it } from "vitest";
import { typedAmount } from "../../src/infrastructure/i18n/typed-amount.js";

describe("amounts as people type them", () => {
  it("reads the Turkish way: a comma before the decimals, dots or spaces between thousands", () => {
    expect(typedAmount("100,50", "tr")).toBe("100.50");
    expect(typedAmount("1.500,75", "tr")).toBe("1500.75");
    expect(typedAmount("1 500", "tr")).toBe("1500");
    expect(typedAmount("1\u00a0500,5", "tr")).toBe("1500.5");
    expect(typedAmount("12.345.678,9", "tr")).toBe("12345678.9");
    // A dot before three digits is a thousands separator in Turkish; before one or two, a decimal point.
    expect(typedAmount("1.500", "tr")).toBe("1500");
    expect(typedAmount("1250.50", "tr")).toBe("1250.50");
    expect(typedAmount(" 1500 ", "tr")).toBe("1500");
  });

  it("reads the English way, and a comma before one or two digits as a decimal point", () => {
    expect(typedAmount("1,500.75", "en")).toBe("1500.75");
    expect(typedAmount("1,500", "en")).toBe("1500");
    expect(typedAmount("12.50", "en")).toBe("12.50");
    expect(typedAmount("100,50", "en")).toBe("100.50");
    expect(typedAmount("1 500.25", "en")).toBe("1500.25");
  });

  it("refuses what cannot be read one way only, and keeps a minus sign for the API to refuse", () => {
    for (const typed of ["12,5,0", "1.50.0", "1,500,00", "abc", "", "1 50", "1,500.75,3", "1.500,", "٣٣"]) {
      expect(typedAmount(typed, "tr"), typed).toBeUndefined();
    }
    expect(typedAmount("1.500,75", "en")).toBeUndefined();
    expect(typedAmount("-5", "tr")).toBe("-5");
  });
});
