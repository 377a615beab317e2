import { afterAll, beforeAll, expect, it } from "vitest";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY } from "../../../test/support/harness.js";
import { pdfText } from "../../../test/support/pdf-text.js";

/**
 * The payments PDF as an operations person reads it, in Turkish: per currency, the money that moved,
 * the money still on its way and the money that never moved, each summed and counted; rows in words
 * (methods, statuses, account names), headings in Turkish, times in Istanbul time and the title's
 * filters and dates as Turkish writes them.
 */
let h: Harness;
let browser: DashboardHttp;
let ids: string[] = [];

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 1_000_000 });
  const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
  const create = async (amount: number) =>
    (
      await h.call("POST", "/v1/payments", {
        key: KEY,
        json: { amount, currency: "TRY", method: "bank_transfer", from_account: from, to_account: to },
      })
    ).body.id as string;
  ids = [await create(1_000), await create(2_050), await create(70_000), await create(90_000), await create(12_345)];
  expect((await h.call("DELETE", `/v1/payments/${ids[2]}`, { key: KEY })).status).toBe(200);
  expect((await h.control(`/payments/${ids[3]}/status`, { status: "failed" })).status).toBe(200);
  expect((await h.control(`/payments/${ids[4]}/status`, { status: "completed" })).status).toBe(200);
  browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
  browser.cookies.set("payspec_dashboard_lang", "tr");
});
afterAll(() => h.close());

it("sums the money that moved apart from what is on its way and what never moved, and writes rows, times and filters in Turkish", async () => {
  const answer = await fetch(`${browser.url}/export.pdf?method=bank_transfer&from=2020-01-01`, {
    headers: { cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join("; ") },
  });
  expect(answer.status).toBe(200);
  const text = await pdfText(Buffer.from(await answer.arrayBuffer()));
  expect(text).toContain("Ödemeler (yöntem havale, başlangıç 01.01.2020)");
  expect(text).toContain("TRY hareket eden (tamamlandı, hesaba geçti, mutabakatı yapıldı): 123,45 ₺, 1 ödeme");
  expect(text).toContain("TRY işlemde (beklemede, onaylandı, işleniyor): 30,50 ₺, 2 ödeme");
  expect(text).toContain("TRY hareket etmeyen (başarısız, iptal edildi): 1.600,00 ₺, 2 ödeme");
  // Headings, methods, statuses and accounts in words: no API name, no bare account id.
  for (const words of ["Oluşturulma", "Kimlik", "Tutar", "Yöntem", "Durum", "Gönderen hesap", "Alıcı hesap", "havale"])
    expect(text).toContain(words);
  expect(text).not.toMatch(/created_at|from_account|bank_transfer/);
  const accounts = (await h.accounts()).filter((a) => a.currency === "TRY");
  for (const account of accounts.slice(0, 2)) {
    // A long name wraps within its column, so it is found word by word.
    for (const word of account.name.split(" ")) expect(text).toContain(word);
    expect(text).not.toContain(account.id);
  }
  expect(text).toContain("tüm saatler İstanbul saatiyle");
  for (const id of ids) expect(text).toContain(id);
  // Each row's creation time as Turkish writes an Istanbul time, never the API's UTC ISO string.
  const created = (await h.call("GET", `/v1/payments/${ids[0]}`, { key: KEY })).body.created_at as string;
  const istanbul = new Date(Date.parse(created) + 3 * 3_600_000).toISOString();
  const shown = `${istanbul.slice(8, 10)}.${istanbul.slice(5, 7)}.${istanbul.slice(0, 4)} ${istanbul.slice(11, 19)}`;
  expect(text).toContain(shown);
  expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
});

it("names a filtered account by its name beside its id: in the PDF's title, on the Schedules and Exports pages", async () => {
  const accounts = (await h.call("GET", "/v1/accounts", { key: KEY })).body as { id: string; name: string }[];
  const account = accounts[0] as { id: string; name: string };
  const named = `hesap ${account.name} (${account.id})`;
  const answer = await fetch(`${browser.url}/export.pdf?account=${account.id}`, {
    headers: { cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join("; ") },
  });
  expect(answer.status).toBe(200);
  expect(await pdfText(Buffer.from(await answer.arrayBuffer()))).toContain(`Ödemeler (${named})`);

  const schedule = await h.call("POST", "/_sandbox/schedules", {
    key: KEY,
    json: {
      name: "Hesap özeti",
      format: "csv",
      every: "day",
      time: "09:00",
      account: account.id,
      recipients: ["a@example.com"],
    },
  });
  expect(schedule.status).toBe(201);
  const unescaped = (page: string) => page.replaceAll("&#39;", "'").replaceAll("&amp;", "&");
  expect(unescaped((await browser.get("/settings/schedules")).text)).toContain(named);
  expect(unescaped((await browser.get(`/settings/schedules/${schedule.body.id}`)).text)).toContain(named);
  const queued = await h.call("POST", "/_sandbox/exports", { key: KEY, json: { format: "csv", account: account.id } });
  expect(queued.status, JSON.stringify(queued.body)).toBe(202);
  expect(unescaped((await browser.get("/exports")).text)).toContain(named);
});
