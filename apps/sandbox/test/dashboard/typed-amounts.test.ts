import { describe, expect, it } from "vitest";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { KEY } from "../support/harness.js";

const d = useDashboard();

const LANGUAGES = [
  {
    code: "tr",
    create: "Ödemeyi oluştur",
    amount: /^Tutar/,
    amountRow: "Tutar",
    ambiguous: "1,500",
    readings: "Bu tutar iki türlü okunabilir: 1,50 ₺ ya da 1.500,00 ₺.",
    oneWay: "1.500,00",
  },
  {
    code: "en",
    create: "Create payment",
    amount: /^Amount/,
    amountRow: "Amount",
    ambiguous: "1.500",
    readings: "This amount reads two ways: 1.50 TRY or 1,500.00 TRY.",
    oneWay: "1,500.00",
  },
] as const;
const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;

/** The payments the workspace holds, newest first, by amount in minor units. */
const amounts = async () =>
  ((await d.h.call("GET", "/v1/payments?limit=10", { key: KEY })).body.data as { amount: number }[]).map(
    (p) => p.amount,
  );

describe("an amount typed into the new payment form, as a Turkish operations person types it", () => {
  for (const language of LANGUAGES) {
    for (const size of WIDTHS) {
      it(`at ${size.width} px in ${language.code}: an ambiguous amount is asked about, and what the page shows is typed back`, async () => {
        await d.page.setViewportSize(size);
        await d.signIn();
        await d.context.addCookies([{ name: "payspec_dashboard_lang", value: language.code, url: d.url }]);
        const form = async (amount: string) => {
          await d.page.goto(`${d.url}/payments/new`);
          await d.page.getByLabel(language.amount).fill(amount);
          await d.navigate(() => d.page.getByRole("button", { name: language.create }).click());
        };

        // Read two ways in this language: both readings said, the box keeps what was typed, nothing made.
        await form(language.ambiguous);
        const summary = d.page.locator(".error-summary");
        expect(await summary.textContent()).toContain(language.readings);
        expect(await d.page.locator("#amount-error").textContent()).toContain(language.readings);
        expect(await d.page.getByLabel(language.amount).inputValue()).toBe(language.ambiguous);
        expect(await d.page.getByLabel(language.amount).getAttribute("aria-invalid")).toBe("true");
        expect(await d.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
        await keepScreenshot(d.page, `ambiguous-amount-${language.code}-${size.width}`);
        expect(await amounts()).toEqual([]);

        // The reading typed one way only is taken; the amount the payment's page then shows, pasted back, too.
        await form(language.oneWay);
        const shown = await d.page
          .getByRole("row", { name: new RegExp(`^${language.amountRow}`) })
          .locator("td")
          .textContent();
        expect(shown).toBe(language.code === "tr" ? "1.500,00 ₺" : "1,500.00 TRY");
        await form(shown ?? "");
        expect(await d.page.getByRole("row", { name: new RegExp(`^${language.amountRow}`) }).textContent()).toContain(
          shown,
        );
        expect(await amounts()).toEqual([150_000, 150_000]);
      });
    }
  }
});
