import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sandboxCall } from "../../../../test/support/sandbox-call.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../../../test/support/smtp-catcher.js";
import { freshDatabase, TEST_SECRET } from "../../../../test/support/test-stores.js";
import { type RunningSandbox, startSandbox } from "../../../index.js";

/**
 * Two sandbox instances on one PostgreSQL database both look for due schedules every half second:
 * a clock advanced across five due times delivers each once, one e-mail each, however they race.
 */

let db: pg.Pool;
let smtp: SmtpCatcher;
let a: RunningSandbox;
let b: RunningSandbox;

beforeAll(async () => {
  const databaseUrl = await freshDatabase();
  db = new pg.Pool({ connectionString: databaseUrl });
  smtp = await startSmtpCatcher();
  const options = { databaseUrl, secret: TEST_SECRET, smtpUrl: smtp.url, smtpRetryMs: 50 };
  a = await startSandbox(options);
  b = await startSandbox(options);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await smtp.close();
  await db.end();
});

it("delivers each due time once when two instances run the schedules", async () => {
  const made = await sandboxCall(a.url, "POST", "/_sandbox/schedules", {
    name: "İki örnek",
    format: "csv",
    every: "day",
    time: "08:30",
    recipients: ["ops@example.com"],
  });
  expect(made.status).toBe(201);
  await sandboxCall(b.url, "POST", "/_sandbox/clock/advance", { seconds: 5 * 86_400 });
  const deadline = Date.now() + 20_000;
  while (smtp.received.filter((m) => m.subject?.startsWith("İki örnek")).length < 5) {
    if (Date.now() > deadline) throw new Error("five reports did not arrive within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Both instances keep polling: give them time to deliver anything twice, then count.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const mails = smtp.received.filter((m) => m.subject?.startsWith("İki örnek"));
  expect(mails).toHaveLength(5);
  expect(new Set(mails.map((m) => m.subject)).size).toBe(5);
  const rows = await db.query("SELECT count(*) AS n FROM schedule_deliveries");
  const outbox = await db.query("SELECT count(*) AS n FROM outbox");
  expect([Number(rows.rows[0].n), Number(outbox.rows[0].n)]).toEqual([5, 5]);
});
