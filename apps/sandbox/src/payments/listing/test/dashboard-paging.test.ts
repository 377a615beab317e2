import { afterAll, beforeAll, expect, it } from "vitest";
import { DashboardHttp } from "../../../../test/support/dashboard-http.js";
import { type Harness, harness, KEY } from "../../../../test/support/harness.js";

/**
 * The overview pages newest first, 25 a page: a page offers "Previous page" only when something newer
 * matches, "Next page" only when something older does, and walking back and forth shows the same
 * pages, with a filter and without; each page shows the count of the whole listing, not of what
 * lies past it.
 */
let h: Harness;
let browser: DashboardHttp;
/** The payments made, newest first, as the overview lists them. */
let newestFirst: { id: string; method: string; reference: string }[] = [];

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 1_000_000 });
  const [from, to] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id);
  const payments = Array.from({ length: 60 }, (_, i) => ({
    amount: 100 + i,
    currency: "TRY",
    method: i % 2 === 0 ? "eft" : "card",
    from_account: from,
    to_account: to,
    reference: i % 3 === 0 ? `FATURA-${i}` : `KİRA-${i}`,
  }));
  const made = await h.call("POST", "/v1/payments/batch", { key: KEY, json: { payments } });
  expect(made.status).toBe(200);
  newestFirst = made.body.results
    .map((r: { payment: { id: string; method: string; reference: string } }) => r.payment)
    .reverse();
  browser = new DashboardHttp(h.url);
  await browser.signIn(KEY);
});
afterAll(() => h?.close());

interface Shown {
  readonly ids: string[];
  readonly total: number;
  readonly previous?: string;
  readonly next?: string;
}

/** The payments a page lists, and where its Previous and Next links lead. */
async function shown(path: string): Promise<Shown> {
  const page = (await browser.get(path)).text;
  const ids = [...page.matchAll(/href="\/_sandbox\/dashboard\/payments\/(pay_[^"]+)"/g)].map((m) => m[1] as string);
  const link = (rel: string) =>
    new RegExp(`<a rel="${rel}" href="/_sandbox/dashboard([^"]*)"`).exec(page)?.[1]?.replaceAll("&amp;", "&");
  const previous = link("prev");
  const next = link("next");
  const total = Number(/id="payment-count">(\d+) payments?\./.exec(page)?.[1] ?? Number.NaN);
  return { ids: [...new Set(ids)], total, ...(previous ? { previous } : {}), ...(next ? { next } : {}) };
}

for (const [filter, keep] of [
  ["", () => true],
  ["?method=card", (p: { method: string }) => p.method === "card"],
  // A search: on PostgreSQL each page and the count come from one scan of the matches.
  ["?q=kira", (p: { reference: string }) => p.reference.startsWith("KİRA-")],
] as const) {
  it(`walks the pages back and forth${filter ? ` with ${filter.slice(1)}` : ""}, offering only the links that lead somewhere`, async () => {
    const expected = newestFirst.filter(keep).map((p) => p.id);
    const pages = [expected.slice(0, 25), expected.slice(25, 50), expected.slice(50, 75)].filter((p) => p.length > 0);
    let at = await shown(filter);
    const walked: Shown[] = [at];
    while (at.next) {
      at = await shown(at.next);
      walked.push(at);
    }
    expect(walked.map((p) => p.ids)).toEqual(pages);
    expect(walked.map((p) => p.total)).toEqual(pages.map(() => expected.length));
    expect(walked.map((p) => [p.previous !== undefined, p.next !== undefined])).toEqual(
      pages.map((_, i) => [i > 0, i < pages.length - 1]),
    );
    const back: Shown[] = [];
    while (at.previous) {
      at = await shown(at.previous);
      back.push(at);
    }
    expect(back.map((p) => p.ids)).toEqual(pages.slice(0, -1).reverse());
    expect(back.map((p) => p.total)).toEqual(back.map(() => expected.length));
    expect(at.previous).toBeUndefined();
  });
}
