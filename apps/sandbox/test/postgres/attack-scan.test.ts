import { findCardNumbers } from "@payspec/server-kit";
import ExcelJS from "exceljs";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET, TEST_CARDS } from "../../src/index.js";
import { DashboardHttp } from "../support/dashboard-http.js";
import { cardPayment, type Harness, harness, KEY } from "../support/harness.js";
import { loggedText } from "../support/log-lines.js";
import { pdfRuns } from "../support/pdf-text.js";
import { freshDatabase, TEST_SECRET } from "../support/test-stores.js";

/**
 * After every attack on card data we know of (card numbers in free text of both APIs and the dashboard
 * form, in paths and queries in every grouping, CVCs under any name), nothing anywhere holds a full
 * card number or a CVC: not a table, the server log, a dashboard page, the CSV, the PDF or the .xlsx.
 */
const CVCS = ["1357", "8642", "9753", "947"];
const SENT = new Set([...Object.keys(TEST_CARDS), "5516399191938598", "5214928452000493", "5767190030760632"]);

let h: Harness;
let db: pg.Pool;
const logLines: string[] = [];

beforeAll(async () => {
  const databaseUrl = await freshDatabase();
  h = await harness({ databaseUrl, secret: TEST_SECRET, logRequests: true, log: (line) => logLines.push(line) });
  db = new pg.Pool({ connectionString: databaseUrl });
});
afterAll(async () => {
  await h.close();
  await db.end();
});

function leaks(where: string, text: string): string[] {
  const found = findCardNumbers(text)
    .filter((m) => SENT.has(m.digits))
    .map((m) => `${where}: card ${m.digits.slice(0, 6)}…`);
  // Bounded by more than \b: a UUID (a card payment's referenceId) or a request id holds four-digit
  // groups between hyphens, and one of them once was 8642; a CVC that leaks stands apart from those.
  for (const cvc of CVCS) if (new RegExp(`(?<![\\w-])${cvc}(?![\\w-])`).test(text)) found.push(`${where}: CVC ${cvc}`);
  return found;
}

it("leaves no full card number and no CVC anywhere after the attacks", async () => {
  const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
  const payment = (extra: Record<string, unknown> = {}) => ({
    amount: 1_000,
    currency: "TRY",
    method: "eft",
    from_account: from,
    to_account: to,
    ...extra,
  });
  const writings = ["5516 3991 9193 8598", "5516.3991.9193.8598", "5214-9284-5200-0493", "5767+1900+3076+0632"];
  for (const text of writings) {
    for (const field of ["description", "reference"]) {
      expect((await h.call("POST", "/v1/payments", { key: KEY, json: payment({ [field]: text }) })).status).toBe(400);
    }
  }
  await h.call("POST", "/v1/payments", {
    key: KEY,
    json: { ...payment(), cvc: ["1357"], card_cvc: "8642", cvv2: 9753 },
  });
  await h.call("POST", "/v1/payments/batch", {
    key: KEY,
    json: { payments: [payment({ description: "Kasım faturası ş ğ ı İ" }), payment({ reference: writings[0] })] },
  });
  for (const path of [
    "/v1/payments/5516.3991.9193.8598",
    "/v1/payments/5214%209284%205200%200493",
    "/v1/5767+1900+3076+0632",
    "/v1/payments?reference=5516%203991%209193%208598",
  ]) {
    await h.call("GET", path, { key: KEY });
  }
  const token = await h.login();
  for (const cardNumber of Object.keys(TEST_CARDS)) {
    await h.call("POST", "/api/v1/payments/card", { token, json: cardPayment({}, { cardNumber, cvc: "947" }) });
  }
  for (const [overrides, card] of [
    [{}, { cardHolderName: "AYSE 5516 3991 9193 8598", cvc: "947" }],
    [{ products: [{ name: "5214-9284-5200-0493", price: 100.5 }] }, {}],
    [{ additionalParams: { note: "5767+1900+3076+0632" } }, {}],
  ] as const) {
    expect((await h.call("POST", "/api/v1/payments/card", { token, json: cardPayment(overrides, card) })).status).toBe(
      400,
    );
  }
  const browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
  const formToken = await browser.token("/payments/new");
  await browser.post("/payments", {
    _csrf: formToken,
    amount: "1000",
    currency: "TRY",
    method: "eft",
    from_account: from,
    to_account: to,
    description: "kart 5516-3991-9193-8598",
  });

  const found: string[] = [];
  const tables = await db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
  for (const { tablename } of tables.rows) {
    const rows = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${tablename}" t`);
    for (const { row } of rows.rows) found.push(...leaks(`table ${tablename}`, row));
  }
  found.push(...leaks("server log", loggedText(logLines)));
  const pages = ["", "/requests", "/payments/new"];
  const log = await browser.get("/requests");
  for (const m of log.text.matchAll(/href="\/_sandbox\/dashboard\/(requests\/\d+|payments\/pay_\w+)"/g))
    pages.push(`/${m[1]}`);
  for (const path of pages) found.push(...leaks(`page ${path || "/"}`, (await browser.get(path)).text));
  const csv = await fetch(`${browser.url}/export.csv`, {
    headers: { cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join("; ") },
  });
  found.push(...leaks("CSV", await csv.text()));
  const pdf = await fetch(`${browser.url}/export.pdf`, {
    headers: { cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join("; ") },
  });
  const { runs } = await pdfRuns(Buffer.from(await pdf.arrayBuffer()));
  // The scan reads the PDF's rows: the payment made in the batch is there (its id as the PDF prints it).
  expect(runs.join("\n")).toMatch(/pay_\w{8,}/);
  // Run by run, and joined, so a number that wrapped from one line of a cell to the next is found too.
  found.push(...leaks("PDF", runs.join("\n")), ...leaks("PDF (wrapped lines joined)", runs.join("")));

  const gateway = new DashboardHttp(h.url);
  await gateway.signInToGateway(DEMO_GATEWAY_KEY, DEMO_GATEWAY_SECRET);
  const gatewayPage = await gateway.get("/gateway");
  expect(gatewayPage.text).toContain("552879******0008");
  found.push(...leaks("gateway page", gatewayPage.text));
  const xlsx = await fetch(`${gateway.url}/gateway/report.xlsx`, {
    headers: { cookie: [...gateway.cookies].map(([n, v]) => `${n}=${v}`).join("; ") },
  });
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await xlsx.arrayBuffer()) as ArrayBuffer);
  const cells: string[] = [];
  book.eachSheet((sheet) => sheet.eachRow((row) => cells.push(JSON.stringify(row.values))));
  expect(cells.length).toBeGreaterThan(1);
  found.push(...leaks("xlsx", cells.join("\n")));
  expect(found).toEqual([]);
});

it("reads a CVC written anywhere as a leak, and a four-digit group of a UUID or request id as none", () => {
  expect(leaks("t", '{"card_cvc":"8642"}')).toEqual(["t: CVC 8642"]);
  expect(leaks("t", "cvc 8642 sent")).toEqual(["t: CVC 8642"]);
  expect(leaks("t", "3f2a91c0-8642-4b1e-9d3a-0c5e7f1a2b3c req_Ab-8642-x")).toEqual([]);
});
