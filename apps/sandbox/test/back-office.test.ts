import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import iconv from "iconv-lite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { istanbulDate } from "../src/index.js";
import { expectBooksBalanced } from "./support/books.js";
import { pastNextCutoff as moveClockPastNextCutoff, clockNow as readClock } from "./support/clock-moves.js";
import { type Harness, harness, KEY, OTHER_KEY } from "./support/harness.js";

let h: Harness;
let tryA: string;
let tryB: string;
let usdA: string;
let usdB: string;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control("/reset");
  await h.control("/reset", {}, OTHER_KEY);
  const accounts = await h.accounts();
  [tryA, tryB] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  [usdA, usdB] = accounts.filter((a) => a.currency === "USD").map((a) => a.id) as [string, string];
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

// This file's workspace clock moves, with its harness.
const clockNow = (key: string = KEY) => readClock(h, key);
const pastNextCutoff = (seconds = 60, key: string = KEY) => moveClockPastNextCutoff(h, seconds, key);

async function pay(amount: number, extra: Record<string, unknown> = {}, key: string = KEY) {
  const reply = await h.call("POST", "/v1/payments", {
    key,
    json: { amount, currency: "TRY", method: "eft", from_account: tryA, to_account: tryB, ...extra },
  });
  expect(reply.status).toBe(201);
  return reply.body as { id: string; reference?: string };
}

const payment = async (id: string, key: string = KEY) => (await h.call("GET", `/v1/payments/${id}`, { key })).body;

describe("API keys", () => {
  const createKey = (json: unknown, key: string = KEY) =>
    h.call("POST", "/_sandbox/api-keys", { json, headers: bearer(key) });
  const listKeys = async (key: string = KEY) =>
    (await h.call("GET", "/_sandbox/api-keys", { headers: bearer(key) })).body.data as Record<string, unknown>[];

  it("shows a new key once, then only its mask; it opens the same workspace and records its use", async () => {
    const created = await createKey({ name: "CI ödeme anahtarı" });
    expect(created.status).toBe(201);
    const { key, id, masked } = created.body as { key: string; id: string; masked: string };
    expect(key).toMatch(/^sk_sandbox_[A-Za-z0-9_-]{32}$/);
    expect(masked).toBe(`sk_sandbox_…${key.slice(-4)}`);
    expect(created.body).toMatchObject({ name: "CI ödeme anahtarı", status: "active", source: "created" });

    const viaNewKey = await h.call("GET", "/v1/accounts", { key });
    expect(viaNewKey.status).toBe(200);
    expect(viaNewKey.body.map((a: { id: string }) => a.id)).toEqual((await h.accounts()).map((a) => a.id));
    const listed = await listKeys();
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(listed.map((k) => [k.id, k.source, k.status])).toEqual([
      ["configured", "environment", "active"],
      [id, "created", "active"],
    ]);
    expect(listed[1]?.last_used_at).toEqual(expect.any(String));
    // Another workspace neither sees it nor can revoke it.
    expect((await listKeys(OTHER_KEY)).map((k) => k.id)).toEqual(["configured"]);
    expect((await h.call("DELETE", `/_sandbox/api-keys/${id}`, { headers: bearer(OTHER_KEY) })).status).toBe(404);
  });

  it("rotates without a restart: a revoked key is refused at its next request, naming why without the key", async () => {
    const old = (await createKey({ name: "old" })).body as { key: string; id: string };
    const fresh = (await createKey({ name: "new" })).body as { key: string; id: string };
    expect((await h.call("GET", "/v1/accounts", { key: old.key })).status).toBe(200);
    const revoked = await h.call("DELETE", `/_sandbox/api-keys/${old.id}`, { headers: bearer(fresh.key) });
    expect(revoked.body).toMatchObject({ id: old.id, status: "revoked", revoked_at: expect.any(String) });
    for (const [method, path] of [
      ["GET", "/v1/payments"],
      ["POST", "/_sandbox/clock/advance"],
    ] as const) {
      const refused = await h.call(method, path, {
        key: old.key,
        ...(method === "POST" ? { json: { seconds: 1 } } : {}),
      });
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe("unauthorized");
      expect(refused.body.message).toContain("was revoked on");
      expect(refused.bytes.toString()).not.toContain(old.key);
    }
    expect((await h.call("GET", "/v1/payments", { key: fresh.key })).status).toBe(200);
    // Revoking twice keeps the first time; the key in use may revoke itself.
    const again = await h.call("DELETE", `/_sandbox/api-keys/${old.id}`, { headers: bearer(KEY) });
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    expect((await h.call("DELETE", `/_sandbox/api-keys/${fresh.id}`, { headers: bearer(fresh.key) })).status).toBe(200);
    expect((await h.call("GET", "/v1/payments", { key: fresh.key })).status).toBe(401);
  });

  it("expires at the end of its date in Istanbul on the workspace's clock", async () => {
    const today = istanbulDate(await clockNow());
    const made = (await createKey({ name: "today only", expires_on: today })).body as { key: string };
    expect((await h.call("GET", "/v1/accounts", { key: made.key })).status).toBe(200);
    await pastNextCutoff(1);
    const refused = await h.call("GET", "/v1/accounts", { key: made.key });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toContain(`expired on ${today}`);
    expect((await listKeys())[1]?.status).toBe("expired");
    // Another workspace's clock did not move: the expiry is this workspace's.
    expect((await h.call("GET", "/v1/accounts", { key: KEY })).status).toBe(200);
  });

  it("refuses bad names and dates naming the field, the configured key's revocation, and unknown ids", async () => {
    const cases: [unknown, string][] = [
      [{}, "name"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ name: "card 4111 1111 1111 1111" }, "name"],
      [{ name: "ok", expires_on: "2026-02-30" }, "expires_on"],
      [{ name: "ok", expires_on: "01.12.2026" }, "expires_on"],
      [{ name: "ok", expires_on: "2020-01-01" }, "expires_on"],
      [{ name: "ok", key: "sk_sandbox_chosen" }, "key"],
    ];
    for (const [json, param] of cases) {
      const reply = await createKey(json);
      expect([reply.status, reply.body.param], JSON.stringify(json)).toEqual([400, param]);
      expect(reply.bytes.toString()).not.toContain("4111 1111");
    }
    const configured = await h.call("DELETE", "/_sandbox/api-keys/configured", { headers: bearer(KEY) });
    expect([configured.status, configured.body.message]).toEqual([409, expect.stringContaining("PAYSPEC_API_KEYS")]);
    const unknown = await h.call("DELETE", "/_sandbox/api-keys/key_0123456789abcdef", { headers: bearer(KEY) });
    expect([unknown.status, unknown.body.code]).toEqual([404, "not_found"]);
    expect((await listKeys()).length).toBe(1);
  });

  it("goes with a workspace reset; the configured key stays", async () => {
    const made = (await createKey({ name: "temporary" })).body as { key: string };
    await h.control("/reset");
    expect((await h.call("GET", "/v1/accounts", { key: made.key })).status).toBe(401);
    expect((await h.call("GET", "/v1/accounts", { key: KEY })).status).toBe(200);
  });
});

