import { describe, expect, it } from "vitest";
import { seedWorkspace } from "../../src/index.js";
import { BatchedReads, SharedReads, SharedReadsAsOfLatest } from "../../src/infrastructure/postgres/shared-reads.js";
import { KEY } from "../support/harness.js";
import { sandboxCall } from "../support/sandbox-call.js";
import { twoInstancesOnOneDatabase } from "../support/test-stores.js";

/** A read whose answers the test hands out one by one, recording when each query went. */
function heldReads() {
  const sent: { key: string; answer: (value: number) => void; fail: (error: Error) => void }[] = [];
  const reads = new SharedReads<number>(
    (key) =>
      new Promise<number>((answer, fail) => {
        sent.push({ key, answer, fail });
      }),
  );
  return { reads, sent };
}

describe("SharedReads", () => {
  it("gives reads that asked while a query was on its way the next query, never the one before", async () => {
    const { reads, sent } = heldReads();
    const first = reads.get("w");
    const waiting = [reads.get("w"), reads.get("w"), reads.get("w")];
    expect(sent).toHaveLength(1);
    sent[0]?.answer(1);
    expect(await first).toBe(1);
    // Only now, after the first answer, does the shared query go: it may see a write the first missed.
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(2);
    sent[1]?.answer(2);
    expect(await Promise.all(waiting)).toEqual([2, 2, 2]);
  });

  it("reads each key on its own, and sends a new query once nothing is on its way", async () => {
    const { reads, sent } = heldReads();
    const w = reads.get("w");
    const v = reads.get("v");
    expect(sent.map((s) => s.key)).toEqual(["w", "v"]);
    sent[0]?.answer(10);
    sent[1]?.answer(20);
    expect([await w, await v]).toEqual([10, 20]);
    const again = reads.get("w");
    expect(sent).toHaveLength(3);
    sent[2]?.answer(11);
    expect(await again).toBe(11);
  });

  it("fails only the reads that shared a failed query; the next ones still go", async () => {
    const { reads, sent } = heldReads();
    const first = reads.get("w");
    const shared = [reads.get("w"), reads.get("w")];
    sent[0]?.fail(new Error("connection lost"));
    await expect(first).rejects.toThrow("connection lost");
    await new Promise((resolve) => setImmediate(resolve));
    sent[1]?.fail(new Error("still down"));
    for (const read of shared) await expect(read).rejects.toThrow("still down");
    const later = reads.get("w");
    sent[2]?.answer(3);
    expect(await later).toBe(3);
  });
  it("joins the query about to go for the reads that waited, when it asks between the last answer and that query", async () => {
    const { reads, sent } = heldReads();
    const first = reads.get("w");
    const waited = reads.get("w");
    sent[0]?.answer(1);
    expect(await first).toBe(1);
    // The first query is answered, and the one for the read that waited has not gone yet.
    expect(sent).toHaveLength(1);
    const joined = reads.get("w");
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(2);
    sent[1]?.answer(2);
    expect([await waited, await joined]).toEqual([2, 2]);
  });
});

describe("SharedReadsAsOfLatest", () => {
  it("asks as of a moment every time, a read arriving just as the waiting reads' query goes included", async () => {
    const sent: { asOf: number; answer: (value: boolean) => void }[] = [];
    const reads = new SharedReadsAsOfLatest(
      (_key, asOf) =>
        new Promise<boolean>((answer) => {
          sent.push({ asOf, answer });
        }),
    );
    const first = reads.get("w", 100);
    const waited = reads.get("w", 300);
    sent[0]?.answer(false);
    expect(await first).toBe(false);
    const arriving = reads.get("w", 200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((s) => s.asOf)).toEqual([100, 300]);
    sent[1]?.answer(true);
    expect([await waited, await arriving]).toEqual([true, true]);
  });

  it("asks the shared query as of the latest moment its reads asked for, and the one after as of its own", async () => {
    const sent: { key: string; asOf: number; answer: (value: boolean) => void }[] = [];
    const reads = new SharedReadsAsOfLatest(
      (key, asOf) =>
        new Promise<boolean>((answer) => {
          sent.push({ key, asOf, answer });
        }),
    );
    const first = reads.get("w", 100);
    const shared = [reads.get("w", 300), reads.get("w", 200)];
    const other = reads.get("v", 50);
    expect(sent.map((s) => [s.key, s.asOf])).toEqual([
      ["w", 100],
      ["v", 50],
    ]);
    sent[0]?.answer(false);
    sent[1]?.answer(false);
    expect([await first, await other]).toEqual([false, false]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent[2]?.asOf).toBe(300);
    sent[2]?.answer(true);
    expect(await Promise.all(shared)).toEqual([true, true]);
    // A clock put back: the next read asks as of its own moment, not the last query's.
    const later = reads.get("w", 150);
    expect(sent[3]?.asOf).toBe(150);
    sent[3]?.answer(false);
    expect(await later).toBe(false);
  });
});

