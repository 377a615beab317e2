import Big from "big.js";
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

describe("money conversion's fast path (moving the decimal point) agrees with big-number arithmetic", () => {
  // A seeded generator, so a failure names an input that can be replayed.
  let seed = 20261124;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const integer = (digits: number) => Math.floor(random() * 10 ** digits) * (random() < 0.3 ? -1 : 1);

  it("fromMinorUnits and formatMinorUnits give Big's answer for whole minor units of every size", () => {
    for (const currency of ["TRY", "JPY", "KWD"]) {
      const exponent = currencyExponent(currency);
      for (let i = 0; i < 2_000; i++) {
        const minor = integer(1 + (i % 15));
        const reference = new Big(minor).div(new Big(10).pow(exponent));
        expect(fromMinorUnits(minor, currency)).toBe(reference.toNumber() + 0);
        expect(formatMinorUnits(minor, currency)).toBe(reference.toFixed(exponent));
      }
    }
    expect(Object.is(fromMinorUnits(-0, "TRY"), 0)).toBe(true);
  });

  it("toMinorUnits gives Big's answer for numbers and decimal strings, rounding only where Big rounds", () => {
    for (const currency of ["TRY", "JPY", "KWD"]) {
      const exponent = currencyExponent(currency);
      for (let i = 0; i < 2_000; i++) {
        const decimals = i % (exponent + 3);
        const text = `${integer(1 + (i % 12))}${decimals ? `.${String(Math.floor(random() * 10 ** decimals)).padStart(decimals, "0")}` : ""}`;
        for (const amount of [text, Number(text)]) {
          const reference = new Big(amount).times(new Big(10).pow(exponent)).round(0, Big.roundHalfUp).toNumber() + 0;
          expect(toMinorUnits(amount, currency)).toBe(reference);
        }
      }
    }
    expect(toMinorUnits("007.50", "TRY")).toBe(750);
    expect(Object.is(toMinorUnits("-0.00", "TRY"), 0)).toBe(true);
  });
});
