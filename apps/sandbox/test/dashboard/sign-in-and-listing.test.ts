import { describe, expect, it } from "vitest";
import { istanbulDate } from "../../src/index.js";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { KEY, OTHER_KEY } from "../support/harness.js";

const d = useDashboard();
const { signIn, create } = d;

/** What a test reads of an element's box (this package's types hold no DOM). */
interface Measured {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly offsetHeight: number;
  computedStyleMap(): { get(property: string): { toString(): string } | undefined };
}

const paymentRows = () => d.page.getByRole("table", { name: "Payments" }).locator("tbody tr");

describe("the sandbox dashboard, in a real browser", () => {
  it("signs in with a workspace's API key into an HttpOnly, SameSite=Strict session, and out again", async () => {
    await d.page.goto(d.url);
    await keepScreenshot(d.page, "sign-in");
    await d.page.getByLabel(/Workspace API key/).fill("sk_live_not_a_sandbox_key");
    await d.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(d.page.getByRole("alert").textContent()).resolves.toContain("not the API key of a workspace");
    expect(await d.page.content()).not.toContain("sk_live_not_a_sandbox_key");

    await signIn();
    const cookies = await d.context.cookies();
    const session = cookies.find((c) => c.name === "payspec_dashboard_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/_sandbox/dashboard" });
    // The cookie names the workspace by its tag, never by its key.
    expect(session?.value).not.toContain(KEY);
    const balances = await d.page.getByRole("table", { name: "Accounts" }).locator("tbody tr").allTextContents();
    expect(balances).toHaveLength(6);
    expect(balances[0]).toMatch(/2,500,000\.00 TRY/);

    await d.page.getByRole("button", { name: "Sign out" }).click();
    await d.page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect((await d.context.cookies()).find((c) => c.name === "payspec_dashboard_session")).toBeUndefined();
  });

  it("refuses a form without its CSRF token", async () => {
    const answer = await fetch(`${d.url}/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `apiKey=${KEY}`,
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get("set-cookie") ?? "").not.toContain("payspec_dashboard_session");
    expect(await answer.text()).toContain("did not come from this dashboard");
  });

  it("shows user text as text: a <script> description never runs", async () => {
    await create(KEY, { description: "<script>window.__owned = 1</script><b>bold</b>" });
    await signIn();
    const cell = paymentRows().first().locator("td").last();
    expect(await cell.textContent()).toBe("<script>window.__owned = 1</script><b>bold</b>");
    expect(await d.page.evaluate(() => (globalThis as { __owned?: number }).__owned)).toBeUndefined();
    expect(await d.page.locator("main b").count()).toBe(0);
  });

  it("lists payments newest first with first, previous and next pages and the API's filters, and shows a payment's history", async () => {
    const made = [];
    for (let i = 0; i < 28; i++) {
      made.push(
        await create(KEY, {
          amount: 100 + i,
          ...(i === 9 ? { reference: "FTR-ŞĞİ-0042" } : {}),
          ...(i === 11 ? { reference: "INV-2026-0007", description: "Kira ödemesi Şubat — IŞIK Mağazacılık" } : {}),
        }),
      );
    }
    const tagged = made[9] as { id: string };
    const cancelled = made[3] as { id: string };
    await d.h.call("DELETE", `/v1/payments/${cancelled.id}`, { key: KEY });
    await d.h.control(`/payments/${made[5]?.id}/status`, { status: "completed" });
    await signIn();
    await keepScreenshot(d.page, "payments");
    expect(await d.page.getByText("28 payments.").count()).toBe(1);
    expect(await paymentRows().count()).toBe(25);
    // Newest first: the last one made heads the first page.
    expect(await paymentRows().first().textContent()).toContain(made[27]?.id);
    expect(await d.page.getByRole("link", { name: "Previous page" }).count()).toBe(0);
    await d.navigate(() => d.page.getByRole("link", { name: "Next page" }).click());
    expect(await paymentRows().count()).toBe(3);
    expect(await paymentRows().last().textContent()).toContain(made[0]?.id);
    expect(await d.page.getByRole("link", { name: "Next page" }).count()).toBe(0);
    await d.navigate(() => d.page.getByRole("link", { name: "Previous page" }).click());
    expect(await paymentRows().count()).toBe(25);
    expect(await paymentRows().first().textContent()).toContain(made[27]?.id);
    await d.navigate(() => d.page.getByRole("link", { name: "Next page" }).click());
    await d.navigate(() => d.page.getByRole("link", { name: "First page" }).click());
    expect(await paymentRows().first().textContent()).toContain(made[27]?.id);

    // One search box: a payment id opens the payment; other text is looked for in references and
    // descriptions, case-insensitive by Turkish rules (either dot on i), accents kept.
    await d.page.getByLabel(/^Search/).fill(made[7]?.id as string);
    await d.page.getByRole("button", { name: "Filter" }).click();
    await d.page.getByRole("heading", { name: `Payment ${made[7]?.id}` }).waitFor();
    await d.page.goto(d.url);
    await d.page.getByLabel(/^Search/).fill("FTR-ŞĞİ-0042");
    await d.navigate(() => d.page.getByRole("button", { name: "Filter" }).click());
    expect(await paymentRows().count()).toBe(1);
    expect(await paymentRows().first().textContent()).toContain(tagged.id);
    const invoice = made[11] as { id: string };
    for (const [text, found] of [
      ["ftr-şği", tagged.id],
      ["şği-00", tagged.id],
      ["inv-2026", invoice.id],
      ["İNV-2026-0007", invoice.id],
      ["ışık", invoice.id],
      ["ŞUBAT", invoice.id],
    ] as const) {
      await d.page.goto(`${d.url}?${new URLSearchParams({ q: text }).toString()}`);
      expect(await paymentRows().count(), text).toBe(1);
      expect(await paymentRows().first().textContent(), text).toContain(found);
    }
    // Accents are kept: "subat" is not "Şubat", and nothing matches shows as such.
    await d.page.goto(`${d.url}?q=subat`);
    expect(await d.page.locator("#payment-count").textContent()).toBe("0 payments.");
    expect(await d.page.getByRole("cell", { name: "No payment matches these filters." }).count()).toBe(1);
    // The list shows each payment's reference.
    await d.page.goto(`${d.url}?q=FTR`);
    expect(await d.page.getByRole("table", { name: "Payments" }).textContent()).toContain("FTR-ŞĞİ-0042");

    await d.page.goto(d.url);
    await d.page.getByLabel("Status").selectOption("cancelled");
    await d.navigate(() => d.page.getByRole("button", { name: "Filter" }).click());
    expect(await paymentRows().count()).toBe(1);
    expect(await paymentRows().first().textContent()).toContain(cancelled.id);
    // The dashboard's dates are Istanbul days (src/payments/test/dashboard-dates.test.ts): the day the
    // first payment was made there, and as many payments as were made on it (all, unless the run
    // straddled 21:00 UTC).
    const madeOn = (p: { created_at: string }) => istanbulDate(Date.parse(p.created_at));
    const today = madeOn(made[0] as { created_at: string });
    await d.page.goto(`${d.url}?from=2000-01-01&to=2000-01-31`);
    expect(await d.page.locator("#payment-count").textContent()).toBe("0 payments.");
    await d.page.goto(`${d.url}?from=${today}&to=${today}`);
    const thatDay = made.filter((p) => madeOn(p) === today).length;
    expect(thatDay).toBeGreaterThan(0);
    expect(await d.page.locator("#payment-count").textContent()).toBe(`${thatDay} payments.`);

    await d.page.goto(d.url);
    await d.page.getByRole("link", { name: made[5]?.id }).click();
    await d.page.getByRole("heading", { name: "Status history" }).waitFor();
    await keepScreenshot(d.page, "payment");
    const history = await d.page.getByRole("table", { name: "Status history" }).locator("tbody tr").allTextContents();
    expect(history).toHaveLength(2);
    expect(history[0]).toMatch(/pending\s*API/);
    expect(history[1]).toMatch(/completed\s*Control API/);
    const fields = await d.page.getByRole("table", { name: "Payment fields" }).textContent();
    expect(fields).toContain("1.05 TRY");
    // Labels in words, not the API's names; the accounts by name beside their ids.
    expect(fields).toContain("Completed");
    expect(fields).not.toContain("completed_at");
    expect(fields).toContain("From account");
    // Times in Istanbul (UTC+03:00), the UTC instant on hover.
    const created = (await d.h.call("GET", `/v1/payments/${made[5]?.id}`, { key: KEY })).body.created_at as string;
    const shown = d.page.locator(`time[datetime="${created}"]`).first();
    expect(await shown.getAttribute("title")).toBe(`${created} (UTC)`);
    const istanbul = new Date(Date.parse(created) + 3 * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
    expect(await shown.textContent()).toBe(istanbul);
  });

  it("never shows another workspace's payments", async () => {
    const mine = await create(KEY, { description: "mine" });
    const theirs = await create(OTHER_KEY, { description: "theirs" });
    await signIn();
    const content = await d.page.content();
    expect(content).toContain(mine.id);
    expect(content).not.toContain(theirs.id);
    const detail = await d.page.goto(`${d.url}/payments/${theirs.id}`);
    expect(detail?.status()).toBe(404);
    expect(await d.page.content()).not.toContain("theirs");
  });
});

describe("the payments table on a laptop and a phone", () => {
  const REFERENCE = "FTR-2026-000125-İZMİR-ŞUBE-KİRA-ŞUBAT";
  const rows = () => d.page.locator("table.payments tbody tr");
  const LANGUAGES = [
    { name: "en", headers: {}, filters: "Filters" },
    { name: "tr", headers: { "accept-language": "tr-TR,tr;q=0.9" }, filters: "Filtreler" },
  ] as const;

  /** Every payment the table can show at its widest: long words in every column, each method. */
  async function widestPayments() {
    const made: string[] = [];
    for (const method of ["bank_transfer", "virtual_account", "eft"])
      made.push(
        (
          await create(KEY, {
            method,
            amount: 1_250_000_75,
            reference: REFERENCE,
            description: "Şubat ayı kira ödemesi, İzmir Karşıyaka şubesi için; ağır iş makinesi kiralama bedeli dahil",
          })
        ).id,
      );
    return made;
  }

  for (const language of LANGUAGES)
    it(`fits 1366 px in ${language.name} with every column, references whole on one line (cut with the whole value on hover and focus)`, async () => {
      await widestPayments();
      await d.page.setViewportSize({ width: 1366, height: 900 });
      await signIn();
      await d.context.setExtraHTTPHeaders(language.headers);
      await d.page.reload();
      const box = d.page.locator("div.scroll", { has: d.page.locator("table.payments") });
      const [tableWidth = 0, boxWidth = 0] = await box.evaluate((el: Measured) => [el.scrollWidth, el.clientWidth]);
      expect(tableWidth, "the table's width against its box").toBeLessThanOrEqual(boxWidth);
      expect(await d.page.locator("table.payments thead th:visible").count()).toBe(9);
      const reference = rows().first().locator("td:nth-child(4) .token");
      expect(await reference.getAttribute("title")).toBe(REFERENCE);
      // One line, never broken at its hyphens.
      const [height, fontSize] = await reference.evaluate((el: Measured) => [
        el.offsetHeight,
        Number.parseFloat(el.computedStyleMap().get("font-size")?.toString() ?? "0"),
      ]);
      // One line is 1.45 em high, two would be 2.9.
      expect(height).toBeLessThan(fontSize * 2);
      // Cut in the middle: the head is what is cut, the end stays.
      const whole = () => reference.locator(".token-head").evaluate((el: Measured) => el.scrollWidth <= el.clientWidth);
      expect(await whole(), "cut while the row is not focused").toBe(false);
      await rows().first().getByRole("link").focus();
      expect(await whole(), "whole while its row has the focus").toBe(true);
    });

  it("on a phone, in Turkish: the filters fold behind a button that says how many are in use, and each row's first screen holds reference, amount and status", async () => {
    await widestPayments();
    await d.page.setViewportSize({ width: 390, height: 844 });
    await signIn();
    await d.context.setExtraHTTPHeaders(LANGUAGES[1].headers);
    await d.page.goto(`${d.url}?method=eft`);
    const summary = d.page.locator("details.fold > summary");
    expect(await summary.textContent()).toBe("Filtreler · 1 seçili");
    expect((await summary.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    const form = d.page.getByRole("form", { name: "Ödemeleri filtrele" });
    expect(await form.isVisible()).toBe(false);
    await summary.click();
    expect(await form.isVisible()).toBe(true);
    expect(await d.page.getByLabel("Yöntem").inputValue()).toBe("eft");

    await d.page.goto(d.url);
    const box = await d.page.locator("div.scroll", { has: d.page.locator("table.payments") }).boundingBox();
    const right = (box?.x ?? 0) + (box?.width ?? 0);
    expect(await rows().count()).toBe(3);
    for (const row of await rows().all()) {
      const first = row.locator("td").first();
      // biome-ignore lint/performance/useDomNodeTextContent: the words shown, without the folded id
      expect(await first.getByRole("link").innerText()).toMatch(/^FTR-2026/);
      expect(await first.locator(".token:visible").getAttribute("title")).toBe(REFERENCE);
      for (const cell of [first, row.locator("td.money"), row.locator(".badge")]) {
        const shown = await cell.boundingBox();
        expect((shown?.x ?? 0) + (shown?.width ?? 0), String(await cell.textContent())).toBeLessThanOrEqual(right);
      }
      expect(await row.locator("td.money").textContent()).toBe("1.250.000,75 ₺");
    }
  });
});