describe("settlement", () => {
  it("settles completed payments at the next 00:00 Istanbul, once, with settled_at and its own history cause", async () => {
    const made = await pay(12_345, { description: "Kira ödemesi — İstanbul şubesi, ığ", reference: "KIRA-2026-11" });
    await h.control("/clock/advance", { seconds: 31 });
    const completed = await payment(made.id);
    expect(completed.status).toBe("completed");
    const cutoff = await pastNextCutoff();
    const settled = await payment(made.id);
    expect(settled).toMatchObject({ status: "settled", settled_at: new Date(cutoff).toISOString() });
    expect(settled.completed_at).toBe(completed.completed_at);
    await pastNextCutoff();
    expect((await payment(made.id)).settled_at).toBe(new Date(cutoff).toISOString());
    const listed = (await h.call("GET", "/v1/payments?status=settled", { key: KEY })).body.data;
    expect(listed.map((p: { id: string }) => p.id)).toEqual([made.id]);
    // One payment answered by the serializer compiled from the spec (GET by id) and by the listing's
    // generic one: every field there, the same values, Turkish text intact.
    expect(Object.keys(settled).sort()).toEqual(
      ["amount", "completed_at", "created_at", "currency", "description", "from_account", "id", "method"]
        .concat(["reference", "settled_at", "status", "to_account"])
        .sort(),
    );
    expect(settled).toEqual(listed[0]);
    expect(settled.description).toBe("Kira ödemesi — İstanbul şubesi, ığ");
    await expectBooksBalanced(h);
  });

  it("leaves completed payments alone with automatic settlement off, and catches up when it is turned on", async () => {
    const off = await h.call("PUT", "/_sandbox/settings/settlement", {
      json: { enabled: false },
      headers: bearer(KEY),
    });
    expect(off.body).toEqual({ enabled: false });
    const made = await pay(500);
    await pastNextCutoff();
    await pastNextCutoff();
    expect((await payment(made.id)).status).toBe("completed");
    await h.call("PUT", "/_sandbox/settings/settlement", { json: { enabled: true }, headers: bearer(KEY) });
    expect((await payment(made.id)).status).toBe("settled");
    const bad = await h.call("PUT", "/_sandbox/settings/settlement", {
      json: { enabled: "yes" },
      headers: bearer(KEY),
    });
    expect([bad.status, bad.body.param]).toEqual([400, "enabled"]);
  });

  it("settles each workspace on its own clock", async () => {
    const mine = await pay(700);
    const [otherA, otherB] = (await h.accounts(OTHER_KEY)).filter((a) => a.currency === "TRY").map((a) => a.id);
    const theirs = await pay(700, { from_account: otherA, to_account: otherB }, OTHER_KEY);
    await h.control("/clock/advance", { seconds: 31 }, OTHER_KEY);
    await pastNextCutoff();
    expect((await payment(mine.id)).status).toBe("settled");
    expect((await payment(theirs.id, OTHER_KEY)).status).toBe("completed");
  });
});

