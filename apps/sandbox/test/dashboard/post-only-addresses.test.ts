import { describe, expect, it } from "vitest";
import { useDashboard, WIDTHS_IN_LANGUAGES } from "../support/dashboard-browser.js";
import { KEY } from "../support/harness.js";

const d = useDashboard(3_600);

/** The pages whose forms post somewhere: their form actions are what a person may later open by address. */
const PAGES_WITH_FORMS = [
  "",
  "/payments/new",
  "/approvals",
  "/settings",
  "/settings/api-keys",
  "/settings/reports",
  "/settings/schedules",
  "/faults",
  "/reconciliation",
];

describe("a POST-only address opened with a GET", () => {
  for (const [width, language] of WIDTHS_IN_LANGUAGES)
    it(`shows the page its form lives on and does nothing, at ${width} px in ${language}`, async () => {
      await d.page.setViewportSize({ width, height: 844 });
      const payment = await d.create(KEY, { reference: "KİRA-ŞUBAT" });
      await d.signIn();
      await d.context.addCookies([{ name: "payspec_dashboard_lang", value: language, url: d.url }]);
      const balances = JSON.stringify(await d.h.accounts(KEY));

      const actions = new Set<string>();
      for (const path of [...PAGES_WITH_FORMS, `/payments/${payment.id}`]) {
        await d.page.goto(`${d.url}${path}`);
        for (const action of await d.page
          .locator('main form[method="post"]')
          .evaluateAll((forms) => forms.map((f) => f.getAttribute("action") ?? "")))
          actions.add(action);
      }
      // The overview's, the new-payment form's, settings' and the payment's own forms at the least.
      expect(actions.size).toBeGreaterThan(8);

      const notFound = language === "tr" ? "Bulunamadı" : "Not found";
      for (const action of actions) {
        const answer = await d.page.goto(`${d.h.url}${action}`);
        expect(answer?.status(), action).toBe(200);
        expect(await d.page.locator("h1").textContent(), action).not.toBe(notFound);
        // Still signed in (sign-out is one of the addresses), and nothing was done (reset is another).
        expect(await d.page.locator("nav a").count(), action).toBeGreaterThan(1);
      }
      expect(JSON.stringify(await d.h.accounts(KEY))).toBe(balances);
      expect((await d.h.call("GET", `/v1/payments/${payment.id}`, { key: KEY })).body.status).toBe("pending");

      // The address the browser shows after the new-payment form answered with its errors.
      await d.page.goto(`${d.url}/payments`);
      expect(new URL(d.page.url()).pathname).toBe("/_sandbox/dashboard/payments/new");
      await d.page.locator('form[action$="/payments"] select[name="from_account"]').waitFor();

      // A force-status address without its status says what to choose; it never asks about forcing "".
      await d.page.goto(`${d.url}/payments/${payment.id}/status`);
      expect(new URL(d.page.url()).pathname).toBe(`/_sandbox/dashboard/payments/${payment.id}`);
      expect(await d.page.getByRole("alert").first().textContent()).toContain(
        language === "tr" ? "zorla verilecek durumu" : "Choose the status to force",
      );
      expect(await d.page.locator("form.confirm").count()).toBe(0);
      expect(await d.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
    });
});
