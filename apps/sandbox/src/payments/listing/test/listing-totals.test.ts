import { afterAll, beforeAll, expect, it } from "vitest";
import { DashboardHttp } from "../../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY } from "../../../../test/support/harness.js";
import { istanbulDate } from "../../../index.js";

/**
 * Every listing's total is exact whichever way it is counted (from the snapshot alone with no filter,
 * from the rows' fixed fields, or from each row's status at the snapshot): the overview's count for
 * each filter equals the payments the API lists that match it.
 */
let h: Harness;
let browser: DashboardHttp;
interface Listed {
  id: string;
  status: string;
  method: string;
  from_account: string;
  to_account: string;
  reference?: string;
  created_at: string;
}
let all: Listed[] = [];
let accounts: string[] = [];

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 1_000_000 });
  const seeded = await h.accounts();
  const pair = (currency: string) => seeded.filter((a) => a.currency === currency).map((a) => a.id) as [string, string];
  const pairs = [pair("TRY"), pair("USD"), pair("EUR")];
  accounts = pairs.flat();
  const methods = ["card", "eft", "bank_transfer", "virtual_account"];
  for (let n = 0; n < 24; n++) {
    const currency = ["TRY", "USD", "EUR"][n % 3] as string;
    const [from, to] = pairs[n % 3] as [string, string];
    const made = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: {
        amount: 100 + n,
        currency,
        method: methods[n % 4],
        from_account: from,
        to_account: to,
        reference: n % 5 === 0 ? `FTR-İZMİR-${n}` : n % 7 === 3 ? `INV_${n}` : `INV-${n}`,
      },
    });
    expect(made.status).toBe(201);
    if (n % 4 === 1) expect((await h.call("DELETE", `/v1/payments/${made.body.id}`, { key: KEY })).status).toBe(200);
  }
  all = (await h.call("GET", "/v1/payments?limit=100", { key: KEY })).body.data;
  browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
});
afterAll(() => h.close());

const shownTotal = async (query: string) => {
  const page = (await browser.get(`?${query}`)).text;
  const match = /id="payment-count">(\d+) payments?\./.exec(page);
  if (!match) throw new Error(`No count on the overview for ?${query}`);
  return Number(match[1]);
};

it("counts each filter exactly: none, dates, method, account, search, status, and several at once", async () => {
  const today = istanbulDate(Date.parse(all[0]?.created_at ?? ""));
  const [a] = accounts as [string];
  const cases: [query: string, expected: number][] = [
    ["", all.length],
    [`from=${today}&to=${today}`, all.length],
    ["from=2000-01-01&to=2000-01-02", 0],
    ["method=eft", all.filter((p) => p.method === "eft").length],
    [`account=${a}`, all.filter((p) => p.from_account === a || p.to_account === a).length],
    ["q=izmir", all.filter((p) => p.reference?.startsWith("FTR-İZMİR")).length],
    // An underscore is itself, not any letter (PostgreSQL searches with LIKE): INV_3, not INV-4.
    ["q=v_", all.filter((p) => p.reference?.includes("_")).length],
    ["status=cancelled", all.filter((p) => p.status === "cancelled").length],
    [
      "status=pending&method=bank_transfer",
      all.filter((p) => p.status === "pending" && p.method === "bank_transfer").length,
    ],
    [
      `method=card&account=${a}`,
      all.filter((p) => p.method === "card" && (p.from_account === a || p.to_account === a)).length,
    ],
    [
      `status=pending&method=card&account=${a}`,
      all.filter((p) => p.status === "pending" && p.method === "card" && (p.from_account === a || p.to_account === a))
        .length,
    ],
  ];
  expect(all.length).toBe(24);
  for (const [query, expected] of cases) expect(await shownTotal(query), query).toBe(expected);
  // Nothing trivially zero: every case but the empty date range finds something.
  expect(cases.filter(([, n]) => n === 0).map(([q]) => q)).toEqual(["from=2000-01-01&to=2000-01-02"]);
});

it("keeps the API's first-page totals exact as payments are made, and back to zero after a reset", async () => {
  const total = async (filter = "") =>
    (await h.call("GET", `/v1/payments?limit=1${filter}`, { key: KEY })).body.pagination.total;
  expect(await total()).toBe(24);
  expect(await total("&status=cancelled")).toBe(6);
  await h.control("/reset");
  expect(await total()).toBe(0);
  expect(await total("&status=cancelled")).toBe(0);
  expect(await total("&status=pending")).toBe(0);
});
