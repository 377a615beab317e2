import { describe, expect, it } from "vitest";
import { useDashboard, WIDTHS_IN_LANGUAGES } from "../support/dashboard-browser.js";
import { KEY } from "../support/harness.js";

const d = useDashboard();

/**
 * The words of the page's main part, without what is data rather than words: codes, ids, preformatted
 * e-mail text and form values (a date box holds yyyy-MM-dd by HTML's rule).
 */
const WORDS_OF_MAIN = `(() => {
  const main = document.querySelector("main").cloneNode(true);
  for (const data of main.querySelectorAll("code, pre, input, textarea, select, .token")) data.remove();
  return main.innerText;
})()`;

const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;

describe("dates, times and decimals as the page's language writes them, each time with its clock", () => {
  for (const [width, language] of WIDTHS_IN_LANGUAGES)
    it(`at ${width} px in ${language}`, async () => {
      await d.page.setViewportSize({ width, height: 844 });
      const key = await d.h.call("POST", "/_sandbox/api-keys", {
        key: KEY,
        json: { name: "Muhasebe İşlemleri", expires_on: "2036-03-01" },
      });
      expect(key.status).toBe(201);
      const run = await d.h.call("POST", "/_sandbox/reconciliations", {
        raw: "reference,amount_minor,currency,value_date\nKİRA-ŞUBAT,100,TRY,2026-11-27\n",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "text/csv" },
      });
      expect(run.status).toBe(201);
      // A request of the API, for the request log.
      expect((await d.h.accounts(KEY)).length).toBeGreaterThan(0);
      await d.signIn();
      await d.context.addCookies([{ name: "payspec_dashboard_lang", value: language, url: d.url }]);
      const turkish = language === "tr";

      await d.page.goto(`${d.url}/settings/api-keys`);
      expect(await d.page.locator("main table").textContent()).toContain(turkish ? "01.03.2036" : "2036-03-01");

      await d.page.goto(`${d.url}/reconciliation/${run.body.id}`);
      expect(await d.page.locator("main table").textContent()).toContain(turkish ? "27.11.2026" : "2026-11-27");
      expect(await d.page.locator("h1").textContent()).toContain(
        turkish ? "(İstanbul, sandbox saati)" : "(Istanbul, sandbox clock)",
      );

      await d.page.goto(`${d.url}/exports`);
      expect(await d.page.locator("main thead").textContent()).toContain(turkish ? "sandbox saati" : "sandbox clock");

      await d.page.goto(`${d.url}/outbox`);
      expect(await d.page.locator("#outbox-clocks").textContent()).toContain(turkish ? "İki saat var" : "Two clocks");

      await d.page.goto(`${d.url}/requests`);
      const latencies = await d.page.locator("main td.money").allTextContents();
      expect(latencies.length).toBeGreaterThan(0);
      for (const latency of latencies) expect(latency).toMatch(turkish ? /^[\d.]+,\d ms$/ : /^[\d,]+\.\d ms$/);
      await d.navigate(() => d.page.locator("main table a").first().click());
      expect(await d.page.locator("main p").first().textContent()).toContain(
        turkish ? "(İstanbul, gerçek zaman)" : "(Istanbul, real time)",
      );

      // No ISO date in any Turkish words of these pages; the English ones keep the house format.
      if (turkish)
        for (const path of ["/settings/api-keys", `/reconciliation/${run.body.id}`, "/exports", "/outbox"]) {
          await d.page.goto(`${d.url}${path}`);
          expect(await d.page.evaluate(WORDS_OF_MAIN), path).not.toMatch(ISO_DATE);
        }
      expect(await d.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
    });
});
