import { describe, expect, it } from "vitest";
import { clearOfCutoff } from "../support/clock-moves.js";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { KEY } from "../support/harness.js";

const d = useDashboard(30);

async function fillNewPayment(fields: { amount: string; method?: string; description?: string; to?: number }) {
  const { page } = d;
  await page.getByRole("link", { name: "New payment" }).first().click();
  await page.getByLabel(/^Amount/).fill(fields.amount);
  if (fields.method) await page.getByLabel("Method").selectOption(fields.method);
  const toOptions = await page.getByLabel("To account").locator("option").allTextContents();
  await page.getByLabel("To account").selectOption({ index: fields.to ?? 1 });
  expect(toOptions.length).toBeGreaterThan(1);
  if (fields.description) await page.getByLabel(/Description/).fill(fields.description);
  await page.getByRole("button", { name: "Create payment" }).click();
}

const statusOnPage = () => d.page.locator("#payment-status").textContent();
/**
 * The id of the payment the page moved to after a submit. It waits for that move: read at once, the URL
 * could still be the form's when the click's navigation had not finished (seen once on a loaded machine).
 */
async function paymentIdOnPage(): Promise<string> {
  await d.page.waitForURL(/\/payments\/(?!new(?:[/?]|$))[^/?]+(?:\?.*)?$/);
  return d.page.url().split("/payments/")[1]?.split("?")[0] as string;
}
const apiStatus = async (id: string) => (await d.h.call("GET", `/v1/payments/${id}`, { key: KEY })).body.status;
/** The status history as "status cause" per change (the time and who acted left out). */
const history = async () => {
  const rows = d.page.getByRole("table", { name: "Status history" }).locator("tbody tr");
  const out: string[] = [];
  // Who acted (a masked key) is left out here: the four-eyes case checks it.
  for (const row of await rows.all()) {
    out.push(
      (await row.locator("td").allTextContents())
        .slice(1, 3)
        .join(" ")
        .replace(/ · .*$/, ""),
    );
  }
  return out;
};

