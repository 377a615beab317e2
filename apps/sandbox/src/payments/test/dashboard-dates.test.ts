import { afterAll, beforeAll, expect, it } from "vitest";
import { clockNow } from "../../../test/support/clock-moves.js";
import { DashboardHttp } from "../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY } from "../../../test/support/harness.js";

/**
 * The dashboard shows every time in Istanbul, so its date filter and its exports pick Istanbul days;
 * the API's `from` and `to` stay UTC dates (the spec's assumption). Between 21:00 and midnight UTC the
 * two calendars name different days: a payment made at 21:00:30 UTC is made on the next Istanbul day.
 */
let h: Harness;
let browser: DashboardHttp;
const made: { beforeIstanbulMidnight?: string; afterIstanbulMidnight?: string } = {};
let utcDay = "";
let nextDay = "";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 1_000_000 });
  const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
  const pay = async () => {
    const reply = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: { amount: 5, currency: "TRY", method: "eft", from_account: from, to_account: to },
    });
    expect(reply.status).toBe(201);
    return reply.body.id as string;
  };
  // Two days ahead, so no payment made at real time shares these days.
  const now = await clockNow(h);
  const utcMidnight = Math.floor(now / DAY_MS) * DAY_MS + 2 * DAY_MS;
  const moveTo = async (at: number) => h.control("/clock/advance", { seconds: (at - (await clockNow(h))) / 1000 });
  await moveTo(utcMidnight + 21 * HOUR_MS - 30_000);
  made.beforeIstanbulMidnight = await pay();
  await moveTo(utcMidnight + 21 * HOUR_MS + 30_000);
  made.afterIstanbulMidnight = await pay();
  utcDay = new Date(utcMidnight).toISOString().slice(0, 10);
  nextDay = new Date(utcMidnight + DAY_MS).toISOString().slice(0, 10);
  browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
});
afterAll(() => h?.close());

const day = (date: string) => `from=${date}&to=${date}`;

it("the API's dates are UTC days: both payments were made on the same UTC day", async () => {
  const listed = async (query: string) =>
    (await h.call("GET", `/v1/payments?${query}`, { key: KEY })).body.data.map((p: { id: string }) => p.id);
  expect(await listed(day(utcDay))).toEqual([made.beforeIstanbulMidnight, made.afterIstanbulMidnight]);
  expect(await listed(day(nextDay))).toEqual([]);
});

it("the dashboard's dates are Istanbul days: its overview counts and shows each payment on its own day", async () => {
  const shown = async (query: string) => {
    const page = (await browser.get(`?${query}`)).text;
    const count = /id="payment-count">(\d+) payments?\./.exec(page)?.[1];
    return {
      count: Number(count),
      before: page.includes(made.beforeIstanbulMidnight ?? "?"),
      after: page.includes(made.afterIstanbulMidnight ?? "?"),
    };
  };
  expect(await shown(day(utcDay))).toEqual({ count: 1, before: true, after: false });
  expect(await shown(day(nextDay))).toEqual({ count: 1, before: false, after: true });
  expect(await shown(`from=${utcDay}&to=${nextDay}`)).toEqual({ count: 2, before: true, after: true });
});

it("the dashboard's export of a day holds that Istanbul day's payments", async () => {
  const exported = async (query: string) => (await browser.get(`/export.csv?${query}`)).text;
  const first = await exported(day(utcDay));
  expect([
    first.includes(made.beforeIstanbulMidnight ?? "?"),
    first.includes(made.afterIstanbulMidnight ?? "?"),
  ]).toEqual([true, false]);
  const second = await exported(day(nextDay));
  expect([
    second.includes(made.beforeIstanbulMidnight ?? "?"),
    second.includes(made.afterIstanbulMidnight ?? "?"),
  ]).toEqual([false, true]);
});