/** Batched reads whose queries the test answers one by one, recording the items each asked for. */
function heldBatches(maxItems = 100) {
  const sent: {
    group: string;
    items: readonly string[];
    answer: (found: Map<string, string>) => void;
    fail: (error: Error) => void;
  }[] = [];
  const reads = new BatchedReads<string>(
    (group, items) =>
      new Promise((answer, fail) => {
        sent.push({ group, items, answer, fail });
      }),
    maxItems,
  );
  return { reads, sent };
}

describe("BatchedReads", () => {
  it("asks for the items a run of microtasks asked for in one query per group, and answers each read its own", async () => {
    const { reads, sent } = heldBatches();
    const asked = [reads.get("w", "a"), reads.get("w", "b"), reads.get("v", "a"), reads.get("w", "a")];
    expect(sent).toHaveLength(0);
    await Promise.resolve();
    expect(sent.map((s) => [s.group, s.items])).toEqual([
      ["w", ["a", "b"]],
      ["v", ["a"]],
    ]);
    sent[0]?.answer(new Map([["a", "w/a"]]));
    sent[1]?.answer(new Map([["a", "v/a"]]));
    // "b" was not found: undefined, as a read of one item would say.
    expect(await Promise.all(asked)).toEqual(["w/a", undefined, "v/a", "w/a"]);
  });

  it("never answers a read with a query sent before it asked: it waits for the group's batch on its way, then goes", async () => {
    const { reads, sent } = heldBatches();
    const first = reads.get("w", "a");
    await Promise.resolve();
    const later = reads.get("w", "a");
    const other = reads.get("v", "a");
    await Promise.resolve();
    // Another group goes at once; this group's next batch waits for the one on its way.
    expect(sent.map((s) => [s.group, s.items])).toEqual([
      ["w", ["a"]],
      ["v", ["a"]],
    ]);
    sent[0]?.answer(new Map([["a", "before"]]));
    expect(await first).toBe("before");
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((s) => s.items)).toEqual([["a"], ["a"], ["a"]]);
    sent[2]?.answer(new Map([["a", "after"]]));
    sent[1]?.answer(new Map([["a", "v/a"]]));
    expect([await later, await other]).toEqual(["after", "v/a"]);
  });

  it("gathers the reads asked while a batch is on its way into the next one, asked as of the latest moment of its reads", async () => {
    const asOfs: number[] = [];
    const answers: ((found: Map<string, string>) => void)[] = [];
    const reads = new BatchedReads<string>(
      (_group, items, asOf) =>
        new Promise((answer) => {
          asOfs.push(asOf);
          answers.push(() => answer(new Map(items.map((item) => [item, `${item}@${asOf}`]))));
        }),
      100,
    );
    const first = reads.get("w", "a", 100);
    await Promise.resolve();
    // Asked over several turns while the first is on its way, one moment earlier than the others.
    const gathered = [reads.get("w", "b", 300)];
    await new Promise((resolve) => setImmediate(resolve));
    gathered.push(reads.get("w", "c", 200), reads.get("w", "b", 250));
    await new Promise((resolve) => setImmediate(resolve));
    expect(asOfs).toEqual([100]);
    answers[0]?.(new Map());
    expect(await first).toBe("a@100");
    await new Promise((resolve) => setImmediate(resolve));
    expect(asOfs).toEqual([100, 300]);
    answers[1]?.(new Map());
    expect(await Promise.all(gathered)).toEqual(["b@300", "c@300", "b@300"]);
  });

  it("sends a full batch at once, and asks each item alone when a batch fails, failing only the item that fails alone", async () => {
    const { reads, sent } = heldBatches(2);
    const full = [reads.get("w", "a"), reads.get("w", "b")];
    expect(sent.map((s) => s.items)).toEqual([["a", "b"]]);
    // A batch that fills up goes even while another is on its way; one that does not, waits.
    const second = [reads.get("w", "c"), reads.get("w", "d")];
    const waiting = reads.get("w", "e");
    await Promise.resolve();
    expect(sent.map((s) => s.items)).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    sent[1]?.answer(new Map([["c", "c!"]]));
    expect(await Promise.all(second)).toEqual(["c!", undefined]);
    // The first full batch is still on its way: the waiting one goes once it is answered.
    expect(sent).toHaveLength(2);
    sent[0]?.fail(new Error("invalid byte sequence"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.slice(2).map((s) => s.items)).toEqual([["a"], ["b"], ["e"]]);
    sent[2]?.fail(new Error("invalid byte sequence"));
    sent[3]?.answer(new Map([["b", "b!"]]));
    sent[4]?.answer(new Map([["e", "e!"]]));
    await expect(full[0]).rejects.toThrow("invalid byte sequence");
    expect([await full[1], await waiting]).toEqual(["b!", "e!"]);
  });
});