describe("the dashboard's new payment form and approval workflow, in a real browser", () => {
  it("suggests a payment that can be made: different From and To accounts in one currency", async () => {
    await d.signIn();
    await d.page.getByRole("link", { name: "New payment" }).first().click();
    const from = await d.page.getByLabel("From account").inputValue();
    const to = await d.page.getByLabel("To account").inputValue();
    expect(from).not.toBe(to);
    const accounts = await d.h.accounts();
    const currency = (id: string) => accounts.find((a) => a.id === id)?.currency;
    expect(currency(from)).toBe(currency(to));
    expect(await d.page.locator('select[name="currency"]').inputValue()).toBe(currency(from));
  });

  it("with the workflow on: a submit waits as pending, an approver approves it, then cancels it", async () => {
    await d.signIn();
    await d.page.getByRole("link", { name: "Settings", exact: true }).click();
    await d.page.getByRole("button", { name: "Turn the approval workflow on" }).click();
    expect(await d.page.locator("#approval-workflow").textContent()).toBe("on");
    await fillNewPayment({ amount: "25.00", description: "Invoice 7" });
    await d.page.getByRole("heading", { name: /^Payment pay_/ }).waitFor();
    const id = await paymentIdOnPage();
    expect(await statusOnPage()).toBe("pending");
    expect(await apiStatus(id)).toBe("pending");
    await keepScreenshot(d.page, "payment-awaiting-approval");

    // Waiting for an approver is not waiting for completion: an hour later it is still pending.
    await d.page.getByRole("link", { name: "Settings", exact: true }).click();
    await d.page.getByLabel("Amount").fill("1");
    await d.page.getByLabel("Unit").selectOption("hours");
    await d.page.getByRole("button", { name: "Advance the clock" }).click();
    await d.page.getByRole("status").waitFor();
    expect(await apiStatus(id)).toBe("pending");

    // The approvals queue lists it, and the navigation counts it.
    await d.page.getByRole("link", { name: /^Approvals/ }).click();
    expect(await d.page.locator("#approvals-count").textContent()).toContain("1 payment waiting");
    expect(await d.page.getByRole("link", { name: /^Approvals/ }).textContent()).toContain("1");
    await d.page.getByRole("button", { name: `Approve ${id}` }).waitFor();

    await d.page.goto(`${d.url}/payments/${id}`);
    await d.page.getByRole("button", { name: "Approve" }).click();
    expect(await statusOnPage()).toBe("approved");
    expect(await apiStatus(id)).toBe("approved");
    expect(await d.page.getByRole("button", { name: "Approve" }).count()).toBe(0);

    // Cancelling cannot be undone: a confirmation comes first, and going back changes nothing.
    await d.page.getByRole("button", { name: "Cancel payment" }).click();
    await d.page.getByRole("heading", { name: "Cancel this payment?" }).waitFor();
    expect(await apiStatus(id)).toBe("approved");
    await d.page.getByRole("link", { name: "No, keep it" }).click();
    expect(await statusOnPage()).toBe("approved");
    await d.page.getByRole("button", { name: "Cancel payment" }).click();
    await d.page.getByRole("button", { name: "Yes, cancel the payment" }).click();
    expect(await statusOnPage()).toBe("cancelled");
    expect(await apiStatus(id)).toBe("cancelled");
    const changes = await history();
    expect(changes).toEqual(["pending Dashboard", "approved Dashboard", "cancelled Dashboard"]);
  });

  it("warns before a payment its account cannot cover, and says in words why it failed", async () => {
    await d.signIn();
    const before = await d.h.accounts();
    // 99,999,999.00 TRY from an account that holds 2,500,000.00 TRY.
    await fillNewPayment({ amount: "99999999" });
    const warning = d.page.locator("#short-warning");
    expect(await warning.textContent()).toContain("holds 2,500,000.00 TRY now");
    expect(await warning.textContent()).toContain("needs 99,999,999.00 TRY");
    // Nothing was made, and the form keeps what was typed.
    expect((await d.h.call("GET", "/v1/payments", { key: KEY })).body.pagination.total).toBe(0);
    expect(await d.page.getByLabel(/^Amount/).inputValue()).toBe("99999999");
    await d.page.getByRole("button", { name: "Create it anyway" }).click();
    const id = await paymentIdOnPage();
    await d.h.control("/clock/advance", { seconds: 31 });
    await d.page.reload();
    expect(await statusOnPage()).toBe("failed");
    const reason = (await d.page.locator("#failure-reason").textContent()) as string;
    expect(reason).toContain("Ayşe Yılmaz Vadesiz TRY");
    expect(reason).toContain("held 2,500,000.00 TRY");
    expect(reason).toContain("needed 99,999,999.00 TRY");
    const lastChange = await d.page
      .getByRole("table", { name: "Status history" })
      .locator("tbody tr")
      .last()
      .textContent();
    expect(lastChange).toContain("held 2,500,000.00 TRY");
    // No money moved.
    expect(await d.h.accounts()).toEqual(before);
    expect(await apiStatus(id)).toBe("failed");
  });

  it("with four eyes on, whoever submitted cannot approve; another key can, and the history names both", async () => {
    await d.h.sandbox.stores.approvalWorkflow.set(KEY, true);
    await d.h.sandbox.stores.fourEyes.set(KEY, true);
    const second = (await d.h.call("POST", "/_sandbox/api-keys", { key: KEY, json: { name: "Onaycı Şükrü" } })).body
      .key as string;
    await d.signIn();
    await fillNewPayment({ amount: "12.00" });
    const id = await paymentIdOnPage();
    // No Approve that would be refused: the page says who must approve instead.
    expect(await d.page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    expect(await d.page.locator("#approval-wait").textContent()).toContain("four-eyes rule is on");
    expect(await apiStatus(id)).toBe("pending");
    // Through the control API too, with the submitting key: refused, saying what to do.
    const refused = await d.h.call("POST", `/_sandbox/payments/${id}/approve`, { key: KEY });
    expect([refused.status, refused.body.message]).toEqual([403, expect.stringContaining("another API key")]);
    // Another key of the workspace approves it.
    await d.page.getByRole("button", { name: "Sign out" }).click();
    await d.signIn(second);
    await d.page.goto(`${d.url}/payments/${id}`);
    await d.page.getByRole("button", { name: "Approve" }).click();
    expect(await statusOnPage()).toBe("approved");
    const causes = await d.page
      .getByRole("table", { name: "Status history" })
      .locator("tbody tr td:nth-child(3)")
      .allTextContents();
    expect(causes).toEqual([`Dashboard · sk_sandbox_…${KEY.slice(-4)}`, `Dashboard · sk_sandbox_…${second.slice(-4)}`]);
    // Never the keys themselves.
    expect(await d.page.content()).not.toContain(second);
    expect(await d.page.content()).not.toContain(KEY);
  });

  for (const [width, language] of [
    [1366, "en"],
    [390, "tr"],
    [1366, "tr"],
    [390, "en"],
  ] as const)
    it(`under four eyes offers the submitter and the approver only what will be done, at ${width} px in ${language}`, async () => {
      const words = {
        en: { approve: "Approve", withdraw: "Withdraw", cancel: "Cancel payment", approved: "Approved." },
        tr: { approve: "Onayla", withdraw: "Geri çek", cancel: "Ödemeyi iptal et", approved: "Onaylandı." },
      }[language];
      await d.page.setViewportSize({ width, height: 844 });
      await d.h.sandbox.stores.approvalWorkflow.set(KEY, true);
      await d.h.sandbox.stores.fourEyes.set(KEY, true);
      const approver = (await d.h.call("POST", "/_sandbox/api-keys", { key: KEY, json: { name: "Onaycı Şükrü" } })).body
        .key as string;
      await d.signIn();
      await d.context.addCookies([{ name: "payspec_dashboard_lang", value: language, url: d.url }]);
      // Two payments submitted from the dashboard by this key, through its own session.
      const submit = async () => {
        await d.page.goto(`${d.url}/payments/new`);
        await d.page.getByLabel(language === "tr" ? /^Tutar/ : /^Amount/).fill("12");
        await d.navigate(() => d.page.locator('form[action$="/payments"] button[type="submit"]').click());
        return paymentIdOnPage();
      };
      const [mine, other] = [await submit(), await submit()];
      /** The buttons a page offers, by their visible words. */
      const buttons = async () =>
        (await d.page.locator("main button:visible").allTextContents()).map((text) => text.trim());

      // The submitter: no Approve anywhere, the reason said; what is offered (cancel, withdraw) is done.
      await d.page.goto(`${d.url}/payments/${mine}`);
      expect(await buttons()).not.toContain(words.approve);
      expect(await buttons()).toContain(words.cancel);
      expect(await d.page.locator("#approval-wait").isVisible()).toBe(true);
      await d.page.goto(`${d.url}/approvals`);
      expect(await buttons()).not.toContain(words.approve);
      expect(await d.page.getByRole("checkbox").count()).toBe(0);
      await d.navigate(() =>
        d.page.getByRole("button", { name: `${words.withdraw}${language === "tr" ? ":" : ""} ${other}` }).click(),
      );
      await d.navigate(() => d.page.locator("main form button.danger").first().click());
      expect(await apiStatus(other)).toBe("cancelled");
      expect(await d.page.getByRole("alert").count()).toBe(0);

      // The approver: Approve on both pages, and it is done.
      await d.context.clearCookies();
      await d.signIn(approver);
      await d.context.addCookies([{ name: "payspec_dashboard_lang", value: language, url: d.url }]);
      await d.page.goto(`${d.url}/approvals`);
      expect(await buttons()).toContain(words.approve);
      await d.page.goto(`${d.url}/payments/${mine}`);
      expect(await d.page.locator("#approval-wait").count()).toBe(0);
      await d.navigate(() => d.page.getByRole("button", { name: words.approve, exact: true }).click());
      expect(await d.page.getByRole("status").textContent()).toContain(words.approved);
      expect(await apiStatus(mine)).toBe("approved");
      expect(await d.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBe(0);
    });

  it("an approved payment completes once the delay has passed since its approval", async () => {
    await clearOfCutoff(d.h);
    await d.h.sandbox.stores.approvalWorkflow.set(KEY, true);
    await d.signIn();
    await fillNewPayment({ amount: "7" });
    await d.page.getByRole("button", { name: "Approve" }).click();
    const id = await paymentIdOnPage();
    await d.h.control("/clock/advance", { seconds: 31 });
    expect(await apiStatus(id)).toBe("completed");
  });

  it("with the workflow off: a submit goes to processing, then completes and moves the balances", async () => {
    await d.signIn();
    await clearOfCutoff(d.h);
    const before = await d.h.accounts();
    await fillNewPayment({ amount: "10.00", method: "card" });
    const id = await paymentIdOnPage();
    expect(await statusOnPage()).toBe("processing");
    expect(await apiStatus(id)).toBe("processing");
    // Processing cannot be cancelled (the seed's rule 1): the dashboard offers no cancel, the API refuses.
    expect(await d.page.getByRole("button", { name: "Cancel payment" }).count()).toBe(0);
    expect((await d.h.call("DELETE", `/v1/payments/${id}`, { key: KEY })).status).toBe(409);

    await d.h.control("/clock/advance", { seconds: 31 });
    await d.page.reload();
    expect(await statusOnPage()).toBe("completed");
    const after = await d.h.accounts();
    const payment = (await d.h.call("GET", `/v1/payments/${id}`, { key: KEY })).body;
    const moved = (accountId: string) =>
      Math.round(
        ((after.find((a) => a.id === accountId)?.balance ?? 0) -
          (before.find((a) => a.id === accountId)?.balance ?? 0)) *
          100,
      );
    expect([moved(payment.from_account), moved(payment.to_account)]).toEqual([-1000, 1000]);
    expect(await history()).toEqual(["processing Dashboard", "completed Completion"]);
  });

  it("shows the schema's errors beside each field and creates nothing", async () => {
    await d.signIn();
    await d.page.getByRole("link", { name: "New payment" }).first().click();
    await keepScreenshot(d.page, "new-payment");
    await d.page.getByLabel(/^Amount/).fill("12.5055");
    await d.page.getByLabel("Method").selectOption("direct_debit");
    await d.page.getByLabel(/Description/).fill("x".repeat(501));
    await d.page.getByRole("button", { name: "Create payment" }).click();
    await d.page.getByRole("alert").first().waitFor();
    await keepScreenshot(d.page, "new-payment-errors");
    expect(await d.page.locator("#amount-error").textContent()).toBe(
      "Enter an amount such as 1,250.50, with at most 2 decimals for TRY.",
    );
    expect(await d.page.locator("#method-error").textContent()).toContain(
      "accepts only bank transfer, card, virtual account and EFT",
    );
    expect(await d.page.locator("#description-error").textContent()).toBe("At most 500 characters.");
    expect(await d.page.getByLabel(/^Amount/).getAttribute("aria-invalid")).toBe("true");

    // The error summary names each box and links to it.
    const summary = d.page.locator(".error-summary");
    expect(await summary.getByRole("heading").textContent()).toBe("3 boxes need attention");
    await summary.getByRole("link", { name: /^Amount:/ }).click();
    expect(await d.page.evaluate("document.activeElement.name")).toBe("amount");

    // Every problem at once: a schema's and a business rule's (paying an account itself), in the
    // form's own words, with what was typed kept.
    await d.page.getByLabel(/^Amount/).fill("1.0055");
    await d.page.getByLabel("Method").selectOption("eft");
    await d.page.getByLabel(/Description/).fill("Kira — Şubat");
    await d.page.getByLabel("To account").selectOption({ index: 0 });
    await d.page.getByRole("button", { name: "Create payment" }).click();
    expect(await d.page.locator("#to_account-error").textContent()).toBe(
      "Choose a To account other than the From account.",
    );
    expect(await d.page.locator("#amount-error").textContent()).toContain("at most 2 decimals");
    expect(await summary.getByRole("heading").textContent()).toBe("2 boxes need attention");
    expect(await d.page.getByLabel(/Description/).inputValue()).toBe("Kira — Şubat");
    // A currency the From account does not hold is said of the Currency box, naming the account.
    await d.page.getByLabel(/^Amount/).fill("1.00");
    await d.page.locator('select[name="from_account"]').selectOption({ index: 2 });
    await d.page.locator('select[name="to_account"]').selectOption({ index: 3 });
    await d.page.locator('select[name="currency"]').selectOption("TRY");
    await d.page.getByRole("button", { name: "Create payment" }).click();
    expect(await d.page.locator("#currency-error").textContent()).toBe(
      "The From account (Ayşe Yılmaz USD) holds USD: choose USD, or a From account in TRY.",
    );

    const listing = await d.h.call("GET", "/v1/payments", { key: KEY });
    expect(listing.body.pagination.total).toBe(0);
  });

  it("forces a status, advances the clock and resets the workspace from the page", async () => {
    const made = await d.create(KEY);
    await d.signIn();
    await d.page.goto(`${d.url}/payments/${made.id}`);
    // Force status starts on the current status, and asks before it moves anything.
    expect(await d.page.getByLabel(/Force status/).inputValue()).toBe("pending");
    await d.page.getByLabel(/Force status/).selectOption("settled");
    await d.page.getByRole("button", { name: "Force" }).click();
    await d.page.getByRole("heading", { name: "Force this status?" }).waitFor();
    expect(await apiStatus(made.id)).toBe("pending");
    await d.page.getByRole("button", { name: "Yes, force settled" }).click();
    expect(await statusOnPage()).toBe("settled");
    expect(await apiStatus(made.id)).toBe("settled");
    expect((await history()).at(-1)).toBe("settled Control API");

    await d.page.getByRole("link", { name: "Settings", exact: true }).click();
    const clock = async () => Date.parse((await d.page.locator("#sandbox-clock").getAttribute("datetime")) as string);
    const clockBefore = await clock();
    await d.page.getByLabel("Amount").fill("1");
    await d.page.getByLabel("Unit").selectOption("days");
    await d.page.getByRole("button", { name: "Advance the clock" }).click();
    const clockAfter = await clock();
    expect(clockAfter - clockBefore).toBeGreaterThanOrEqual(86_400_000);
    expect(clockAfter - clockBefore).toBeLessThan(86_400_000 + 60_000);

    // To the next settlement cut-off: the next 00:00 in Istanbul (21:00 UTC).
    await d.page.getByRole("button", { name: /Advance to the next settlement cut-off/ }).click();
    const atCutOff = await clock();
    expect(new Date(atCutOff).getUTCHours()).toBe(21);
    expect(new Date(atCutOff).getUTCMinutes()).toBe(0);
    expect(atCutOff - clockAfter).toBeLessThanOrEqual(86_400_000);

    await d.page.getByLabel("Amount").fill("999999999999");
    await d.page.getByLabel("Unit").selectOption("seconds");
    await d.page.getByRole("button", { name: "Advance the clock" }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain("at most 315360000 s");

    await d.page.goto(`${d.url}/settings`);
    // Not confirmed: the browser asks for the box; a form sent without it anyway is refused by the server.
    await d.page.locator('input[name="confirm"]').evaluate((box) => box.removeAttribute("required"));
    await d.page.getByRole("button", { name: "Reset this workspace" }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain("Nothing was reset: tick the box");
    expect((await d.h.call("GET", `/v1/payments/${made.id}`, { key: KEY })).status).toBe(200);
    await d.page.goto(`${d.url}/settings`);
    await d.page.getByLabel(/Yes, delete this workspace/).check();
    await d.page.getByRole("button", { name: "Reset this workspace" }).click();
    // A reset ends every session of the workspace: the page says so and asks to sign in again.
    expect(await d.page.getByRole("status").textContent()).toContain("The workspace was reset");
    await d.signIn();
    expect(await d.page.locator("#payment-count").textContent()).toBe("0 payments.");
    expect(await d.page.getByRole("cell", { name: /No payments yet/ }).count()).toBe(1);
    expect((await d.h.call("GET", `/v1/payments/${made.id}`, { key: KEY })).status).toBe(404);
  });

  for (const [width, language] of [
    [1366, "en"],
    [390, "tr"],
  ] as const)
    it(`rejects several waiting payments at once after asking, at ${width} px in ${language}`, async () => {
      const words = {
        en: {
          select: "Select",
          reject: "Reject the selected payments",
          yes: "Yes, reject",
          done: "Rejected 2 payments",
        },
        tr: { select: "Seç:", reject: "Seçilen ödemeleri reddet", yes: "Evet, reddet", done: "2 ödeme reddedildi" },
      }[language];
      await d.page.setViewportSize({ width, height: 900 });
      await d.signIn();
      if (language === "tr") await d.context.setExtraHTTPHeaders({ "accept-language": "tr-TR,tr;q=0.9" });
      expect(
        (await d.h.call("PUT", "/_sandbox/settings/approval-workflow", { key: KEY, json: { enabled: true } })).status,
      ).toBe(200);
      const [from, to] = (await d.h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
      const ids: string[] = [];
      for (const amount of [1_000, 2_000, 3_000]) {
        const made = await d.h.control("/payments", {
          amount,
          currency: "TRY",
          method: "eft",
          from_account: from,
          to_account: to,
        });
        ids.push(made.body.id);
      }
      const [a, b, c] = ids as [string, string, string];
      await d.page.goto(`${d.url}/approvals`);
      await d.page.getByRole("checkbox", { name: `${words.select} ${a}` }).check();
      await d.page.getByRole("checkbox", { name: `${words.select} ${c}` }).check();
      await keepScreenshot(d.page, `approvals-ticked-${language}-${width}`);
      await d.page.getByRole("button", { name: words.reject }).click();
      await keepScreenshot(d.page, `approvals-reject-question-${language}-${width}`);
      // The question names the count and the sum; nothing is rejected until it is answered.
      const question = await d.page.locator("#confirm-question").textContent();
      expect(question).toContain(language === "tr" ? "2 ödeme (toplam 40,00" : "2 payments (40.00");
      expect([await apiStatus(a), await apiStatus(c)]).toEqual(["pending", "pending"]);
      await d.page.getByRole("button", { name: words.yes }).click();
      expect(await d.page.getByRole("status").textContent()).toContain(words.done);
      expect([await apiStatus(a), await apiStatus(b), await apiStatus(c)]).toEqual([
        "cancelled",
        "pending",
        "cancelled",
      ]);
      // The one left still waits in the queue, and only it.
      const rows = d.page.getByRole("table").first().locator("tbody tr");
      expect(await rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain(b);
    });
});
