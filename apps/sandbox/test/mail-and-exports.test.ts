import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./support/eventually.js";
import { type Harness, harness, KEY, OTHER_KEY } from "./support/harness.js";
import { type SmtpCatcher, startSmtpCatcher } from "./support/smtp-catcher.js";

/**
 * E-mail and queued exports over HTTP, on memory and PostgreSQL: every e-mail caught in the outbox
 * and delivered to a real SMTP server on 127.0.0.1; exports written in the background from one
 * snapshot and sent as a signed link that works without a session, for that file only, until it expires.
 */
let smtp: SmtpCatcher;
let h: Harness;

beforeAll(async () => {
  smtp = await startSmtpCatcher({ refuseFirst: 1 });
  h = await harness({ smtpUrl: smtp.url, smtpRetryMs: 50, completeAfterSeconds: 1_000_000 });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

const putRecipients = (json: unknown, key = KEY) =>
  h.call("PUT", "/_sandbox/settings/report-recipients", { key, json });

async function makePayments(count: number, key = KEY) {
  const [from, to] = (await h.accounts(key)).filter((a) => a.currency === "TRY").map((a) => a.id);
  for (let made = 0; made < count; made += 500) {
    const payments = Array.from({ length: Math.min(500, count - made) }, (_, i) => ({
      amount: 100 + made + i,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
      reference: `FTR-ŞĞİ-${made + i}`,
      description: "Kasım ödemesi ışığında",
    }));
    expect((await h.call("POST", "/v1/payments/batch", { key, json: { payments } })).body.created).toBe(
      payments.length,
    );
  }
}

describe("report recipients", () => {
  it("keeps valid addresses, and names the position of a bad one without quoting it", async () => {
    const bad = await putRecipients({ recipients: ["ops@example.com", "not an address\r\nBcc: x@y.z"] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("Recipient 2 is not an e-mail address");
    expect(bad.body.message).not.toContain("Bcc");
    const many = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`);
    expect((await putRecipients({ recipients: many })).status).toBe(400);
    const saved = await putRecipients({ recipients: [" ops@example.com", "OPS@example.com", "fin@example.com"] });
    expect(saved.body.recipients).toEqual(["ops@example.com", "fin@example.com"]);
    expect((await h.call("GET", "/_sandbox/settings/report-recipients", { key: KEY })).body.recipients).toEqual([
      "ops@example.com",
      "fin@example.com",
    ]);
    // Another workspace has its own (none).
    expect((await h.call("GET", "/_sandbox/settings/report-recipients", { key: OTHER_KEY })).body.recipients).toEqual(
      [],
    );
  });
});

describe("the outbox and SMTP delivery", () => {
  it("delivers a test e-mail over SMTP with Turkish text exact, after a refused first attempt, and shows it sent", async () => {
    await putRecipients({ recipients: ["ops@example.com"] });
    const before = smtp.received.length;
    const sent = await h.control("/outbox/test", undefined, KEY);
    expect(sent.status).toBe(201);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.subject).toBe("payspec sandbox: test e-mail — ş ğ ı İ");
    expect(mail?.to).toMatchObject({ text: "ops@example.com" });
    expect(mail?.text).toContain("Ayşe Yılmaz");
    expect(mail?.messageId).toBe(`<${sent.body.id}@payspec.sandbox>`);
    // The server refused the first attempt (451): the outbox says it was retried, and it arrived once.
    const shown = await eventually(async () => {
      const message = (await h.call("GET", `/_sandbox/outbox/${sent.body.id}`, { key: KEY })).body;
      return message.delivery.state === "sent" ? message : undefined;
    }, "delivery");
    expect(shown.delivery.attempts).toBe(2);
    expect(smtp.received.filter((m) => m.messageId === mail?.messageId)).toHaveLength(1);
    // Another workspace's outbox does not show it.
    expect((await h.call("GET", `/_sandbox/outbox/${sent.body.id}`, { key: OTHER_KEY })).status).toBe(404);
  });

  it("refuses a test e-mail while nobody receives reports", async () => {
    const refused = await h.control("/outbox/test", undefined, OTHER_KEY);
    expect([refused.status, refused.body.code]).toEqual([409, "invalid_request"]);
  });
});

describe("queued exports", () => {
  it("writes the listing as of the request, e-mails a signed link that downloads it without a session", async () => {
    await h.control("/reset", {}, KEY);
    await putRecipients({ recipients: ["fin@example.com"] });
    await makePayments(1_200);
    const before = smtp.received.length;
    const queued = await h.control("/exports", { format: "csv", method: "eft" }, KEY);
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ state: "queued", total: 1_200, format: "csv", filters: { method: "eft" } });
    // Made after the request: not in the file, whenever it is written.
    await makePayments(10);
    const ready = await eventually(async () => {
      const job = (await h.call("GET", `/_sandbox/exports/${queued.body.id}`, { key: KEY })).body;
      return job.state === "ready" ? job : undefined;
    }, "the export");
    expect(ready.rows_written).toBe(1_200);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.subject).toBe("Your export of 1,200 payments is ready");
    const link = /http:\/\/127\.0\.0\.1:\d+\/\S+/.exec(mail?.text ?? "")?.[0] as string;
    expect(link).toBe(ready.download_url);
    expect(mail?.html).toContain(`href="${link.replaceAll("&", "&amp;")}"`);
    // No session, no key: the link alone.
    const file = await fetch(link);
    expect([file.status, file.headers.get("content-type")]).toEqual([200, "text/csv; charset=utf-8"]);
    const csv = Buffer.from(await file.arrayBuffer()).toString("utf8");
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const records = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
    expect(records).toHaveLength(1_200);
    expect(records[0]?.reference).toBe("FTR-ŞĞİ-0");
    expect(records[0]?.description).toBe("Kasım ödemesi ışığında");
    // The outbox keeps the same e-mail with the link.
    const outbox = (await h.call("GET", "/_sandbox/outbox", { key: KEY })).body.data;
    expect(outbox[0]).toMatchObject({ subject: mail?.subject, links: [link] });
  });

  it("refuses a link with a changed signature, expiry or job, and one past its expiry on the sandbox clock", async () => {
    await h.control("/reset", {}, KEY);
    await makePayments(20);
    const queued = await h.control("/exports", { format: "pdf" }, KEY);
    const ready = await eventually(async () => {
      const job = (await h.call("GET", `/_sandbox/exports/${queued.body.id}`, { key: KEY })).body;
      return job.state === "ready" ? job : undefined;
    }, "the export");
    const link = new URL(ready.download_url);
    const pdf = await fetch(link);
    expect([pdf.status, pdf.headers.get("content-type")]).toEqual([200, "application/pdf"]);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const changed = (name: string, value: string) => {
      const url = new URL(link);
      url.searchParams.set(name, value);
      return url;
    };
    expect((await fetch(changed("signature", "x".repeat(43)))).status).toBe(404);
    expect(
      (await fetch(changed("expires", String(Number(link.searchParams.get("expires")) + 86_400_000)))).status,
    ).toBe(404);
    expect((await fetch(new URL(link.href.replace(ready.id, "exp_00000000000000000000")))).status).toBe(404);
    // No recipients: the job is ready all the same, and no e-mail went out for it.
    expect((await h.call("GET", "/_sandbox/outbox", { key: KEY })).body.data).toEqual([]);
    await h.control("/clock/advance", { seconds: 24 * 3600 + 1 }, KEY);
    const gone = await fetch(link);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain("This link has expired");
    expect((await h.call("GET", `/_sandbox/exports/${ready.id}`, { key: KEY })).body.state).toBe("expired");
  });

  it("refuses an export request with unknown fields or a bad filter, in the API's error shape", async () => {
    const bad = await h.control("/exports", { format: "xlsx" }, KEY);
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_request"]);
    const unknown = await h.control("/exports", { format: "csv", colour: "red" }, KEY);
    expect(unknown.status).toBe(400);
  });
});
