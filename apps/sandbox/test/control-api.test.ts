import fc from "fast-check";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_CLOCK_ADVANCE_SECONDS } from "../src/index.js";
import { expectBooksBalanced as booksBalanced } from "./support/books.js";
import { clearOfCutoff } from "./support/clock-moves.js";
import { type Harness, harness, KEY, OTHER_KEY } from "./support/harness.js";

let h: Harness;
let tryA: string;
let tryB: string;

beforeAll(async () => {
  h = await harness({ completeAfterSeconds: 30 });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control("/reset");
  await h.control("/reset", {}, OTHER_KEY);
  [tryA, tryB] = (await h.accounts()).filter((a) => a.currency === "TRY").map((a) => a.id) as [string, string];
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

const create = async (amount: number, key: string = KEY) => {
  const accounts = (await h.accounts(key)).filter((a) => a.currency === "TRY");
  const reply = await h.call("POST", "/v1/payments", {
    key,
    json: { amount, currency: "TRY", method: "eft", from_account: accounts[0]?.id, to_account: accounts[1]?.id },
  });
  return reply.body as { id: string };
};

const expectBooksBalanced = (key: string = KEY) => booksBalanced(h, key);

describe("authentication", () => {
  it("refuses control calls without a credential or with an unknown one, in the payments shape", async () => {
    for (const authorization of [undefined, "Bearer sk_nobody", "Basic Z3dfZGVtb19rZXk6Z3dfZGVtb19zZWNyZXQ="]) {
      const reply = await h.call("POST", "/_sandbox/reset", {
        json: {},
        ...(authorization ? { headers: { authorization } } : {}),
      });
      expect(reply.status).toBe(401);
      expect(reply.body.code).toBe("unauthorized");
    }
  });

  it("acts on the caller's workspace only: another workspace's payment is not found, its data survives a reset", async () => {
    const mine = await create(100);
    const forced = await h.control(`/payments/${mine.id}/status`, { status: "approved" }, OTHER_KEY);
    expect(forced.status).toBe(404);
    const theirs = await create(100, OTHER_KEY);
    await h.control("/reset", {}, OTHER_KEY);
    expect((await h.call("GET", `/v1/payments/${mine.id}`, { key: KEY })).status).toBe(200);
    expect((await h.call("GET", `/v1/payments/${theirs.id}`, { key: OTHER_KEY })).status).toBe(404);
  });

  it("gives each workspace its own clock, and the gateway its own", async () => {
    const mine = await create(100);
    const theirs = await create(100, OTHER_KEY);
    await h.control("/clock/advance", { seconds: 31 }, OTHER_KEY);
    expect((await h.call("GET", `/v1/payments/${mine.id}`, { key: KEY })).body.status).toBe("pending");
    expect((await h.call("GET", `/v1/payments/${theirs.id}`, { key: OTHER_KEY })).body.status).toBe("completed");
    const token = await h.login();
    const gatewayAdvance = await h.control("/clock/advance", { seconds: 7200 }, token);
    expect(gatewayAdvance.status).toBe(200);
    expect((await h.call("GET", `/v1/payments/${mine.id}`, { key: KEY })).body.status).toBe("pending");
    // The token the call was made with has now expired on the gateway's clock.
    expect((await h.control("/clock/advance", { seconds: 1 }, token)).status).toBe(401);
  });

  it("puts a clock back by what a test moved it, never before real time", async () => {
    const ahead = Date.parse((await h.control("/clock/advance", { seconds: 3600 }, OTHER_KEY)).body.now);
    const back = Date.parse((await h.control("/clock/rewind", { seconds: 3000 }, OTHER_KEY)).body.now);
    expect(ahead - back).toBeGreaterThan(2_999_000);
    const aheadSeconds = (back - Date.now()) / 1000;
    expect(aheadSeconds).toBeGreaterThan(590);
    const tooFar = await h.control("/clock/rewind", { seconds: Math.ceil(aheadSeconds) + 5 }, OTHER_KEY);
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.message).toMatch(
      /^The clock is \d+ s ahead of real time; it cannot move back further than real time/,
    );
    // A rewind of the gateway needs a live token, as every gateway control call does.
    const token = await h.login();
    await h.control("/clock/advance", { seconds: 60 }, token);
    expect((await h.control("/clock/rewind", { seconds: 60 }, token)).status).toBe(200);
  });
});

describe("forced transitions keep the books", () => {
  it("moves the balances exactly once when forcing completed, and back when undoing it", async () => {
    const payment = await create(2_500);
    const before = await h.accounts();
    await h.control(`/payments/${payment.id}/status`, { status: "completed" });
    await h.control(`/payments/${payment.id}/status`, { status: "settled" });
    await h.control(`/payments/${payment.id}/status`, { status: "completed" });
    const after = await h.accounts();
    const delta = (id: string) =>
      Math.round(
        ((after.find((a) => a.id === id)?.balance ?? 0) - (before.find((a) => a.id === id)?.balance ?? 0)) * 100,
      );
    expect(delta(tryA)).toBe(-2_500);
    expect(delta(tryB)).toBe(2_500);
    await h.control(`/payments/${payment.id}/status`, { status: "failed" });
    expect(await h.accounts()).toEqual(before);
    await expectBooksBalanced();
  });

  it("refuses with 409 a forced completion the debit account cannot cover", async () => {
    const payment = await create(9_000_000_000);
    const reply = await h.control(`/payments/${payment.id}/status`, { status: "completed" });
    expect(reply.status).toBe(409);
    expect((await h.call("GET", `/v1/payments/${payment.id}`, { key: KEY })).body.status).toBe("pending");
    await expectBooksBalanced();
  });

  it("balances after any sequence of control calls and completions (model-based)", async () => {
    const statuses = ["pending", "approved", "processing", "completed", "settled", "reconciled", "cancelled", "failed"];
    const step = fc.oneof(
      fc.record({ kind: fc.constant("create" as const), amount: fc.integer({ min: 1, max: 300_000_000 }) }),
      fc.record({ kind: fc.constant("force" as const), which: fc.nat(), status: fc.constantFrom(...statuses) }),
      fc.record({ kind: fc.constant("advance" as const), seconds: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant("cancel" as const), which: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        await h.control("/reset");
        const ids: string[] = [];
        for (const s of steps) {
          if (s.kind === "create") ids.push((await create(s.amount)).id);
          else if (s.kind === "advance") await h.control("/clock/advance", { seconds: s.seconds });
          else if (ids.length > 0) {
            const id = ids[s.which % ids.length] as string;
            if (s.kind === "force") {
              const reply = await h.control(`/payments/${id}/status`, { status: s.status });
              expect([200, 409]).toContain(reply.status);
            } else {
              await h.call("DELETE", `/v1/payments/${id}`, { key: KEY });
            }
          }
        }
        await expectBooksBalanced();
      }),
      { numRuns: 25, seed: 20261122 },
    );
  });
});

describe("the clock is bounded", () => {
  it("refuses to move a clock more than 10 years ahead in all, and creates keep working", async () => {
    const most = await h.control("/clock/advance", { seconds: MAX_CLOCK_ADVANCE_SECONDS - 10 });
    expect(most.status).toBe(200);
    const beyond = await h.control("/clock/advance", { seconds: 11 });
    expect(beyond.status).toBe(400);
    expect(beyond.body).toMatchObject({ code: "invalid_request", param: "seconds" });
    const huge = await h.control("/clock/advance", { seconds: 1e300 });
    expect(huge.status).toBe(400);
    const payment = await create(100);
    expect(payment.id).toMatch(/^pay_/);
    expect((await h.call("GET", "/v1/payments", { key: KEY })).status).toBe(200);
  });
});

describe("the dashboard's paths over the control API", () => {
  const submit = (json: Record<string, unknown> = {}, key: string = KEY) =>
    h.control(
      "/payments",
      { amount: 500, currency: "TRY", method: "eft", from_account: tryA, to_account: tryB, ...json },
      key,
    );
  const workflow = (enabled: boolean, key: string = KEY) =>
    h.call("PUT", "/_sandbox/settings/approval-workflow", {
      json: { enabled },
      headers: { authorization: `Bearer ${key}` },
    });
  const status = async (id: string) => (await h.call("GET", `/v1/payments/${id}`, { key: KEY })).body.status;

  it("with the approval workflow on: pending until approved, approved once, then cancellable", async () => {
    expect((await workflow(true)).body).toEqual({ enabled: true });
    const made = await submit();
    expect([made.status, made.body.status]).toEqual([201, "pending"]);
    await h.control("/clock/advance", { seconds: 86_400 });
    expect(await status(made.body.id)).toBe("pending");
    const approved = await h.control(`/payments/${made.body.id}/approve`);
    expect([approved.status, approved.body.status]).toEqual([200, "approved"]);
    const again = await h.control(`/payments/${made.body.id}/approve`);
    expect([again.status, again.body.message]).toEqual([409, expect.stringContaining("not waiting for an approver")]);
    expect((await h.call("DELETE", `/v1/payments/${made.body.id}`, { key: KEY })).body.status).toBe("cancelled");
    await expectBooksBalanced();
  });

  it("with it off: processing, not cancellable, completes like any other; API payments cannot be approved", async () => {
    await clearOfCutoff(h);
    const made = await submit();
    expect(made.body.status).toBe("processing");
    expect((await h.call("DELETE", `/v1/payments/${made.body.id}`, { key: KEY })).status).toBe(409);
    const api = await create(100);
    expect((await h.control(`/payments/${api.id}/approve`)).status).toBe(409);
    await h.control("/clock/advance", { seconds: 31 });
    expect([await status(made.body.id), await status(api.id)]).toEqual(["completed", "completed"]);
    await expectBooksBalanced();
  });

  it("checks a submit like the API, keeps the setting per workspace, and refuses gateway tokens", async () => {
    expect((await submit({ amount: 0 })).body).toMatchObject({ param: "amount" });
    expect((await submit({ to_account: tryA })).body).toMatchObject({ param: "to_account" });
    await workflow(true);
    expect((await submit({}, OTHER_KEY)).status).toBe(400); // OTHER_KEY's workspace has other accounts
    const theirs = (await h.accounts(OTHER_KEY)).filter((a) => a.currency === "TRY");
    const other = await submit({ from_account: theirs[0]?.id, to_account: theirs[1]?.id }, OTHER_KEY);
    expect(other.body.status).toBe("processing");
    const token = await h.login();
    expect((await workflow(true, token)).status).toBe(403);
    expect(
      (await h.call("PUT", "/_sandbox/settings/approval-workflow", { key: KEY, json: { enabled: "yes" } })).status,
    ).toBe(400);
  });
});
