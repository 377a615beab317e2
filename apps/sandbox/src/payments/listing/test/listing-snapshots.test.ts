import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearOfCutoff } from "../../../../test/support/clock-moves.js";
import { type Harness, harness, KEY } from "../../../../test/support/harness.js";

let h: Harness;
let from: string;
let to: string;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control("/reset");
  const accounts = await h.accounts();
  [from, to] = accounts.filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

async function create(count: number) {
  for (let i = 0; i < count; i++) {
    await h.call("POST", "/v1/payments", {
      key: KEY,
      json: { amount: 100 + i, currency: "TRY", method: "eft", from_account: from, to_account: to },
    });
  }
}

const page = (query: string) => h.call("GET", `/v1/payments?${query}`, { key: KEY });

/** The cursor's state, edited, behind its old signature: what a curious or malicious caller would send. */
function tamper(cursor: string, edit: (state: Record<string, unknown>) => void): string {
  const bytes = Buffer.from(cursor.slice(4), "base64url");
  const start = 16; // the signature's length; the readable JSON state follows it
  const state = JSON.parse(bytes.subarray(start).toString());
  edit(state);
  return `cur_${Buffer.concat([bytes.subarray(0, start), Buffer.from(JSON.stringify(state))]).toString("base64url")}`;
}

describe("cursors", () => {
  it("carry the page size: ?limit=3 then ?cursor=… gives pages of 3", async () => {
    await create(8);
    const first = await page("limit=3");
    expect(first.body.data).toHaveLength(3);
    const second = await page(`cursor=${first.body.pagination.next_cursor}`);
    expect(second.body.data).toHaveLength(3);
    expect(second.body.pagination.limit).toBe(3);
    const third = await page(`cursor=${second.body.pagination.next_cursor}&limit=1`);
    expect(third.body.data).toHaveLength(1);
    const fourth = await page(`cursor=${third.body.pagination.next_cursor}`);
    expect(fourth.body.data).toHaveLength(1);
  });

  it("are tamper-evident: an edited total, status, position or signature gets 400", async () => {
    await create(5);
    const cursor = (await page("limit=2")).body.pagination.next_cursor as string;
    const forged = [
      tamper(cursor, (s) => {
        s.total = 1_000_000;
      }),
      tamper(cursor, (s) => {
        s.status = "completed";
      }),
      tamper(cursor, (s) => {
        s.afterSeq = 0;
      }),
      `${cursor.slice(0, 6)}${cursor[6] === "A" ? "B" : "A"}${cursor.slice(7)}`,
      "cur_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ];
    for (const bad of forged) {
      const reply = await page(`cursor=${bad}`);
      expect(reply.status, bad).toBe(400);
      expect(reply.body).toMatchObject({ code: "invalid_request", param: "cursor" });
    }
  });
});

describe("a status-filtered listing is a snapshot", () => {
  it("returns exactly the total it announced while payments complete mid-walk", async () => {
    // They complete 31 s on: not across the settlement cut-off, or they would be settled.
    await clearOfCutoff(h);
    await create(6);
    const first = await page("status=pending&limit=2");
    expect(first.body.pagination.total).toBe(6);
    // Everything completes between the first and the second page.
    await h.control("/clock/advance", { seconds: 31 });
    const ids = [...first.body.data.map((p: { id: string }) => p.id)];
    let cursor = first.body.pagination.next_cursor;
    while (cursor) {
      const next = await page(`cursor=${cursor}`);
      ids.push(...next.body.data.map((p: { id: string; status: string }) => p.id));
      for (const p of next.body.data) expect(p.status).toBe("pending");
      cursor = next.body.pagination.next_cursor;
    }
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    // A new listing sees the present.
    expect((await page("status=pending")).body.pagination.total).toBe(0);
    expect((await page("status=completed")).body.pagination.total).toBe(6);
  });
});

describe("sizes", () => {
  it("limits description to 500 and reference to 140 characters", async () => {
    const base = { amount: 1, currency: "TRY", method: "eft", from_account: from, to_account: to };
    const long = await h.call("POST", "/v1/payments", { key: KEY, json: { ...base, description: "x".repeat(501) } });
    expect(long.status).toBe(400);
    expect(long.body.param).toBe("description");
    const ref = await h.call("POST", "/v1/payments", { key: KEY, json: { ...base, reference: "r".repeat(141) } });
    expect(ref.body.param).toBe("reference");
    const ok = await h.call("POST", "/v1/payments", {
      key: KEY,
      json: { ...base, description: "ş".repeat(500), reference: "r".repeat(140) },
    });
    expect(ok.status).toBe(201);
  });

  it("answers a listing of the largest records without a 500", async () => {
    const entry = {
      amount: 1,
      currency: "TRY",
      method: "eft",
      from_account: from,
      to_account: to,
      description: "€".repeat(500),
      reference: "R".repeat(140),
    };
    await h.call("POST", "/v1/payments/batch", { key: KEY, json: { payments: Array(500).fill(entry) } });
    const reply = await page("limit=10000");
    expect(reply.status).toBe(200);
    expect(reply.body.data).toHaveLength(500);
  });
});

describe("the reference filter (payspec's extension: a create whose answer was lost is found by its reference)", () => {
  const make = (reference: string | undefined, amount = 100) =>
    h.call("POST", "/v1/payments", {
      key: KEY,
      json: {
        amount,
        currency: "TRY",
        method: "eft",
        from_account: from,
        to_account: to,
        ...(reference ? { reference } : {}),
      },
    });

  it("lists exactly the payments with that reference, across pages, its total exact", async () => {
    await create(3);
    for (const [reference, amount] of [
      ["FTR-2026-000123", 1],
      ["FTR-2026-000124", 2],
      ["FTR-2026-000123", 3],
      ["ftr-2026-000123", 4],
      ["İZMİR-Ş-1", 5],
    ] as const)
      expect((await make(reference, amount)).status).toBe(201);
    const found = await page("reference=FTR-2026-000123&limit=1");
    expect(found.status).toBe(200);
    expect(found.body.pagination.total).toBe(2);
    expect(found.body.data.map((p: { amount: number }) => p.amount)).toEqual([1]);
    const next = await page(`cursor=${found.body.pagination.next_cursor}`);
    expect(next.body.data.map((p: { amount: number }) => p.amount)).toEqual([3]);
    expect(next.body.pagination.has_more).toBe(false);
    // Exact: case and accents count, Turkish letters included.
    expect((await page("reference=ftr-2026-000123")).body.data.map((p: { amount: number }) => p.amount)).toEqual([4]);
    expect(
      (await page(`reference=${encodeURIComponent("İZMİR-Ş-1")}`)).body.data.map((p: { amount: number }) => p.amount),
    ).toEqual([5]);
    expect((await page("reference=nothing-like-it")).body).toMatchObject({ data: [], pagination: { total: 0 } });
    // Beside another filter, and carried by the cursor like every filter.
    expect((await page("reference=FTR-2026-000123&status=pending")).body.pagination.total).toBe(2);
    const differs = await page(`reference=FTR-2026-000124&cursor=${found.body.pagination.next_cursor}`);
    expect([differs.status, differs.body.param]).toEqual([400, "reference"]);
  });

  it("refuses an empty or over-long reference in the API's error shape", async () => {
    for (const bad of ["", "x".repeat(141)]) {
      const refused = await page(`reference=${bad}`);
      expect([refused.status, refused.body.code, refused.body.param]).toEqual([400, "invalid_request", "reference"]);
    }
  });
});
