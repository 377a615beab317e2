import { describe, expect, it } from "vitest";
import { calendarDay, dateTime, fileSize, milliseconds, money, plural } from "../../src/infrastructure/i18n/formats.js";
import { activeLocale, inLocale, localeHolders, negotiateLocale, t } from "../../src/infrastructure/i18n/locale.js";
import { statusWord } from "../../src/infrastructure/i18n/status-words.js";

describe("the language a request is written in", () => {
  it("follows the browser's Accept-Language by q-value, tr-TR counting as Turkish, and is English otherwise", () => {
    expect(negotiateLocale("tr-TR,tr;q=0.9,en-US;q=0.8,en;q=0.7")).toBe("tr");
    expect(negotiateLocale("en-GB,en;q=0.9,tr;q=0.8")).toBe("en");
    expect(negotiateLocale("de-DE,tr;q=0.5")).toBe("tr");
    expect(negotiateLocale("tr;q=0, en;q=0.1")).toBe("en");
    expect(negotiateLocale("TR")).toBe("tr");
    expect(negotiateLocale("fr, de;q=0.8")).toBe("en");
    expect(negotiateLocale("tr;q=abc")).toBe("en");
    expect(negotiateLocale(undefined)).toBe("en");
    expect(negotiateLocale(`${"x,".repeat(10_000)}tr`)).toBe("en");
  });

  it("holds for everything awaited inside it, and never leaks to what runs outside", async () => {
    const written = inLocale("tr", async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return t("Payments", "Ödemeler");
    });
    expect(activeLocale()).toBe("en");
    expect(await written).toBe("Ödemeler");
    expect(t("Payments", "Ödemeler")).toBe("Payments");
  });

  it("stays with a piece of work that outlives another one, and is let go once nothing holds one", async () => {
    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let seenAfterTheOtherEnded: string | undefined;
    let releaseLong: () => void = () => undefined;
    const long = inLocale("tr", async () => {
      await new Promise<void>((resolve) => {
        releaseLong = resolve;
      });
      // The short one has ended by now: turning the storage off then would make this English.
      await later(1);
      seenAfterTheOtherEnded = t("Payments", "Ödemeler");
    });
    const short = inLocale("en", async () => {
      await later(1);
      return t("Payments", "Ödemeler");
    });
    expect(localeHolders()).toBe(2);
    expect(await short).toBe("Payments");
    expect(localeHolders()).toBe(1);
    releaseLong();
    await long;
    expect(seenAfterTheOtherEnded).toBe("Ödemeler");
    expect(localeHolders()).toBe(0);
    // A write that throws lets go of its hold too.
    expect(() =>
      inLocale("tr", () => {
        throw new Error("no page");
      }),
    ).toThrow("no page");
    await expect(inLocale("tr", async () => Promise.reject(new Error("no letter")))).rejects.toThrow("no letter");
    expect(localeHolders()).toBe(0);
  });
});

describe("money, times and counts as each language writes them", () => {
  it("writes amounts with the language's separators, the lira sign after a Turkish amount", () => {
    expect(money(250_000_000, "TRY")).toBe("2,500,000.00 TRY");
    expect(inLocale("tr", () => money(250_000_000, "TRY"))).toBe("2.500.000,00 ₺");
    expect(inLocale("tr", () => money(150_075, "EUR"))).toBe("1.500,75 EUR");
    expect(inLocale("tr", () => money(1_500, "JPY"))).toBe("1.500 JPY");
  });

  it("writes Istanbul time day first in Turkish", () => {
    const at = Date.parse("2026-11-26T11:05:07Z");
    expect(dateTime(at)).toBe("2026-11-26 14:05:07");
    expect(inLocale("tr", () => dateTime(at))).toBe("26.11.2026 14:05:07");
  });

  it("keeps the Turkish noun singular after a number, and names states in words", () => {
    expect(plural(1, "payment", "ödeme")).toBe("1 payment");
    expect(plural(12_500, "payment", "ödeme")).toBe("12,500 payments");
    expect(inLocale("tr", () => plural(12_500, "payment", "ödeme"))).toBe("12.500 ödeme");
    expect(inLocale("tr", () => fileSize(1_550_000))).toBe("1,6 MB");
    expect(inLocale("en", () => fileSize(1_550_000))).toBe("1.6 MB");
    // A small report is never "0,0 MB".
    expect(inLocale("tr", () => fileSize(41_700))).toBe("42 KB");
    expect(inLocale("tr", () => fileSize(812))).toBe("812 bayt");
    expect(inLocale("en", () => fileSize(1))).toBe("1 byte");
    expect(inLocale("tr", () => milliseconds(0.94))).toBe("0,9 ms");
    expect(inLocale("en", () => milliseconds(1234.5))).toBe("1,234.5 ms");
    expect(inLocale("tr", () => statusWord("processing"))).toBe("işleniyor");
    expect(statusWord("amount_differs")).toBe("amount differs");
    expect(inLocale("tr", () => statusWord("something_new"))).toBe("something new");
  });
});

describe("days in sentences", () => {
  it("writes a calendar day as each language does, alone and in a time, never an ISO date in Turkish", () => {
    const at = Date.parse("2026-11-28T09:05:07Z");
    expect(inLocale("en", () => [calendarDay("2026-11-28"), dateTime(at)])).toEqual([
      "2026-11-28",
      "2026-11-28 12:05:07",
    ]);
    expect(inLocale("tr", () => [calendarDay("2026-11-28"), dateTime(at)])).toEqual([
      "28.11.2026",
      "28.11.2026 12:05:07",
    ]);
  });
});