describe("reconciliation", () => {
  const importStatement = (csv: string | Buffer, key: string = KEY) =>
    h.call("POST", "/_sandbox/reconciliations", {
      raw: csv as string,
      headers: { ...bearer(key), "content-type": "text/csv" },
    });
  const header = "reference,amount_minor,currency,value_date";

  /** Payments completed and settled at one cut-off; the date that cut-off falls on in Istanbul. */
  async function settledPayments(specs: { amount: number; reference?: string; currency?: "TRY" | "USD" }[]) {
    const made = [];
    for (const spec of specs) {
      const accounts = spec.currency === "USD" ? { from_account: usdA, to_account: usdB, currency: "USD" } : {};
      made.push(await pay(spec.amount, { ...accounts, ...(spec.reference ? { reference: spec.reference } : {}) }));
    }
    await h.control("/clock/advance", { seconds: 31 });
    const cutoff = await pastNextCutoff();
    return { made, valueDate: istanbulDate(cutoff) };
  }

  it("matches by reference, amount and currency, reports every other case line by line, and lists what no line matched", async () => {
    const { made, valueDate } = await settledPayments([
      { amount: 150_075, reference: "FTR-ŞĞİ-0042" },
      { amount: 2_000, reference: "INV-2" },
      { amount: 3_000, reference: "INV-3" },
      { amount: 4_000, reference: "DUP" },
      { amount: 4_000, reference: "DUP" },
      { amount: 5_000, reference: "INV-5" },
      { amount: 6_000, reference: "INV-USD", currency: "USD" },
    ]);
    const pendingOne = await pay(7_000, { reference: "INV-PENDING" });
    const csv = [
      header,
      `FTR-ŞĞİ-0042,150075,TRY,${valueDate}`,
      `INV-2,2001,TRY,${valueDate}`,
      `INV-USD,6000,TRY,${valueDate}`,
      `NOPE-1,100,TRY,${valueDate}`,
      `INV-PENDING,7000,TRY,${valueDate}`,
      `DUP,4000,TRY,${valueDate}`,
      `INV-3,3000,TRY,${valueDate}`,
      `INV-3,3000,TRY,${valueDate}`,
      "",
    ].join("\n");
    const reply = await importStatement(csv);
    expect(reply.status).toBe(201);
    const run = reply.body;
    expect(reply.headers.get("location")).toBe(`/_sandbox/reconciliations/${run.id}`);
    expect(run.lines.map((l: { line: number; outcome: string }) => [l.line, l.outcome])).toEqual([
      [2, "matched"],
      [3, "amount_differs"],
      [4, "currency_differs"],
      [5, "no_payment"],
      [6, "not_settled"],
      [7, "ambiguous"],
      [8, "matched"],
      [9, "repeated_line"],
    ]);
    expect(run.unmatched.map((p: { payment_id: string }) => p.payment_id).sort()).toEqual(
      [made[1], made[3], made[4], made[5], made[6]].map((p) => p?.id).sort(),
    );
    expect((await payment(made[0]?.id as string)).status).toBe("reconciled");
    expect((await payment(made[2]?.id as string)).status).toBe("reconciled");
    expect((await payment(made[1]?.id as string)).status).toBe("settled");
    expect((await payment(pendingOne.id)).status).toBe("pending");
    const history = await h.call("GET", `/_sandbox/reconciliations/${run.id}`, { headers: bearer(KEY) });
    expect(history.body.counts).toMatchObject({ matched: 2, repeated_line: 1, ambiguous: 1 });

    // The same file again reconciles nothing twice, and says so.
    const again = (await importStatement(csv)).body;
    expect(again.repeat_of).toBe(run.id);
    expect(again.counts.matched).toBe(0);
    expect(again.lines[0].outcome).toBe("already_reconciled");
    const runs = (await h.call("GET", "/_sandbox/reconciliations", { headers: bearer(KEY) })).body.data;
    expect(runs.map((r: { id: string }) => r.id)).toEqual([again.id, run.id]);

    const report = await h.call("GET", `/_sandbox/reconciliations/${run.id}/report.csv`, { headers: bearer(KEY) });
    expect(report.headers.get("content-type")).toContain("text/csv");
    const rows = parse(report.bytes.toString("utf8"), { columns: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({ line: "2", outcome: "matched", reference: "FTR-ŞĞİ-0042", amount_minor: "150075" });
    expect(rows.filter((r) => r.outcome === "unmatched_payment")).toHaveLength(5);
    await expectBooksBalanced(h);
  });

  it("takes the statement file as people send it: any of the file types, any charset, or a multipart upload", async () => {
    const { made, valueDate } = await settledPayments([
      { amount: 1_000, reference: "UP-XML" },
      { amount: 1_001, reference: "UP-TXML" },
      { amount: 1_002, reference: "UP-TXT" },
      { amount: 1_003, reference: "UP-CSV" },
      { amount: 1_004, reference: "UP-BIN" },
      { amount: 1_005, reference: "UP-FORM" },
    ]);
    const statementFor = (i: number) => Buffer.from(`${header}\n${made[i]?.reference},${1_000 + i},TRY,${valueDate}\n`);
    const types = [
      "application/xml",
      "text/xml; charset=utf-8",
      "text/plain",
      "text/csv; charset=windows-1254",
      "application/octet-stream",
    ];
    for (const [i, type] of types.entries()) {
      const reply = await h.call("POST", "/_sandbox/reconciliations", {
        raw: statementFor(i) as unknown as string,
        headers: { ...bearer(KEY), "content-type": type },
      });
      expect([type, reply.status, reply.body.lines?.[0]?.outcome]).toEqual([type, 201, "matched"]);
    }
    // A browser's or curl -F's upload: one file part, whatever the form's other fields.
    const form = new FormData();
    form.append("note", "gün sonu ekstresi");
    form.append("file", new Blob([statementFor(5)], { type: "text/csv" }), "ekstre-ş.csv");
    const uploaded = await fetch(`${h.url}/_sandbox/reconciliations`, {
      method: "POST",
      headers: bearer(KEY),
      body: form,
    });
    const run = (await uploaded.json()) as { lines: { outcome: string; payment_id: string }[] };
    expect([uploaded.status, run.lines[0]?.outcome, run.lines[0]?.payment_id]).toEqual([201, "matched", made[5]?.id]);
    for (const m of made) expect((await payment(m.id)).status).toBe("reconciled");
  });

  it("reconciles an MT940 whose balances do not add up, with a warning in the run; leaves a camt.053 entry not booked", async () => {
    const { made, valueDate } = await settledPayments([
      { amount: 4_250, reference: "BAL-1" },
      { amount: 5_000, reference: "PEND-1" },
    ]);
    const date6 = valueDate.slice(2).replaceAll("-", "");
    const unbalanced = [
      ":20:STMT-9",
      ":25:TR330006100519786457841326",
      ":28C:1/1",
      `:60F:C${date6}TRY100,00`,
      `:61:${date6}D42,50NTRFBAL-1//`,
      ":86:ÖDEME BAL-1",
      `:62F:C${date6}TRY50,00`,
      "-",
    ].join("\r\n");
    const run = await importStatement(Buffer.from(unbalanced));
    expect([run.status, run.body.lines[0]?.outcome]).toEqual([201, "matched"]);
    const warning =
      "Message STMT-9: the opening balance 100.00 TRY plus the movements -42.50 TRY is 57.50 TRY, not the closing balance 50.00 TRY (a difference of -7.50 TRY); its lines were reconciled as the bank wrote them.";
    expect(run.body.warnings).toEqual([warning]);
    const kept = await h.call("GET", `/_sandbox/reconciliations/${run.body.id}`, { headers: bearer(KEY) });
    expect(kept.body.warnings).toEqual([warning]);

    const entry = (status: string, reference: string, amount: string) => `
      <Ntry><Amt Ccy="TRY">${amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>${status}</Sts>
        <BookgDt><Dt>${valueDate}</Dt></BookgDt><ValDt><Dt>${valueDate}</Dt></ValDt>
        <NtryDtls><TxDtls><Refs><EndToEndId>${reference}</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>`;
    const camt = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
  <GrpHdr><MsgId>M-1</MsgId><CreDtTm>${valueDate}T18:00:00</CreDtTm></GrpHdr>
  <Stmt><Id>S-1</Id><CreDtTm>${valueDate}T18:00:00</CreDtTm><Acct><Id><IBAN>TR330006100519786457841326</IBAN></Id></Acct>
    ${entry("PDNG", "PEND-1", "50.00")}
  </Stmt></BkToCstmrStmt></Document>`;
    const pending = await h.call("POST", "/_sandbox/reconciliations", {
      raw: camt,
      headers: { ...bearer(KEY), "content-type": "application/xml" },
    });
    expect(pending.status).toBe(201);
    expect(
      pending.body.lines.map((l: { outcome: string; bank_status?: string }) => [l.outcome, l.bank_status]),
    ).toEqual([["not_booked", "PDNG"]]);
    expect(pending.body.counts.not_booked).toBe(1);
    expect((await payment(made[1]?.id as string)).status).toBe("settled");
    expect((await payment(made[0]?.id as string)).status).toBe("reconciled");
  });

  it("refuses what is not a statement upload in the control API's error shape, naming what it takes", async () => {
    const csv = `${header}\nSECRET-REF-9,100,TRY,2026-11-27\n`;
    const asJson = await h.call("POST", "/_sandbox/reconciliations", {
      raw: csv,
      headers: { ...bearer(KEY), "content-type": "application/json" },
    });
    expect([asJson.status, asJson.body.code, asJson.body.param]).toEqual([415, "invalid_request", "Content-Type"]);
    expect(asJson.body.message).toBe(
      "A statement is not taken as application/json: send the file as the body with Content-Type application/xml, text/xml, text/plain, text/csv, application/octet-stream or multipart/form-data with one file part.",
    );
    const noFile = new FormData();
    noFile.append("note", "SECRET-REF-9");
    const empty = await fetch(`${h.url}/_sandbox/reconciliations`, {
      method: "POST",
      headers: bearer(KEY),
      body: noFile,
    });
    const emptyBody = (await empty.json()) as { message: string; param: string };
    expect([empty.status, emptyBody.param]).toEqual([400, "file"]);
    expect(emptyBody.message).toContain("The form has no file part");
    const two = new FormData();
    two.append("file", new Blob([csv]), "a.csv");
    two.append("file2", new Blob([csv]), "b.csv");
    const twice = await fetch(`${h.url}/_sandbox/reconciliations`, { method: "POST", headers: bearer(KEY), body: two });
    expect([twice.status, ((await twice.json()) as { message: string }).message]).toEqual([
      400,
      "Upload one statement file at a time: the form held more than one.",
    ]);
    const nothing = await h.call("POST", "/_sandbox/reconciliations", { headers: bearer(KEY) });
    expect(nothing.status).toBe(400);
    for (const reply of [asJson, nothing]) expect(JSON.stringify(reply.body)).not.toContain("SECRET-REF-9");
    // The rest of the control API still takes JSON only.
    const other = await h.call("POST", "/_sandbox/clock/advance", {
      raw: "seconds=1",
      headers: { ...bearer(KEY), "content-type": "text/plain" },
    });
    expect(other.status).toBe(400);
  });

  it("reconciles the MT940 and camt.053 other banks write: blank entry dates, a quiet day, an MT942; a camt.053 with no statement refused", async () => {
    const { made, valueDate } = await settledPayments([{ amount: 4_250, reference: "CITI-77" }]);
    const date6 = valueDate.slice(2).replaceAll("-", "");
    // As Citi writes it: the entry date left as four spaces, and USD's funds code after the mark.
    const citiStyle = [
      ":20:CITI-1",
      ":25:123456789",
      ":28:1/1",
      `:60F:C${date6}TRY100,00`,
      `:61:${date6}    DR42,50NMSCNONREF//`,
      "/ABC/DEF/MISCELLANEOUS",
      ":86:PAYMENT CITI-77",
      `:62F:C${date6}TRY57,50`,
      "-",
    ].join("\r\n");
    const fromCiti = await importStatement(Buffer.from(citiStyle));
    expect(fromCiti.status).toBe(201);
    expect(fromCiti.body.lines.map((l: { outcome: string; payment_id?: string }) => [l.outcome, l.payment_id])).toEqual(
      [["matched", made[0]?.id]],
    );
    // Files other projects wrote (test/fixtures/statements): a Turkish TRY account's quiet day, an mBank MT942.
    const fixture = (name: string) => readFileSync(new URL(`./fixtures/statements/${name}`, import.meta.url));
    const quiet = await importStatement(fixture("mt940.no-movement-try.wolph.sta"));
    expect([quiet.status, quiet.body.lines]).toEqual([201, []]);
    const interim = await importStatement(fixture("mt942.mbank.wolph.sta"));
    expect([interim.status, interim.body.lines.map((l: { currency: string }) => l.currency)]).toEqual([
      201,
      ["PLN", "PLN", "PLN"],
    ]);
    // A camt.053 message holding no statement: the API's own error shape, saying what to send.
    const none = await importStatement(fixture("camt053.v2.genkgo-no-statement.xml"));
    expect([none.status, none.body.code, none.body.message]).toEqual([
      400,
      "invalid_request",
      "The camt.053 file holds no statement (BkToCstmrStmt/Stmt); send the file the bank produced for the day.",
    ]);
  });

  it("reconciles the statements banks send: camt.053, MT940 and a Windows-1254 CSV, references found in the narrative", async () => {
    const { made, valueDate } = await settledPayments([
      { amount: 150_075, reference: "INV-2026-0007" },
      { amount: 2_000, reference: "-INV-77" },
      { amount: 3_000, reference: "INV-1" },
      { amount: 4_000, reference: "DUP-9" },
      { amount: 4_000, reference: "DUP-9" },
      { amount: 5_000, reference: "LATE-1" },
    ]);
    const [date6, dmy] = [valueDate.slice(2).replaceAll("-", ""), valueDate.split("-").reverse().join(".")];
    // An internet branch's export: semicolons, 1.500,75, a debit as "-", the bank's capital İ, Windows-1254.
    const csv = iconv.encode(
      `Tarih;Açıklama;Tutar;Bakiye\r\n${dmy};FATURA NO: İNV-2026-0007 ÖDEMESİ;-1.500,75;10.000,00\r\n${dmy};GELEN EFT IŞIK;500,00;10.500,00\r\n`,
      "windows-1254",
    );
    const fromCsv = await importStatement(csv);
    expect(fromCsv.status).toBe(201);
    expect(fromCsv.body.lines.map((l: { outcome: string }) => l.outcome)).toEqual(["matched", "credit_entry"]);
    expect(fromCsv.body.lines[0]).toMatchObject({
      payment_id: made[0]?.id,
      amount_minor: 150_075,
      direction: "debit",
      narrative: "FATURA NO: İNV-2026-0007 ÖDEMESİ",
    });
    // ISO 20022 camt.053 (V02): the EndToEndId names it, even one a spreadsheet would take for a formula.
    const camt = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>TR-1</MsgId><CreDtTm>${valueDate}T18:00:00+03:00</CreDtTm></GrpHdr>
<Stmt><Id>TR-1-1</Id><CreDtTm>${valueDate}T18:00:00+03:00</CreDtTm><Acct><Id><IBAN>TR330006100519786457841326</IBAN></Id></Acct>
<Ntry><Amt Ccy="TRY">20.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${valueDate}</Dt></BookgDt><ValDt><Dt>${valueDate}</Dt></ValDt>
<NtryDtls><TxDtls><Refs><EndToEndId>-INV-77</EndToEndId></Refs><RmtInf><Ustrd>Kaya Tekstil A.Ş. ödemesi</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
<Ntry><Amt Ccy="TRY">30.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>${valueDate}</Dt></BookgDt>
<NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><RmtInf><Strd><CdtrRefInf><Ref> INV-1 </Ref></CdtrRefInf></Strd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
    const fromCamt = await importStatement(Buffer.from(camt));
    expect(fromCamt.body.lines.map((l: { outcome: string }) => l.outcome)).toEqual(["matched", "matched"]);
    // SWIFT MT940: the first payment again (already reconciled: nothing twice, whatever the format) and
    // a reference two payments share (reported, never guessed).
    const mt940 = [
      ":20:STMT-1",
      ":25:TR330006100519786457841326",
      ":28C:1/1",
      `:60F:C${date6}TRY10000,00`,
      `:61:${date6}D1500,75NTRFNONREF`,
      ":86:FATURA NO: INV-2026-0007",
      `:61:${date6}D40,00NTRFNONREF`,
      ":86:ODEME DUP-9",
      // A month after it settled: outside its value-date window, so not this payment's booking.
      `:61:${istanbulDate(Date.parse(`${valueDate}T12:00:00+03:00`) + 30 * 86_400_000)
        .slice(2)
        .replaceAll("-", "")}D50,00NTRFLATE-1`,
      ":86:GEC ODEME",
      `:62F:C${date6}TRY8459,25`,
      "-",
    ].join("\r\n");
    const fromMt940 = await importStatement(Buffer.from(mt940));
    expect(fromMt940.body.lines.map((l: { outcome: string }) => l.outcome)).toEqual([
      "already_reconciled",
      "ambiguous",
      "date_differs",
    ]);
    expect((await payment(made[0]?.id as string)).status).toBe("reconciled");
    expect((await payment(made[1]?.id as string)).status).toBe("reconciled");
    expect((await payment(made[2]?.id as string)).status).toBe("reconciled");
    expect((await payment(made[3]?.id as string)).status).toBe("settled");
    // A day with no movement: accepted, nothing to match.
    const empty = await importStatement(Buffer.from("Tarih;Açıklama;Tutar;Bakiye\r\n"));
    expect([empty.status, empty.body.lines]).toEqual([201, []]);
    await expectBooksBalanced(h);
  });

  it("reads another bank's CSV through a layout the workspace added, refusing a layout that cannot work", async () => {
    const { made, valueDate } = await settledPayments([{ amount: 987_654, reference: "SİP-2026-11" }]);
    const put = (mappings: unknown[]) =>
      h.call("PUT", "/_sandbox/settings/statement-mappings", { headers: bearer(KEY), json: { mappings } });
    const layout = {
      name: "Örnek Bankası",
      date: "Valör",
      date_format: "dd/MM/yyyy",
      narrative: ["İşlem Açıklaması"],
      debit: "Çıkan",
      credit: "Giren",
      currency: "TRY",
      decimal: ",",
      thousands: " ",
    };
    // Neither an amount column nor both debit and credit: refused, naming the field.
    const { debit: _d, ...noMoney } = layout;
    const refused = await put([noMoney]);
    expect([refused.status, refused.body.param]).toEqual([400, "mappings.0.amount"]);
    expect((await put([layout])).status).toBe(200);
    expect(
      (await h.call("GET", "/_sandbox/settings/statement-mappings", { headers: bearer(KEY) })).body.mappings,
    ).toEqual([{ ...layout }]);
    const [y, m, d] = valueDate.split("-");
    // Dates with slashes, a space for thousands, debit and credit columns: the layout says how to read it.
    const file = `Valör;İşlem Açıklaması;Çıkan;Giren\n${d}/${m}/${y};SİPARİŞ SİP-2026-11 ÖDEMESİ;9 876,54;\n`;
    const reply = await importStatement(Buffer.from(file));
    expect(reply.status).toBe(201);
    expect(reply.body.lines[0]).toMatchObject({ outcome: "matched", payment_id: made[0]?.id, amount_minor: 987_654 });
    // A reset of the workspace forgets its layouts.
    await h.control("/reset");
    expect(
      (await h.call("GET", "/_sandbox/settings/statement-mappings", { headers: bearer(KEY) })).body.mappings,
    ).toEqual([]);
  });

  it("refuses a bad file naming the line and what is wrong, and changes nothing", async () => {
    const { made, valueDate } = await settledPayments([{ amount: 1_000, reference: "GOOD-1" }]);
    const good = `GOOD-1,1000,TRY,${valueDate}`;
    const cases: [string | Buffer, RegExp][] = [
      ["ref,amount,currency,date\nGOOD-1,1000,TRY,2026-01-01\n", /Line 1 must be the header/],
      ["ref,amount,currency,date\nGOOD-1,1000,TRY,2026-01-01\n", /Not a statement format this sandbox reads/],
      [`${header}\n${good}\nX-2,12.50,TRY,${valueDate}\n`, /Line 3 \(amount_minor, column 2\): must be a whole number/],
      [`${header}\n${good}\nX-2,-5,TRY,${valueDate}\n`, /Line 3 \(amount_minor, column 2\): a negative amount/],
      [`${header}\n${good}\nX-2,500,TRX,${valueDate}\n`, /Line 3 \(currency, column 3\): not an ISO 4217/],
      [`${header}\n${good}\nX-2,500,TRY,2026-13-01\n`, /Line 3 \(value_date, column 4\): not a calendar date/],
      // A camt.053 amount written the German way: its entry, element path, line and column.
      [
        `<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>\n  <Ntry><Amt Ccy="TRY">1.110,00</Amt><CdtDbtInd>DBIT</CdtDbtInd><ValDt><Dt>${valueDate}</Dt></ValDt></Ntry>\n</Stmt></BkToCstmrStmt></Document>`,
        /^Entry 1 \(amount, Stmt\/Ntry\[1\]\/Amt, line 3, column 9\): not an amount in TRY/,
      ],
      // Not well-formed: the first fault's line and column.
      [
        `<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>\n  <Ntry><Amt Ccy="TRY">11.00</Amnt></Ntry>\n</Stmt></BkToCstmrStmt></Document>`,
        /^The camt\.053 file is not well-formed XML: the first fault is at line 3, column \d+/,
      ],
      // A broken :61: by the column where it stops being a statement line.
      [
        ":20:X\r\n:25:1\r\n:28C:1\r\n:60F:C230101TRY10,00\r\n:61:2301010101X1,00NTRFREF\r\n-\r\n",
        /^Line 5, column 15 \(:61:\): not an MT940 statement line: the debit or credit mark/,
      ],
      // A byte no encoding a Turkish bank uses can hold (0x81 is undefined in Windows-1254).
      [
        Buffer.concat([
          Buffer.from(`${header}\n${good}\nKas`),
          Buffer.from([0x81]),
          Buffer.from(`m,1,TRY,${valueDate}\n`),
        ]),
        /^Line 3, column 4 \(byte \d+\): neither UTF-8 nor Windows-1254/,
      ],
      // Columns count characters, so Turkish letters before the bad byte count once each.
      [
        Buffer.concat([
          Buffer.from(`${header}\n${good}\nŞİ-`),
          Buffer.from([0xc0, 0x80]),
          Buffer.from(`,1,TRY,${valueDate}\n`),
        ]),
        /^Line 3, column 4 \(byte \d+\): not UTF-8/,
      ],
      [`${header}\n${good}\nX-2,500,TRY\n`, /Line 3 has 3 cells/],
    ];
    for (const [file, message] of cases) {
      const reply = await importStatement(file);
      expect([reply.status, reply.body.code], String(message)).toEqual([400, "invalid_request"]);
      expect(reply.body.message).toMatch(message);
      expect(reply.body.message).not.toContain("HYPERLINK");
    }
    const huge = `${header}\n${`${good}\n`.repeat(Math.ceil((10 * 1024 * 1024) / good.length) + 10)}`;
    const tooBig = await importStatement(huge);
    expect([tooBig.status, tooBig.body.message]).toEqual([413, expect.stringContaining("larger than 10485760 bytes")]);
    const asJson = await h.call("POST", "/_sandbox/reconciliations", { json: { lines: [] }, headers: bearer(KEY) });
    // Not a file type: 415, naming the types taken (see "refuses what is not a statement upload").
    expect([asJson.status, asJson.body.param]).toEqual([415, "Content-Type"]);
    expect((await payment(made[0]?.id as string)).status).toBe("settled");
    expect((await h.call("GET", "/_sandbox/reconciliations", { headers: bearer(KEY) })).body.data).toEqual([]);
  });

  it("reads the published sample statement", async () => {
    const sample = readFileSync(new URL("../docs/sample-statement.csv", import.meta.url));
    const reply = await importStatement(sample);
    expect(reply.status).toBe(201);
    expect(reply.body.lines.map((l: { reference: string }) => l.reference)).toContain("FTR-ŞĞİ-0042");
  });

  it("keeps each workspace's runs and payments to itself", async () => {
    const { made, valueDate } = await settledPayments([{ amount: 1_000, reference: "MINE-1" }]);
    const theirs = (await importStatement(`${header}\nMINE-1,1000,TRY,${valueDate}\n`, OTHER_KEY)).body;
    expect(theirs.lines[0].outcome).toBe("no_payment");
    expect((await payment(made[0]?.id as string)).status).toBe("settled");
    const missing = await h.call("GET", `/_sandbox/reconciliations/${theirs.id}`, { headers: bearer(KEY) });
    expect(missing.status).toBe(404);
  });
});
