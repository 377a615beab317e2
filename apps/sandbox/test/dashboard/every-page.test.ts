import { wcagViolations } from "@payspec/test-browser";
import { beforeEach, describe, expect, it } from "vitest";
import { DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET } from "../../src/index.js";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { cardPayment, KEY } from "../support/harness.js";
import { onPostgres } from "../support/test-stores.js";

// Payments complete an hour after they are made: the payment these pages show stays cancellable
// however long a busy machine takes to get through them (the default, 30 s, was not always enough).
const d = useDashboard(3_600);

/** The widths people use: a laptop, and a phone (an iPhone 14's 390 × 844). */
const WIDTHS = [
  { name: "desktop", width: 1366, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/**
 * Both languages of the dashboard: English (no Accept-Language) and Turkish (a Turkish browser).
 * Turkish words are longer, so the phone's layout is checked in both.
 */
const LANGUAGES = [
  { name: "en", headers: {} },
  { name: "tr", headers: { "accept-language": "tr-TR,tr;q=0.9" } },
] as const;

/**
 * Every width in every language, each once: layout and accessibility do not depend on the store, so
 * the narrowest layout with the longest words (the phone, in Turkish) runs on PostgreSQL and the rest
 * on memory.
 */
type Combination = { readonly size: (typeof WIDTHS)[number]; readonly language: (typeof LANGUAGES)[number] };
const onPhoneInTurkish = (c: Combination) => c.size.name === "phone" && c.language.name === "tr";
const COMBINATIONS = WIDTHS.flatMap((size) => LANGUAGES.map((language) => ({ size, language }))).filter(
  (c) => onPhoneInTurkish(c) === onPostgres(),
);

/**
 * axe runs on every page at each width once and in each language once: the desktop in English and the
 * phone in Turkish. Its rules read the markup, names and colours, which the other two combinations do
 * not change, and it was more than half of the sweep's CPU; the layout checks (scroll, tap targets,
 * markup shown as text, clocks) run on all four.
 */
const withAxe = (c: Combination) => onPhoneInTurkish(c) || (c.size.name === "desktop" && c.language.name === "en");

/**
 * Seventeen pages, each loaded, measured, run through axe and photographed: about 15 s alone, and up
 * to four times that while the rest of the check shares the machine, so the limit only catches a hang.
 */
const PAGES_TIMEOUT_MS = 300_000;

interface Checked {
  readonly path: string;
  readonly horizontalScroll: number;
  readonly violations: string[];
  readonly smallTargets: string[];
  /** Markup shown as text (`<time …>`, `&lt;`) in the page's title or words. */
  readonly rawMarkup: string[];
  /** Times whose column, field or sentence does not say which clock they are on. */
  readonly timesWithoutClock: string[];
}

/**
 * One page as a user meets it at a combination's width and language: nothing wider than the screen,
 * no WCAG A/AA violation (where axe runs), targets big enough on a phone.
 */
async function check(path: string, shot: string, combination: Combination): Promise<Checked> {
  const { page } = d;
  const phone = combination.size.name === "phone";
  // Run in the page (strings: this package's types hold no DOM).
  const overflow = (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
  const violations = withAxe(combination) ? await wcagViolations(page) : [];
  // Tap targets on a phone: every visible button, field, menu link and link on its own (a table's id,
  // a row of actions such as CSV, PDF, New payment, Download; not a link inside a sentence) at least
  // 44 px high; a box to tick 24 px square.
  const smallTargets = phone
    ? ((await page.evaluate(`[
        ...[...document.querySelectorAll("button, select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), header nav a, main a:not(p:not(.actions) a)")]
          .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height < 44),
        ...[...document.querySelectorAll("input[type=checkbox], input[type=radio]")]
          .filter((el) => el.offsetParent !== null && Math.min(el.getBoundingClientRect().height, el.getBoundingClientRect().width) < 24),
      ].map((el) => el.tagName.toLowerCase() + " " + (el.textContent || el.getAttribute("name") || "").trim().slice(0, 30) + " " + Math.round(el.getBoundingClientRect().height) + "px")`)) as string[])
    : [];
  const words = (await page.evaluate("document.title + '\\n' + document.body.innerText")) as string;
  // A tag (`<time datetime=…>`, `</p>`) or an escaped character; an e-mail address in angle brackets
  // (`payspec sandbox <sandbox@payspec.localhost>`) is words.
  const rawMarkup = words.match(/<\/?[a-z][a-z0-9-]*(?:\s[^<>\n]*)?>|&(?:lt|gt|amp|quot|#\d+);/gi) ?? [];
  // Each time says its clock (the sandbox's can be moved; the request log and mail are on real time):
  // in its column's heading, its row's heading, or the sentence around it.
  const timesWithoutClock = (await page.evaluate(`[...document.querySelectorAll("main time")].filter((time) => {
      const clock = /sandbox clock|real time|gateway clock|sandbox saati|gerçek zaman|ödeme geçidi saati/;
      const cell = time.closest("td");
      if (cell) {
        const rowHeading = cell.parentElement.querySelector("th[scope=row]");
        const columnHeading = cell.closest("table").querySelectorAll("thead th")[cell.cellIndex];
        return ![rowHeading, columnHeading].some((heading) => heading && clock.test(heading.textContent));
      }
      const sentence = time.closest("p, li, dd, label, h1, h2");
      return !(sentence && clock.test(sentence.textContent));
    }).map((time) => (time.closest("table")?.getAttribute("aria-label") ?? "") + " " + time.textContent)`)) as string[];
  const checked = {
    timesWithoutClock,
    path,
    horizontalScroll: Math.max(0, overflow),
    violations,
    smallTargets,
    rawMarkup,
  };
  await keepScreenshot(page, shot, hasProblem(checked));
  return checked;
}

/** Anything the sweep refuses on a page: it fails the case, and the page is photographed. */
const hasProblem = (r: Checked) =>
  r.horizontalScroll > 0 ||
  r.violations.length > 0 ||
  r.smallTargets.length > 0 ||
  r.rawMarkup.length > 0 ||
  r.timesWithoutClock.length > 0;

describe("every dashboard page, at a desktop's and a phone's width, in English and Turkish", () => {
  let paymentId = "";

  beforeEach(async () => {
    paymentId = (await d.create(KEY, { reference: "INV-2026-0007", description: "Kira ödemesi — İzmir" })).id;
    await d.h.sandbox.stores.approvalWorkflow.set(KEY, true);
    // One dashboard payment waiting for an approver: the Approvals page shows its row, its tick box
    // and its Approve and Reject buttons, measured like every other target.
    const [from, to] = (await d.h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
    const waiting = await d.h.control("/payments", {
      amount: 2_500,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
      description: "Şirket aidatı — Iğdır",
    });
    expect(waiting.body.status).toBe("pending");
  });

  for (const combination of COMBINATIONS) {
    const { size, language } = combination;
    it(
      `a workspace's pages at ${size.width} px in ${language.name}: no horizontal scroll${withAxe(combination) ? ", no WCAG 2.2 A/AA violation" : ""}, the current page marked`,
      async () => {
        await d.page.setViewportSize({ width: size.width, height: size.height });
        await d.signIn();
        await d.context.setExtraHTTPHeaders(language.headers);
        const shotName = `${language.name === "en" ? "" : `${language.name}-`}${size.name}`;
        await d.h.sandbox.stores.reportRecipients.set(KEY, ["muhasebe@example.com"]);
        const schedule = await d.h.control("/schedules", {
          name: "Günlük özet",
          format: "csv",
          every: "day",
          time: "09:00",
        });
        // Checked: a refused schedule once left its page's check on the "no such schedule" page.
        expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
        const mail = await d.h.control("/outbox/test");
        const run = await d.h.call("POST", "/_sandbox/reconciliations", {
          raw: "reference,amount_minor,currency,value_date\nKİRA-ŞUBAT,100,TRY,2026-11-27\n",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "text/csv" },
        });
        expect(run.status).toBe(201);
        const pages: [string, string][] = [
          ["", "overview"],
          [`/payments/${paymentId}`, "payment"],
          ["/payments/new", "new-payment"],
          ["/approvals", "approvals"],
          ["/requests", "request-log"],
          ["/faults", "faults"],
          ["/reconciliation", "reconciliation"],
          [`/reconciliation/${run.body.id}`, "reconciliation-run"],
          ["/exports", "exports"],
          ["/outbox", "outbox"],
          [`/outbox/${mail.body.id}`, "outbox-message"],
          ["/settings/api-keys", "api-keys"],
          ["/settings/reports", "reports"],
          ["/settings/schedules", "schedules"],
          [`/settings/schedules/${schedule.body.id}`, "schedule"],
          ["/settings", "settings"],
        ];
        const results: Checked[] = [];
        for (const [path, shot] of pages) {
          await d.page.goto(`${d.url}${path}`);
          results.push(await check(path, `${shotName}-${shot}`, combination));
          expect(await d.page.getAttribute("html", "lang"), path).toBe(language.name);
          // The navigation marks where the user is (a payment's page is under the overview).
          const current = await d.page.locator('header nav a[aria-current="page"]').count();
          expect(current, path).toBe(1);
        }
        // A confirmation page, too.
        await d.page.goto(`${d.url}/payments/${paymentId}`);
        await d.navigate(() =>
          d.page.getByRole("button", { name: language.name === "tr" ? "Ödemeyi iptal et" : "Cancel payment" }).click(),
        );
        await d.page.locator("#confirm-question").waitFor();
        results.push(await check("cancel confirmation", `${shotName}-confirm`, combination));
        // And rejecting from the Approvals page asks its own question.
        await d.page.goto(`${d.url}/approvals`);
        await d.navigate(() =>
          d.page
            .getByRole("button", { name: language.name === "tr" ? /^Reddet:/ : /^Reject / })
            .first()
            .click(),
        );
        await d.page.locator("#confirm-question").waitFor();
        results.push(await check("reject confirmation", `${shotName}-reject-confirm`, combination));
        expect(results.filter(hasProblem)).toEqual([]);
      },
      PAGES_TIMEOUT_MS,
    );
  }

  it("on a phone the menu folds behind a button that says whether it is open; the skip link goes to the content", async () => {
    await d.page.setViewportSize({ width: 390, height: 844 });
    await d.signIn();
    const menu = d.page.getByRole("button", { name: "Menu" });
    const outbox = d.page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Outbox" });
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await outbox.isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await outbox.click();
    await d.page.getByRole("heading", { name: "Outbox" }).waitFor();
    // Sign out stays on the screen.
    const signOut = await d.page.getByRole("button", { name: "Sign out" }).boundingBox();
    expect((signOut?.x ?? 0) + (signOut?.width ?? 0)).toBeLessThanOrEqual(390);
    // The first Tab reaches the skip link, which moves focus to the page's content.
    await d.page.keyboard.press("Tab");
    expect(await d.page.evaluate("document.activeElement.textContent")).toBe("Skip to the content");
    await d.page.keyboard.press("Enter");
    expect(await d.page.evaluate("document.activeElement.id")).toBe("main");
  });

  for (const combination of COMBINATIONS) {
    const { size, language } = combination;
    it(`the sign-in page and the gateway's pages at ${size.width} px in ${language.name}`, async () => {
      await d.page.setViewportSize({ width: size.width, height: size.height });
      await d.context.setExtraHTTPHeaders(language.headers);
      const tr = language.name === "tr";
      const shotName = `${tr ? "tr-" : ""}${size.name}`;
      const token = await d.h.login();
      const paid = await d.h.call("POST", "/api/v1/payments/card", { token, json: cardPayment({ amount: 1250.5 }) });
      // The gateway page lists one Istanbul day, today by default: a run that straddles Istanbul's
      // midnight would find the payment on yesterday's page, so the page is opened at its own day.
      const day = String(paid.body.response.createdDate).slice(0, 10);
      await d.page.goto(d.url);
      const results: Checked[] = [await check("sign-in", `${shotName}-sign-in`, combination)];
      await d.page.getByLabel(tr ? "Ödeme geçidi API anahtarı" : "Gateway API key").fill(DEMO_GATEWAY_KEY);
      await d.page.getByLabel(tr ? "Ödeme geçidi parolası" : "Gateway secret").fill(DEMO_GATEWAY_SECRET);
      await d.page.getByRole("button", { name: tr ? "Ödeme geçidine oturum aç" : "Sign in to the gateway" }).click();
      await d.page
        .getByRole("heading", { name: tr ? "Ödeme geçidi kart ödemeleri" : "Gateway card payments" })
        .waitFor();
      await d.page.goto(`${d.url}/gateway?date=${day}`);
      results.push(await check("gateway", `${shotName}-gateway`, combination));
      await d.page
        .getByRole("table", { name: tr ? "Kart ödemeleri" : "Card payments" })
        .getByRole("link")
        .first()
        .click();
      await d.page.getByRole("heading", { name: tr ? /^Kart ödemesi ORD-/ : /^Card payment ORD-/ }).waitFor();
      results.push(await check("gateway payment", `${shotName}-gateway-payment`, combination));
      expect(await d.page.getAttribute("html", "lang")).toBe(language.name);
      expect(
        results.filter(
          (r) =>
            r.horizontalScroll > 0 || r.violations.length > 0 || r.smallTargets.length > 0 || r.rawMarkup.length > 0,
        ),
      ).toEqual([]);
    });
  }
});
