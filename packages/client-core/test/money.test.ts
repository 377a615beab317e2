import { describe, expect, it } from "vitest";
import { addDecimalAmounts, currencyExponent, formatMinorUnits, fromMinorUnits, toMinorUnits } from "../src/index.js";

describe("money conversion without float drift", () => {
  it("converts amounts that floats get wrong", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(toMinorUnits(0.1 + 0.2, "TRY")).toBe(30);
    expect(addDecimalAmounts("TRY", 0.1, 0.2)).toBe(0.3);
    expect(19.99 * 100).not.toBe(1999);
    expect(toMinorUnits(19.99, "TRY")).toBe(1999);
    expect(toMinorUnits("19.99", "USD")).toBe(1999);
    expect(fromMinorUnits(1999, "TRY")).toBe(19.99);
    expect(formatMinorUnits(5, "EUR")).toBe("0.05");
  });

  it("rounds three decimals half away from zero, or refuses them when exact", () => {
    expect(toMinorUnits(12.345, "TRY")).toBe(1235);
    expect(toMinorUnits(12.344, "TRY")).toBe(1234);
    expect(toMinorUnits(1.005, "TRY")).toBe(101);
    expect(toMinorUnits(-12.345, "TRY")).toBe(-1235);
    expect(() => toMinorUnits(12.345, "TRY", { exact: true })).toThrow(/more than 2 decimals/);
  });

  it("uses each currency's ISO 4217 exponent", () => {
    expect(currencyExponent("TRY")).toBe(2);
    expect(currencyExponent("JPY")).toBe(0);
    expect(currencyExponent("KWD")).toBe(3);
    expect(toMinorUnits(1500, "JPY")).toBe(1500);
    expect(toMinorUnits(1.2345, "KWD")).toBe(1235);
    expect(() => currencyExponent("try")).toThrow(/ISO 4217/);
  });

  it("refuses amounts it cannot hold exactly", () => {
    expect(() => toMinorUnits(1e17, "TRY")).toThrow(/too large/);
    expect(() => fromMinorUnits(1.5, "TRY")).toThrow(/whole number/);
  });
});
