import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DashboardHttp } from "./support/dashboard-http.js";
import { cardPayment, type Harness, harness, KEY } from "./support/harness.js";
import { loggedText } from "./support/log-lines.js";

/**
 * Input that used to answer 500 or leak card numbers, over real HTTP, on memory and PostgreSQL alike:
 * text no database can hold, card numbers in free text and in URLs, CVCs under any name.
 */
let h: Harness;
const logLines: string[] = [];
let from: string;
let to: string;

beforeAll(async () => {
  h = await harness({ logRequests: true, log: (line) => logLines.push(line) });
  [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
});
afterAll(() => h.close());
afterEach(async () => {
  expect(h.problems.splice(0)).toEqual([]);
  await h.control("/reset");
});

const payment = (overrides: Record<string, unknown> = {}) => ({
  amount: 1_000,
  currency: "TRY",
  method: "eft",
  from_account: from,
  to_account: to,
  ...overrides,
});

/** The written forms of a card number people (and attackers) use. */
const CARD_WRITINGS = [
  "4543590000000006",
  "4543 5900 0000 0006",
  "4543-5900-0000-0006",
  "4543.5900.0000.0006",
  "Fatura 5516.3991.9193.8598 ödendi",
  "ref 5767+1900+3076+0632",
];

async function paymentCount(): Promise<number> {
  return (await h.call("GET", "/v1/payments?limit=1", { key: KEY })).body.pagination.total;
}

describe("text no database can hold", () => {
  it("is refused with 400 naming the field, on every input path", async () => {
    // Every string a create can carry, and one it may not carry at all (named all the same).
    for (const field of ["description", "reference", "from_account", "to_account", "currency", "method", "note"]) {
      const answer = await h.call("POST", "/v1/payments", { key: KEY, json: payment({ [field]: "a\u0000b" }) });
      expect(answer.status, field).toBe(400);
      expect(answer.body, field).toMatchObject({ code: "invalid_request", param: field });
      expect(answer.body.message, field).toContain("NUL character or a lone surrogate");
      expect(answer.bytes.toString()).not.toContain("\\u0000");
    }
    for (const field of ["description", "reference"]) {
      const lone = await h.call("POST", "/v1/payments", { key: KEY, json: payment({ [field]: "Şube ı\uD800" }) });
      expect(lone.body, field).toMatchObject({ param: field });
      expect(lone.body.message, field).toContain("lone surrogate");
    }
    expect(await paymentCount()).toBe(0);

    expect((await h.call("GET", "/v1/payments/pay_%00", { key: KEY })).body).toMatchObject({ param: "id" });
    expect((await h.call("DELETE", "/v1/payments/pay_%00", { key: KEY })).status).toBe(400);
    expect((await h.call("GET", "/v1/payments?status=%00", { key: KEY })).status).toBe(400);
    const control = await h.control("/payments/pay_%00/status", { status: "completed" });
    expect(control.status).toBe(400);
    expect(control.body).toMatchObject({ param: "id" });

    const browser = new DashboardHttp(h.url);
    await browser.signIn(KEY);
    for (const path of ["/payments/pay_%00", "?status=%00", "?account=acc%00", "/requests/1%00"]) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(400);
      expect(page.text).toContain("could not be read");
    }
  });

  it("fails only its own request when sent among 54 valid concurrent creates", async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        h.call("POST", "/v1/payments", {
          key: KEY,
          json: payment({ description: i % 10 === 3 ? "x\u0000" : `ok ${i}` }),
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(54);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(6);
    expect(await paymentCount()).toBe(54);
  });

  it("fails only its own batch entry: 10 valid, 1 bad, 10 valid", async () => {
    const entries = [
      ...Array.from({ length: 10 }, () => payment()),
      payment({ reference: "FTR\u0000" }),
      ...Array.from({ length: 10 }, () => payment()),
    ];
    const answer = await h.call("POST", "/v1/payments/batch", { key: KEY, json: { payments: entries } });
    expect(answer.status).toBe(200);
    expect([answer.body.created, answer.body.failed]).toEqual([20, 1]);
    expect(answer.body.results[10]).toMatchObject({ outcome: "failed", error: { param: "reference" } });
    expect(await paymentCount()).toBe(20);
  });
});

describe("card numbers in free text", () => {
  it("are refused in a payment's description and reference, in any grouping, without echoing them", async () => {
    for (const written of CARD_WRITINGS) {
      for (const field of ["description", "reference"]) {
        const answer = await h.call("POST", "/v1/payments", { key: KEY, json: payment({ [field]: written }) });
        expect(answer.status, `${field}: ${written}`).toBe(400);
        expect(answer.body).toMatchObject({ code: "invalid_request", param: field });
        expect(answer.bytes.toString()).not.toMatch(/5900|9193|3076/);
      }
    }
    const batch = await h.call("POST", "/v1/payments/batch", {
      key: KEY,
      json: { payments: [payment(), payment({ description: "4543 5900 0000 0006" })] },
    });
    expect([batch.body.created, batch.body.results[1].error.param]).toEqual([1, "description"]);
    // Numbers that are not card numbers stay welcome: an invoice number, a Luhn-invalid 16 digits.
    for (const reference of ["FTR-2026-000042", "1234567812345678"]) {
      expect((await h.call("POST", "/v1/payments", { key: KEY, json: payment({ reference }) })).status).toBe(201);
    }
  });

  it("are refused in the dashboard's form, beside the field", async () => {
    const browser = new DashboardHttp(h.url);
    await browser.signIn(KEY);
    const token = await browser.token("/payments/new");
    const form = { _csrf: token, amount: "1000", currency: "TRY", method: "eft", from_account: from, to_account: to };
    const answer = await browser.post("/payments", { ...form, description: "kart 4543-5900-0000-0006" });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('id="description-error"');
    expect(answer.text).not.toMatch(/5900.?0000/);
    expect(await paymentCount()).toBe(0);
  });

  it("are refused in the gateway's holder name, product names and additional parameters (400, 6001)", async () => {
    const token = await h.login();
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{}, { cardHolderName: "AYSE 4543 5900 0000 0006" }, "card.cardHolderName"],
      [{ products: [{ name: "Kulaklık 5516.3991.9193.8598", price: 100.5 }] }, {}, "products[0].name"],
      [{ additionalParams: { note: "5767+1900+3076+0632" } }, {}, "additionalParams.note"],
    ];
    for (const [overrides, card, field] of cases) {
      const answer = await h.call("POST", "/api/v1/payments/card", { token, json: cardPayment(overrides, card) });
      expect(answer.status, field).toBe(400);
      expect(answer.body.code).toBe(6001);
      expect(answer.body.message).toContain(field);
      expect(answer.bytes.toString()).not.toMatch(/5900.?0000|9193|3076/);
    }
  });
});

