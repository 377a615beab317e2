import { describe, expect, it } from "vitest";
import { readAmount, typedAmount } from "../../src/infrastructure/i18n/typed-amount.js";

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

describe("amounts typed back as the page writes them, and amounts that read two ways", () => {
  it("takes the page's own amounts back: a money sign or code before or after, with or without a space", () => {
    for (const typed of ["1.500,75 ₺", "₺1.500,75", "1.500,75 TL", "1.500,75 TRY", "TRY 1.500,75", "1.500,75₺"])
      expect(readAmount(typed, "tr"), typed).toEqual({ kind: "amount", decimal: "1500.75", currency: "TRY" });
    for (const typed of ["$1,500.75", "1,500.75 USD", "USD 1,500.75"])
      expect(readAmount(typed, "en"), typed).toEqual({ kind: "amount", decimal: "1500.75", currency: "USD" });
    expect(readAmount("1,500.75 TRY", "en")).toEqual({ kind: "amount", decimal: "1500.75", currency: "TRY" });
    expect(readAmount("€12,50", "tr")).toEqual({ kind: "amount", decimal: "12.50", currency: "EUR" });
    expect(readAmount("1.500,75", "tr")).toEqual({ kind: "amount", decimal: "1500.75" });
  });

  it("refuses to guess between decimals and thousands: 1,500 in Turkish, 1.500 in English", () => {
    expect(readAmount("1,500", "tr")).toEqual({ kind: "ambiguous", asDecimals: "1.500", asThousands: "1500" });
    expect(readAmount("1,500 ₺", "tr")).toEqual({ kind: "ambiguous", asDecimals: "1.500", asThousands: "1500" });
    expect(readAmount("1.500", "en")).toEqual({ kind: "ambiguous", asDecimals: "1.500", asThousands: "1500" });
    // Its own thousands separator is no question: 1.500 in Turkish, 1,500 in English.
    expect(readAmount("1.500", "tr")).toEqual({ kind: "amount", decimal: "1500" });
    expect(readAmount("1,500", "en")).toEqual({ kind: "amount", decimal: "1500" });
    expect(readAmount("1,50", "tr")).toEqual({ kind: "amount", decimal: "1.50" });
    expect(readAmount("abc ₺", "tr")).toEqual({ kind: "unreadable" });
  });
});