describe("creates on two instances sharing one database", () => {
  const instances = twoInstancesOnOneDatabase({ completeAfterSeconds: 1_000_000 });

  it("see a clock moved on another instance while earlier creates are still on their way", async () => {
    const [a, b] = instances();
    const [from, to] = seedWorkspace(KEY)
      .accounts.filter((account) => account.currency === "TRY")
      .map((account) => account.id);
    const create = () =>
      sandboxCall(a.url, "POST", "/v1/payments", {
        amount: 100,
        currency: "TRY",
        method: "eft",
        from_account: from,
        to_account: to,
      });
    const before = Array.from({ length: 30 }, create);
    const moved = await sandboxCall(b.url, "POST", "/_sandbox/clock/advance", { seconds: 3_600 });
    expect(moved.status).toBe(200);
    const movedNow = Date.parse(moved.body.now);
    const after = await Promise.all(Array.from({ length: 30 }, create));
    await Promise.all(before);
    for (const answer of after) {
      expect(answer.status).toBe(201);
      expect(Date.parse(answer.body.created_at)).toBeGreaterThanOrEqual(movedNow);
    }
  });

  it("carry the time of a clock another instance moved, on an instance whose last reading is older, one by one and in a batch", async () => {
    const [a, b] = instances();
    const [tryFrom, tryTo] = seedWorkspace(KEY)
      .accounts.filter((account) => account.currency === "TRY")
      .map((account) => account.id);
    const body = { amount: 100, currency: "TRY", method: "eft", from_account: tryFrom, to_account: tryTo };
    // A reads the clock (offset 0) with this create, and keeps that reading.
    expect((await sandboxCall(a.url, "POST", "/v1/payments", body)).status).toBe(201);
    const moved = await sandboxCall(b.url, "POST", "/_sandbox/clock/advance", { seconds: 7_200 });
    expect(moved.status).toBe(200);
    const movedNow = Date.parse(moved.body.now);

    const one = await sandboxCall(a.url, "POST", "/v1/payments", body);
    expect(one.status).toBe(201);
    expect(Date.parse(one.body.created_at)).toBeGreaterThanOrEqual(movedNow);
    expect(Date.parse(one.body.created_at)).toBeLessThan(movedNow + 60_000);

    const batch = await sandboxCall(a.url, "POST", "/v1/payments/batch", { payments: [body, body] });
    expect(batch.status).toBe(200);
    for (const result of batch.body.results) {
      expect(result.outcome).toBe("created");
      expect(Date.parse(result.payment.created_at)).toBeGreaterThanOrEqual(movedNow);
    }
    // What B lists is what A answered.
    const listed = await sandboxCall(b.url, "GET", `/v1/payments/${one.body.id}`);
    expect(listed.body.created_at).toBe(one.body.created_at);
  });
});
