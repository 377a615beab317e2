import type { Locator } from "@payspec/test-browser";
import { describe, expect, it } from "vitest";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { KEY } from "../support/harness.js";

const d = useDashboard();

/** One series of references, told apart only by their end, and a reconciled payment's long Turkish badge. */
const REFERENCES = ["FTR-2026-000123", "FTR-2026-000124", "FTR-2026-000125"];

const LANGUAGES = [
  { code: "en", approvals: "Waiting for approval", payments: "Payments", approve: "Approve", reject: "Reject" },
  { code: "tr", approvals: "Onay bekleyenler", payments: "Ödemeler", approve: "Onayla", reject: "Reddet" },
] as const;

/** Whether the element shows whole within the screen's width: nothing of it past either edge. */
async function onScreen(element: Locator, width: number): Promise<boolean> {
  const box = await element.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

/** Whether the element shows all its text: not cut by its own box. */
const whole = (element: Locator) => element.evaluate((el) => el.scrollWidth <= el.clientWidth);

describe("a phone can decide: lists that fit 390 px", () => {
  for (const language of LANGUAGES) {
    for (const width of [390, 1366]) {
      it(`approvals and payments at ${width} px in ${language.code}: reference, amount, status and decisions whole, no sideways scroll`, async () => {
        await d.page.setViewportSize({ width, height: 844 });
        await d.signIn();
        await d.context.addCookies([{ name: "payspec_dashboard_lang", value: language.code, url: d.url }]);
        await d.h.sandbox.stores.approvalWorkflow.set(KEY, true);
        const [from, to] = (await d.h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
        for (const reference of REFERENCES)
          await d.h.control("/payments", {
            amount: 1_250_000_75,
            currency: "TRY",
            method: "bank_transfer",
            from_account: from,
            to_account: to,
            reference,
            description: "Şubat ayı kira ödemesi, İzmir Karşıyaka şubesi için",
          });
        // Every state's badge in the list: the longest Turkish one ("mutabakatı yapıldı") among them.
        for (const status of ["reconciled", "cancelled", "processing"]) {
          const { id } = await d.create(KEY, { reference: `FTR-2026-00${status.length}999` });
          await d.h.control(`/payments/${id}/status`, { status });
        }

        await d.page.goto(`${d.url}/approvals`);
        const approvals = d.page.getByRole("table", { name: language.approvals }).locator("tbody tr");
        expect(await approvals.count()).toBe(3);
        for (const row of await approvals.all()) {
          const link = row.locator("td").first().getByRole("link");
          for (const part of [link, row.locator("td.money")]) expect(await onScreen(part, width)).toBe(true);
          for (const name of [language.approve, language.reject]) {
            const button = row.locator("button", { hasText: name });
            expect(await button.textContent()).toBe(name);
            expect(await onScreen(button, width), name).toBe(true);
          }
        }
        expect(await d.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
        const box = d.page.locator("div.scroll", { has: d.page.getByRole("table", { name: language.approvals }) });
        expect(await whole(box)).toBe(true);
        await keepScreenshot(d.page, `approvals-phone-${language.code}-${width}`);

        await d.page.goto(d.url);
        const payments = d.page.getByRole("table", { name: language.payments }).locator("tbody tr");
        expect(await payments.count()).toBe(6);
        const ends = new Set<string>();
        for (const row of await payments.all()) {
          const shown = row.locator("td").first().locator(".token:visible");
          for (const part of [shown, row.locator("td.money"), row.locator(".badge")])
            expect(await onScreen(part, width), String(await part.textContent())).toBe(true);
          // A badge is never cut.
          expect(await whole(row.locator(".badge"))).toBe(true);
          // What tells references apart (their end) shows, even when the middle is cut.
          const tail = shown.locator(".token-tail");
          if ((await tail.count()) > 0) {
            expect(await onScreen(tail, width)).toBe(true);
            ends.add(String(await tail.textContent()));
          }
        }
        if (width === 390) {
          expect([...ends].filter((end) => end.startsWith("000"))).toHaveLength(3);
          // A card says a reference once: the column that holds it on a wide screen folds away.
          expect(await payments.first().locator("td.wide-only").isVisible()).toBe(false);
        }
        expect(await d.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
        const list = d.page.locator("div.scroll", { has: d.page.getByRole("table", { name: language.payments }) });
        expect(await whole(list)).toBe(true);

        // Focus shows a cut value whole.
        const first = payments.first().locator("td").first();
        await first.getByRole("link").focus();
        expect(await whole(first.locator(".token:visible .token-head"))).toBe(true);
        await keepScreenshot(d.page, `payments-phone-${language.code}-${width}`);
      });
    }
  }
});
