import { afterAll, beforeAll, expect, it } from "vitest";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY } from "../../../test/support/harness.js";

/** The overview and a payment's page say methods, fields and accounts in words, in either language. */
let h: Harness;
let browser: DashboardHttp;
let id: string;
let from: { id: string; name: string };

beforeAll(async () => {
  h = await harness();
  const accounts = (await h.call("GET", "/v1/accounts", { key: KEY })).body as {
    id: string;
    name: string;
    currency: string;
  }[];
  const [a, b] = accounts.filter((account) => account.currency === "TRY");
  from = a as { id: string; name: string };
  id = (
    await h.call("POST", "/v1/payments", {
      key: KEY,
      json: { amount: 100, currency: "TRY", method: "virtual_account", from_account: a?.id, to_account: b?.id },
    })
  ).body.id;
  browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
});
afterAll(() => h.close());

const cell = (page: string, label: string) =>
  new RegExp(`<th scope="row">${label}</th><td>([^]*?)</td>`).exec(page)?.[1] ?? "";

it("labels a payment's fields in words, names its accounts and its method, in English and Turkish", async () => {
  browser.cookies.set("payspec_dashboard_lang", "en");
  const english = (await browser.get(`/payments/${id}`)).text;
  expect(cell(english, "Method")).toBe("virtual account");
  expect(cell(english, "From account")).toContain(from.name);
  expect(cell(english, "From account")).toContain(from.id);
  // A time says its clock: the sandbox's, which a test can move.
  expect(english).toContain('<th scope="row">Created (Istanbul, sandbox clock)</th>');
  expect(english).not.toMatch(/<th scope="row">(from_account|created_at|virtual_account)<\/th>/);

  browser.cookies.set("payspec_dashboard_lang", "tr");
  const turkish = (await browser.get(`/payments/${id}`)).text;
  expect(cell(turkish, "Yöntem")).toBe("sanal hesap");
  expect(cell(turkish, "Gönderen hesap")).toContain(from.name);
  expect(turkish).toContain('<th scope="row">Oluşturulma (İstanbul, sandbox saati)</th>');
  const overview = (await browser.get("")).text;
  expect(overview).toContain(`data-label="Yöntem">sanal hesap</td>`);
  expect(overview).toMatch(/<option value="bank_transfer"\s*>havale<\/option>/);
});
