import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Harness, harness, KEY } from "../../../test/support/harness.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../../test/support/smtp-catcher.js";
import { workspaceTag } from "../../index.js";
import { CATCH_UP_LIMIT } from "../report-schedules.js";

/**
 * Scheduled report delivery over HTTP, on memory and PostgreSQL: at each due time on the workspace's
 * clock, the period's payments e-mailed to a real SMTP server, attached when small and linked when
 * large; each due time once; a bounded catch-up; paused schedules silent.
 */
const NAME = "Günlük ödeme raporu — Şişli";
let smtp: SmtpCatcher;
let h: Harness;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  // Reports of more than 5 payments are linked, so a test needs only a few.
  h = await harness({ smtpUrl: smtp.url, smtpRetryMs: 50, exportQueueRows: 5, completeAfterSeconds: 30 });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});
afterEach(async () => {
  expect(h.problems.splice(0)).toEqual([]);
  await h.control("/reset", {}, KEY);
});

const schedule = (json: Record<string, unknown>) => h.call("POST", "/_sandbox/schedules", { key: KEY, json });
const advance = (seconds: number) => h.control("/clock/advance", { seconds }, KEY);

async function deliveries(id: string, count: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = (await h.call("GET", `/_sandbox/schedules/${id}`, { key: KEY })).body.deliveries;
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`${found.length} of ${count} deliveries within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function makePayments(count: number, reference: string) {
  const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
  const payments = Array.from({ length: count }, (_, i) => ({
    amount: 1_000 + i,
    currency: "TRY",
    method: "eft",
    from_account: from,
    to_account: to,
    reference: `${reference}-${i}`,
  }));
  expect((await h.call("POST", "/v1/payments/batch", { key: KEY, json: { payments } })).body.created).toBe(count);
}

const mailsFor = (subjectStart: string) => smtp.received.filter((m) => m.subject?.startsWith(subjectStart));

async function arrived(subjectStart: string, count: number) {
  const deadline = Date.now() + 20_000;
  while (mailsFor(subjectStart).length < count) {
    if (Date.now() > deadline) throw new Error(`${mailsFor(subjectStart).length} of ${count} e-mails arrived`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return mailsFor(subjectStart);
}

describe("report schedules", () => {
  it("refuses a schedule with a bad field, naming it", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: " ", format: "csv", every: "day", time: "09:00", recipients: ["a@example.com"] }, "name"],
      [{ name: "a\u0007b", format: "csv", every: "day", time: "09:00", recipients: ["a@example.com"] }, "name"],
      [{ name: "x", format: "csv", every: "day", time: "9am", recipients: ["a@example.com"] }, "time"],
      [{ name: "x", format: "csv", every: "week", time: "09:00", recipients: ["a@example.com"] }, "weekday"],
      [{ name: "x", format: "csv", every: "day", time: "09:00", recipients: ["nope"] }, "Recipient 1"],
      [{ name: "x", format: "csv", every: "day", time: "09:00" }, "recipients"],
      [{ name: "x", format: "xml", every: "day", time: "09:00", recipients: ["a@example.com"] }, "format"],
    ];
    for (const [json, named] of cases) {
      const refused = await schedule(json);
      expect([refused.status, refused.body.code]).toEqual([400, "invalid_request"]);
      expect(refused.body.message).toContain(named);
    }
  });

  it("names every broken rule at once, each under its field, so a form can show them all", async () => {
    const refused = await schedule({ name: "x", format: "csv", every: "week", time: "09:00", account: "acc_none" });
    expect(refused.status).toBe(400);
    expect(refused.body.param).toBe("weekday");
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(["weekday", "recipients", "account"]);
  });

  it("names the schema's problems and the rules' at once: a blank name does not hide a bad recipient", async () => {
    const refused = await schedule({ name: " ", format: "csv", every: "day", time: "9am", recipients: ["nope"] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(["name", "time", "recipients"]);
    expect(refused.body.message).toContain("Recipient 1");
    // A malformed account is the schema's to name, and is never looked up.
    const bad = await schedule({ name: "x", format: "csv", every: "day", time: "09:00", account: "acc\u0000x" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.filter((e: { field: string }) => e.field === "account")).toHaveLength(1);
  });

  it("e-mails the day's payments at each due time, once each, attached, Turkish exact", async () => {
    await makePayments(3, "FTR-ŞĞİ");
    const made = await schedule({
      name: NAME,
      format: "csv",
      every: "day",
      time: "09:00",
      recipients: ["ops@example.com"],
    });
    expect(made.status).toBe(201);
    const before = mailsFor(NAME).length;
    // Past the first due time: today's payments, in one e-mail.
    await advance((Date.parse(made.body.next_due_at) - Date.parse((await advance(0.001)).body.now)) / 1000 + 1);
    const [first] = await deliveries(made.body.id, 1);
    expect(first).toMatchObject({ outcome: "attached", rows: 3 });
    const mail = (await arrived(NAME, before + 1)).at(-1);
    expect(mail?.subject?.startsWith(`${NAME}: payments `)).toBe(true);
    // Named as a download of the same listing is: whose, which filters, which day.
    expect(mail?.attachments[0]?.filename).toMatch(
      new RegExp(`^payments-${workspaceTag(KEY)}-\\d{4}-\\d\\d-\\d\\d\\.csv$`),
    );
    const csv = mail?.attachments[0]?.content.toString("utf8") ?? "";
    const records = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
    expect(records.map((r) => r.reference)).toEqual(["FTR-ŞĞİ-0", "FTR-ŞĞİ-1", "FTR-ŞĞİ-2"]);
    // Three more days: three more reports (no payments in them), each once.
    await advance(3 * 86_400);
    const all = await deliveries(made.body.id, 4);
    expect(all.map((d: { rows: number }) => d.rows)).toEqual([0, 0, 0, 3]);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await h.call("GET", `/_sandbox/schedules/${made.body.id}`, { key: KEY })).body.deliveries).toHaveLength(4);
    const outbox = (await h.call("GET", "/_sandbox/outbox", { key: KEY })).body.data;
    expect(outbox.filter((m: { subject: string }) => m.subject.startsWith(NAME))).toHaveLength(4);
    expect(await arrived(NAME, before + 4)).toHaveLength(before + 4);
  });

  it("follows the workspace's report recipients when it has none of its own, and links to itself", async () => {
    const recipients = (list: string[]) =>
      h.call("PUT", "/_sandbox/settings/report-recipients", { key: KEY, json: { recipients: list } });
    const body = { name: "Takip eden rapor", format: "csv", every: "day", time: "08:00" };
    // With no recipients anywhere, nobody would hear of it: refused, naming the field.
    const refused = await schedule(body);
    expect([refused.status, refused.body.param]).toEqual([400, "recipients"]);
    await recipients(["ilk@example.com"]);
    const made = await schedule(body);
    expect(made.status).toBe(201);
    // Its own list stays empty: it follows the workspace's, which changes after it was made.
    expect(made.body.recipients).toEqual([]);
    await recipients(["muhasebe@example.com.tr", "ikinci@example.com"]);
    const before = mailsFor("Takip eden rapor").length;
    await advance((Date.parse(made.body.next_due_at) - Date.parse((await advance(0.001)).body.now)) / 1000 + 1);
    const mail = (await arrived("Takip eden rapor", before + 1)).at(-1);
    const to = JSON.stringify(mail?.to);
    expect(to).toContain("muhasebe@example.com.tr");
    expect(to).toContain("ikinci@example.com");
    expect(to).not.toContain("ilk@example.com");
    expect(mail?.text).toContain(`/_sandbox/dashboard/settings/schedules/${made.body.id}`);
    // The workspace's list emptied: the next due time is recorded as skipped, saying why, and mails nobody.
    await recipients([]);
    await advance(86_400);
    const [latest] = await deliveries(made.body.id, 2);
    expect(latest).toMatchObject({ outcome: "skipped" });
    expect(latest.detail).toContain("Set them under Reports");
  });

  it("refuses an account that is not the workspace's, naming the field", async () => {
    const refused = await schedule({
      name: "Yanlış hesap",
      format: "csv",
      every: "day",
      time: "08:00",
      account: "acc_yok",
      recipients: ["ops@example.com"],
    });
    expect([refused.status, refused.body.param]).toEqual([400, "account"]);
    expect(refused.body.message).toContain("this workspace's accounts");
  });

  it(`sends at most the last ${CATCH_UP_LIMIT} due times after a long jump, and records the skipped ones`, async () => {
    const made = await schedule({
      name: "Catch-up",
      format: "csv",
      every: "day",
      time: "12:00",
      recipients: ["ops@example.com"],
    });
    await advance(40 * 86_400);
    const all = await deliveries(made.body.id, CATCH_UP_LIMIT + 1);
    const skipped = all.filter((d: { outcome: string }) => d.outcome === "skipped");
    expect(skipped).toHaveLength(1);
    expect(skipped[0].detail).toContain(`${40 - CATCH_UP_LIMIT} due times skipped`);
    expect(all.filter((d: { outcome: string }) => d.outcome === "attached")).toHaveLength(CATCH_UP_LIMIT);
  });

  it("links a report too large to attach, and the link downloads it without a session", async () => {
    await makePayments(8, "BIG");
    const made = await schedule({
      name: "Büyük rapor",
      format: "pdf",
      every: "day",
      time: "23:59",
      recipients: ["ops@example.com"],
    });
    await advance(86_400);
    const [delivery] = await deliveries(made.body.id, 1);
    expect(delivery).toMatchObject({ outcome: "linked", rows: 8 });
    const message = (await h.call("GET", `/_sandbox/outbox/${delivery.message_id}`, { key: KEY })).body;
    expect(message.attachments).toEqual([]);
    const pdf = await fetch(message.links[0]);
    expect([pdf.status, pdf.headers.get("content-type")]).toEqual([200, "application/pdf"]);
  });

  it("sends nothing while paused, resumes from the time it is resumed, and stops when deleted", async () => {
    const body = { name: "Paused", format: "csv", every: "day", time: "10:00", recipients: ["ops@example.com"] };
    const made = await schedule(body);
    expect(
      (await h.call("PUT", `/_sandbox/schedules/${made.body.id}`, { key: KEY, json: { ...body, paused: true } })).body
        .paused,
    ).toBe(true);
    await advance(2 * 86_400);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await h.call("GET", `/_sandbox/schedules/${made.body.id}`, { key: KEY })).body.deliveries).toEqual([]);
    const resumed = await h.call("PUT", `/_sandbox/schedules/${made.body.id}`, { key: KEY, json: body });
    const now = Date.parse((await advance(0.001)).body.now);
    expect(Date.parse(resumed.body.next_due_at)).toBeGreaterThan(now - 1_000);
    expect((await h.call("DELETE", `/_sandbox/schedules/${made.body.id}`, { key: KEY })).status).toBe(204);
    expect((await h.call("GET", `/_sandbox/schedules/${made.body.id}`, { key: KEY })).status).toBe(404);
  });
});
