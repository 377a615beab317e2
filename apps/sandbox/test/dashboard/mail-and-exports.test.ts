import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepScreenshot, useDashboard } from "../support/dashboard-browser.js";
import { KEY } from "../support/harness.js";
import { type SmtpCatcher, startSmtpCatcher } from "../support/smtp-catcher.js";

let smtp: SmtpCatcher;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
});
afterAll(() => smtp.close());
// Exports over 50 rows are queued, so a test needs only a few batches.
const d = useDashboard(1_000_000, () => ({ smtpUrl: smtp.url, exportQueueRows: 50, smtpRetryMs: 50 }));

async function makePayments(count: number) {
  const [from, to] = (await d.h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
  const payments = Array.from({ length: count }, (_, i) => ({
    amount: 100 + i,
    currency: "TRY",
    method: "eft",
    from_account: from,
    to_account: to,
    reference: `FTR-ŞĞİ-${i}`,
  }));
  expect((await d.h.call("POST", "/v1/payments/batch", { key: KEY, json: { payments } })).body.created).toBe(count);
}

describe("e-mail and queued exports in the dashboard, in a real browser", () => {
  it("sets report recipients, refusing a bad address, and sends a test e-mail shown in the Outbox", async () => {
    // Asked for while signed out: sign-in comes back to it. A next page outside the dashboard is ignored.
    await d.page.goto(`${d.url}?next=${encodeURIComponent("https://example.com/")}`);
    expect(await d.page.locator('input[name="next"]').count()).toBe(0);
    await d.page.goto(`${d.url}/settings/reports`);
    await d.page.getByLabel(/Workspace API key/).fill(KEY);
    await d.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await d.page.getByRole("heading", { name: "Reports" }).waitFor();
    expect(new URL(d.page.url()).pathname).toBe("/_sandbox/dashboard/settings/reports");
    // Without recipients, the test e-mail points at this page's own box, not at an API path.
    await d.page.getByRole("button", { name: "Send a test e-mail" }).click();
    const refusal = (await d.page.getByRole("alert").textContent()) as string;
    expect(refusal).toContain("add an address to Report recipients above");
    expect(refusal).not.toContain("/_sandbox");
    await d.page.getByLabel(/Report recipients/).fill("muhasebe@example.com\nnot-an-address");
    await d.page.getByRole("button", { name: "Save recipients" }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain("Recipient 2 is not an e-mail address");
    // What was typed stays, to be corrected.
    expect(await d.page.getByLabel(/Report recipients/).inputValue()).toContain("not-an-address");
    await d.page.getByLabel(/Report recipients/).fill("muhasebe@example.com\nfinans@example.com");
    await d.page.getByRole("button", { name: "Save recipients" }).click();
    expect(await d.page.getByRole("status").textContent()).toContain("Recipients saved");
    const before = smtp.received.length;
    await d.page.getByRole("button", { name: "Send a test e-mail" }).click();
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.to).toMatchObject({ text: "muhasebe@example.com, finans@example.com" });
    await d.page.getByRole("link", { name: "Outbox" }).first().click();
    await d.page.getByRole("link", { name: "payspec sandbox: test e-mail — ş ğ ı İ" }).click();
    expect(await d.page.locator("#message-text").textContent()).toContain("Kaya Tekstil A.Ş.");
    await keepScreenshot(d.page, "outbox-message");
  });

  it("queues a large CSV export, lists it on Exports, and e-mails a link that downloads it without a session", async () => {
    await d.h.call("PUT", "/_sandbox/settings/report-recipients", {
      key: KEY,
      json: { recipients: ["finans@example.com"] },
    });
    await makePayments(120);
    await d.signIn();
    const before = smtp.received.length;
    await d.page.getByRole("link", { name: "CSV", exact: true }).click();
    await d.page.waitForURL(/\/exports\?queued=/);
    expect(await d.page.getByRole("status").textContent()).toContain("120 payments, more than 50: it was queued");
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.subject).toBe("Your export of 120 payments is ready");
    await d.page.getByRole("link", { name: "Refresh" }).click();
    expect(await d.page.getByRole("table", { name: "Exports" }).textContent()).toContain("ready");
    await keepScreenshot(d.page, "exports");
    // The e-mail's link in a browser that was never signed in.
    const link = /http:\/\/127\.0\.0\.1:\d+\/\S+/.exec(mail?.text ?? "")?.[0] as string;
    const stranger = await d.page.context().browser()?.newContext();
    const answer = await stranger?.request.get(link);
    expect(answer?.status()).toBe(200);
    const records = parse((await answer?.body())?.toString("utf8") ?? "", { columns: true, bom: true });
    expect(records).toHaveLength(120);
    expect((records as Record<string, string>[])[0]?.reference).toBe("FTR-ŞĞİ-0");
    await stranger?.close();
  });

  it("creates a weekly schedule, sees its deliveries after the clock passes two due times, pauses and deletes it", async () => {
    await d.signIn();
    await d.page.getByRole("link", { name: "Schedules" }).click();
    await d.page.getByLabel("Name").fill("Haftalık rapor — İzmir şubesi");
    await d.page.getByLabel("Every").selectOption("week");
    await d.page.getByLabel("Day of the week").selectOption({ label: "Friday" });
    await d.page.getByLabel(/^Time/).fill("18:00");
    await d.page.getByLabel(/^Recipients/).fill("not-an-address");
    await d.page.getByRole("button", { name: "Create schedule" }).click();
    expect(await d.page.getByRole("alert").textContent()).toContain("Recipient 1 is not an e-mail address");
    await d.page.getByLabel(/^Recipients/).fill("sube@example.com");
    await d.page.getByRole("button", { name: "Create schedule" }).click();
    expect(await d.page.getByRole("status").textContent()).toContain("created");
    expect(await d.page.getByRole("table", { name: "Schedules" }).textContent()).toContain("Fridays at 18:00");
    const before = smtp.received.length;
    await d.h.control("/clock/advance", { seconds: 14 * 86_400 }, KEY);
    const mails = (await smtp.waitFor(before + 2)).slice(before);
    expect(mails.map((m) => m.subject?.split(":")[0])).toEqual([
      "Haftalık rapor — İzmir şubesi",
      "Haftalık rapor — İzmir şubesi",
    ]);
    await d.page.getByRole("link", { name: "Haftalık rapor — İzmir şubesi" }).click();
    const deliveries = d.page.getByRole("table", { name: "Deliveries" });
    expect(await deliveries.locator("tbody tr").count()).toBe(2);
    await keepScreenshot(d.page, "schedule");
    await d.page.getByRole("button", { name: "Pause" }).click();
    expect(await d.page.getByRole("status").textContent()).toContain("Paused.");
    await d.page.getByRole("button", { name: "Delete Haftalık rapor — İzmir şubesi" }).click();
    await d.page.getByRole("heading", { name: "Delete this schedule?" }).waitFor();
    await d.page.getByRole("button", { name: 'Yes, delete "Haftalık rapor — İzmir şubesi"' }).click();
    expect(await d.page.getByRole("status").textContent()).toContain("Schedule deleted.");
    // The table says it is empty rather than showing nothing.
    expect(await d.page.getByRole("table", { name: "Schedules" }).textContent()).toContain("No schedules yet");
    expect(await d.page.getByRole("table", { name: "Schedules" }).textContent()).not.toContain("Haftalık rapor");
  });
});
