import type pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase } from "../../../../../test/support/test-stores.js";
import { openPool } from "../../../../infrastructure/postgres/pool.js";
import { FOLD_FROM, FOLD_TO, foldForSearch } from "../../../../infrastructure/text/search-fold.js";
import { seedWorkspace } from "../../../creation/seed.js";
import { PostgresPaymentsStore } from "../../../store/postgres/postgres-payments-store.js";

/**
 * The search text PostgreSQL keeps on each payment (migration 0016) is the text foldForSearch makes of
 * its reference and description, letter for letter: the memory store folds in JavaScript, and both
 * stores must find the same payments.
 */
const seed = seedWorkspace("sk_sandbox_search_text");
let pool: pg.Pool;
let store: PostgresPaymentsStore;

beforeAll(async () => {
  pool = await openPool(await freshDatabase(), 2, (key) => key);
  store = new PostgresPaymentsStore(pool);
  await store.reset([seed]);
});
afterAll(async () => {
  await pool?.end();
});

it("folds a payment's reference and description as foldForSearch does, composed or not", async () => {
  const [from, to] = seed.accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  // "Iğdır" with its breve written apart (U+0306): NFC composes it before folding, in both.
  const reference = "FTR-İZMİR-ŞUBAT-IŞIK";
  const description = "Ig\u0306dır ÖDEME Âli Çelik ümit";
  const now = Date.now();
  await store.insert(seed.workspace, {
    id: "pay_searchtext000001",
    amount: 100,
    currency: "TRY",
    method: "eft",
    from_account: from,
    to_account: to,
    reference,
    description,
    createdAt: now,
    countdownFrom: now,
    status: "pending",
    cause: "api",
  });
  const { rows } = await pool.query<{ search_text: string }>("SELECT search_text FROM payments WHERE id = $1", [
    "pay_searchtext000001",
  ]);
  expect(rows[0]?.search_text).toBe(foldForSearch(`${reference}\n${description}`));
  expect(rows[0]?.search_text).toBe("ftr-izmir-şubat-işik\niğdir ödeme âli çelik ümit");

  const snapshot = await store.snapshot(seed.workspace);
  for (const words of ["ığdır", "IĞDIR", "izmir-şubat", "ışık"]) {
    const found = await store.list(seed.workspace, {
      afterSeq: 0,
      snapshotSeq: snapshot.seq,
      asOfVersion: snapshot.version,
      search: foldForSearch(words),
      limit: 20,
      countTotal: true,
    });
    expect({ words, ids: found.items.map((p) => p.id), total: found.total }).toEqual({
      words,
      ids: ["pay_searchtext000001"],
      total: 1,
    });
  }
});

it("keeps the folding table of search-fold.ts in the column's expression", async () => {
  const { rows } = await pool.query<{ expression: string }>(
    `SELECT pg_get_expr(d.adbin, d.adrelid) AS expression FROM pg_attrdef d
     JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
     WHERE d.adrelid = 'payments'::regclass AND a.attname = 'search_text'`,
  );
  expect(rows[0]?.expression).toContain(`'${FOLD_FROM}'`);
  expect(rows[0]?.expression).toContain(`'${FOLD_TO}'`);
});
