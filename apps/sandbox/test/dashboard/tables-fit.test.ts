import { describe, expect, it } from "vitest";
import { keepScreenshot, useDashboard, WIDTHS_IN_LANGUAGES } from "../support/dashboard-browser.js";
import { KEY } from "../support/harness.js";

const d = useDashboard(3_600);

/**
 * How far the widest of these tables runs past the page's main area, in pixels (0 when it fits). On a
 * phone a wide table may scroll in its own box; a list people decide from (`table.cards`) may not.
 */
const tableOverflow = (selector: string) => `Math.max(0, ...[...document.querySelectorAll("${selector}")].map((t) =>
  Math.ceil(t.getBoundingClientRect().right - document.querySelector("main").getBoundingClientRect().right)))`;

/** A hundred characters with no space to break at, as an integration's generated key name can be. */
const LONG_NAME = `ci-${"Şİğı".repeat(12)}${"x".repeat(49)}`;

describe("tables fit the screen", () => {
  for (const [width, language] of WIDTHS_IN_LANGUAGES)
    it(`at ${width} px in ${language}: every state listed, a 100-character key name, Revoke never covered`, async () => {
      expect(LONG_NAME).toHaveLength(100);
      await d.page.setViewportSize({ width, height: 844 });
      const TABLE_OVERFLOW = tableOverflow(width > 800 ? "main table" : "main table.cards");
      // Every payment state on the overview, reconciled (the longest Turkish word) through a statement.
      const made = await d.create(KEY, {
        reference: "KİRA-ŞUBAT",
        description: "Şubat kirası ödemesi ve İstanbul ofis giderleri",
      });
      const settled = await d.h.control(`/payments/${made.id}/status`, { status: "settled" });
      // The statement's value date is the day the money moved, in Istanbul.
      const valueDate = new Date(settled.body.settled_at).toLocaleDateString("sv-SE", { timeZone: "Europe/Istanbul" });
      const statement = await d.h.call("POST", "/_sandbox/reconciliations", {
        raw: `reference,amount_minor,currency,value_date\nKİRA-ŞUBAT,12345,TRY,${valueDate}\n`,
        headers: { authorization: `Bearer ${KEY}`, "content-type": "text/csv" },
      });
      expect(statement.body.counts, JSON.stringify(statement.body)).toMatchObject({ matched: 1 });
      for (const status of ["approved", "processing", "completed", "settled", "failed", "cancelled"]) {
        const other = await d.create(KEY);
        expect((await d.h.control(`/payments/${other.id}/status`, { status })).status, status).toBe(200);
      }
      const key = await d.h.call("POST", "/_sandbox/api-keys", { key: KEY, json: { name: LONG_NAME } });
      expect(key.status).toBe(201);
      await d.signIn();
      await d.context.addCookies([{ name: "payspec_dashboard_lang", value: language, url: d.url }]);

      await d.page.goto(`${d.url}?limit=100`);
      const listed = await d.page.locator("main table .badge").allTextContents();
      expect(listed).toContain(language === "tr" ? "mutabakatı yapıldı" : "reconciled");
      expect(await d.page.evaluate(TABLE_OVERFLOW), "payments").toBe(0);
      await keepScreenshot(d.page, `tables-fit-payments-${language}-${width}`);

      await d.page.goto(`${d.url}/settings/api-keys`);
      expect(await d.page.evaluate(TABLE_OVERFLOW), "API keys").toBe(0);
      expect(await d.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
      // The whole name is on the page (wrapped, not cut).
      expect(await d.page.locator("main table").textContent()).toContain(LONG_NAME);
      // The row's Revoke button is where a click lands: no sticky cell lies over it.
      const revoke = d.page.locator("main tr", { hasText: LONG_NAME.slice(0, 20) }).getByRole("button");
      await revoke.scrollIntoViewIfNeeded();
      const box = await revoke.boundingBox();
      expect(box).not.toBeNull();
      const [x, y] = [(box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2];
      const hit = await d.page.evaluate(`document.elementFromPoint(${x}, ${y})?.closest("button")?.textContent ?? ""`);
      expect(hit).toBe(await revoke.textContent());
      await keepScreenshot(d.page, `tables-fit-api-keys-${language}-${width}`);
    });
});