describe("card numbers and CVCs in logs", () => {
  it("are masked in the server log and the request log, in any grouping or encoding, URL and query alike", async () => {
    logLines.length = 0;
    const paths = [
      "/v1/payments/5516.3991.9193.8598",
      "/v1/payments/5214%209284%205200%200493",
      "/v1/5767+1900+3076+0632",
      "/v1/payments?reference=4543%205900%200000%200006",
      "/v1/payments?reference=4543+5900+0000+0006",
    ];
    for (const path of paths) {
      const answer = await h.call("GET", path, { key: KEY });
      expect(answer.bytes.toString()).not.toMatch(/9193|9284.?5200|1900.?3076|5900.?0000/);
    }
    // A CVC under any name and of any type, in a body the API refuses.
    await h.call("POST", "/v1/payments", {
      key: KEY,
      json: { ...payment(), cvc: ["1357"], card_cvc: "8642", CVV2: 9753, extra: { cvn: { v: "2468" } } },
    });
    const browser = new DashboardHttp(h.url);
    await browser.signIn(KEY);
    const log = await browser.get("/requests");
    const entries = [...log.text.matchAll(/href="\/_sandbox\/dashboard\/requests\/(\d+)"/g)].map((m) => m[1]);
    expect(entries.length).toBeGreaterThanOrEqual(5);
    const shown = [
      log.text,
      ...(await Promise.all(entries.map(async (id) => (await browser.get(`/requests/${id}`)).text))),
    ];
    const everything = [loggedText(logLines), ...shown].join("\n");
    expect(everything).not.toMatch(/9193|9284.?5200|1900.?3076|5900.?0000|5900%200000/);
    expect(everything).not.toMatch(/1357|8642|9753|2468/);
  });
});
