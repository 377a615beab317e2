import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cardPayment, type Harness, harness } from "../../../../test/support/harness.js";
import { freshDatabase, TEST_SECRET } from "../../../../test/support/test-stores.js";
import { TEST_CARDS } from "../../../index.js";

/** A CVC no other stored value contains as a whole quoted value or column: what the scan looks for. */
const CVC = "947";

let h: Harness;
let db: pg.Pool;

beforeAll(async () => {
  const databaseUrl = await freshDatabase();
  h = await harness({ databaseUrl, secret: TEST_SECRET });
  db = new pg.Pool({ connectionString: databaseUrl });
});
afterAll(async () => {
  await h.close();
  await db.end();
});

/** Every row of every table of the sandbox's schema, as text. */
async function everyRow(): Promise<{ table: string; text: string }[]> {
  const tables = await db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
  const rows: { table: string; text: string }[] = [];
  for (const { tablename } of tables.rows) {
    const result = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${tablename}" t`);
    rows.push(...result.rows.map((r) => ({ table: tablename, text: r.row })));
  }
  return rows;
}

it("stores no full card number and no CVC, in any table, after a run of card payments", async () => {
  const token = await h.login();
  const cards = Object.keys(TEST_CARDS);
  const answers = [];
  for (const cardNumber of cards) {
    const request = cardPayment({}, { cardNumber, cvc: CVC });
    answers.push(await h.call("POST", "/api/v1/payments/card", { token, json: request }));
    // A retry, and a different request on the same reference: both read what was stored.
    answers.push(await h.call("POST", "/api/v1/payments/card", { token, json: request }));
    answers.push(
      await h.call("POST", "/api/v1/payments/card", { token, json: { ...request, amount: 1, finalAmount: 1 } }),
    );
  }
  // Refused requests too: a bad expiry, a bad CVC length, a card number that fails Luhn.
  answers.push(
    await h.call("POST", "/api/v1/payments/card", { token, json: cardPayment({}, { cvc: CVC, expireMonth: "13" }) }),
  );
  answers.push(await h.call("POST", "/api/v1/payments/card", { token, json: cardPayment({}, { cvc: "94" }) }));
  answers.push(
    await h.call("POST", "/api/v1/payments/card", { token, json: cardPayment({}, { cardNumber: "5528790000000009" }) }),
  );
  expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(8);
  expect(answers.filter((a) => a.status >= 400).length).toBeGreaterThanOrEqual(5);

  const rows = await everyRow();
  const stored = await db.query("SELECT count(*)::int AS n FROM card_payments");
  expect(stored.rows[0].n).toBeGreaterThanOrEqual(4);
  const masked = await db.query<{ number: string }>(
    "SELECT payment->'cardDetails'->>'cardNumber' AS number FROM card_payments",
  );
  for (const { number } of masked.rows) expect(number).toMatch(/^\d{6}\*+\d{4}$/);
  for (const { table, text } of rows) {
    for (const cardNumber of [...cards, "5528790000000009"]) {
      expect(text.includes(cardNumber), `${table} holds a full card number`).toBe(false);
    }
    expect(/cvc|cvv/i.test(text), `${table} holds a CVC field`).toBe(false);
    expect(new RegExp(`["':]${CVC}["',}]`).test(text), `${table} holds the CVC`).toBe(false);
  }
  const columns = await db.query(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
  );
  for (const { column_name } of columns.rows) expect(column_name).not.toMatch(/card_?number|pan|cvc|cvv/i);
});
