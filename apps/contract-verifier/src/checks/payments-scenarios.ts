import type { Check, CheckRun } from "../check.js";
import type { RecordedExchange } from "../exchange.js";
import { describeReply, expectClientError, expectSuccess } from "./expectations.js";
import { walkListing } from "./listing-walk.js";

interface Payment {
  readonly id: string;
  readonly status: string;
  readonly completed_at?: string;
  readonly settled_at?: string;
}

async function newPayments(run: CheckRun, count: number, amount = 100): Promise<Payment[]> {
  const pair = await run.ctx.requireAccountPair();
  const payments = Array.from({ length: count }, (_, i) => ({
    amount: amount + i,
    currency: pair.currency,
    method: "eft",
    from_account: pair.from,
    to_account: pair.to,
    reference: `VERIFY-${run.ctx.options.seed}-${i}`,
  }));
  const reply = await run.send({ method: "POST", path: "/v1/payments/batch", json: { payments } });
  if (!expectSuccess(run, "payments", reply))
    run.cannotStart(`POST /v1/payments/batch answered ${reply.status} instead of creating ${count} payments`);
  const created = (reply.body as { results: { payment?: Payment }[] }).results.flatMap((r) =>
    r.payment ? [r.payment] : [],
  );
  if (created.length < count)
    run.cannotStart(`POST /v1/payments/batch created ${created.length} of ${count} valid payments`);
  return created;
}

async function getPayment(run: CheckRun, id: string): Promise<{ reply: RecordedExchange; payment: Payment }> {
  const reply = await run.send({ method: "GET", path: `/v1/payments/${id}` });
  expectSuccess(run, "payments", reply);
  return { reply, payment: reply.body as Payment };
}

function expectDisjointAndComplete(run: CheckRun, ids: string[], total: number) {
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  run.expect(repeated.length === 0, {
    expected: "pages that never repeat a record",
    actual: `repeated ${[...new Set(repeated)].slice(0, 5).join(", ")}`,
  });
  run.expect(ids.length === total, {
    expected: `the pages together hold pagination.total = ${total} records`,
    actual: `${ids.length} records`,
  });
}

/** The stateful payment scenarios: lifecycle, cancellation rules, pagination, batch isolation. */
export function paymentsScenarios(): Check[] {
  const checks: Check[] = [
    {
      id: "state.create-get-cancel",
      title: "create -> get shows pending -> cancel -> get shows cancelled",
      api: "payments",
      profile: "behaviour",
      operation: "DELETE /v1/payments/{id}",
      async run(run) {
        const [created] = await newPayments(run, 1);
        if (!created) return run.cannotStart("no payment was created");
        run.expect(created.status === "pending", { expected: "a new payment is pending", actual: created.status });
        const cancel = await run.send({ method: "DELETE", path: `/v1/payments/${created.id}` });
        expectSuccess(run, "payments", cancel);
        run.expect((cancel.body as Payment | undefined)?.status === "cancelled", {
          expected: "cancel answers the cancelled payment",
          actual: describeReply(cancel),
          exchange: cancel,
        });
        const { payment, reply } = await getPayment(run, created.id);
        run.expect(payment.status === "cancelled", {
          expected: "status cancelled after a cancel",
          actual: payment.status,
          exchange: reply,
        });
      },
    },
    {
      id: "state.cancel-twice",
      title: "cancelling a cancelled payment is refused with the declared error",
      api: "payments",
      profile: "behaviour",
      operation: "DELETE /v1/payments/{id}",
      async run(run) {
        const [created] = await newPayments(run, 1);
        if (!created) return run.cannotStart("no payment was created");
        await run.send({ method: "DELETE", path: `/v1/payments/${created.id}` });
        expectClientError(
          run,
          "payments",
          await run.send({ method: "DELETE", path: `/v1/payments/${created.id}` }),
          409,
          "cancelling a payment twice",
        );
      },
    },
    {
      id: "state.cancel-forbidden",
      title: "cancelling a processing, settled or reconciled payment fails and changes nothing",
      api: "payments",
      profile: "sandbox",
      operation: "DELETE /v1/payments/{id}",
      async run(run) {
        for (const status of ["processing", "settled", "reconciled"]) {
          const [created] = await newPayments(run, 1);
          if (!created) return run.cannotStart("no payment was created");
          await run.ctx.control(`/payments/${created.id}/status`, { status });
          expectClientError(
            run,
            "payments",
            await run.send({ method: "DELETE", path: `/v1/payments/${created.id}` }),
            409,
            `cancelling a ${status} payment`,
          );
          const { payment, reply } = await getPayment(run, created.id);
          run.expect(payment.status === status, {
            expected: `still ${status} after a refused cancel`,
            actual: payment.status,
            exchange: reply,
          });
        }
      },
    },
    {
      id: "state.completes",
      title: "a pending payment eventually completes, with completed_at",
      api: "payments",
      profile: "sandbox",
      operation: "GET /v1/payments/{id}",
      async run(run) {
        // Start just after a settlement cut-off, so the payment is looked at while `completed`, before
        // the next cut-off settles it (a settled payment would hide a completed one's faults).
        const clock = (await run.ctx.control("/clock/advance", { seconds: 0.001 })).body as { now?: string };
        const at = Date.parse(clock.now ?? "");
        if (!Number.isFinite(at)) return run.cannotStart("the sandbox clock did not say what time it is");
        await run.ctx.control("/clock/advance", { seconds: (istanbulMidnightAfter(at) - at) / 1000 + 60 });
        const [created] = await newPayments(run, 1);
        if (!created) return run.cannotStart("no payment was created");
        let { payment, reply } = await getPayment(run, created.id);
        // Minutes doubling, 17 hours at most in all: well before the next cut-off.
        for (let minutes = 1; minutes <= 512 && ["pending", "processing"].includes(payment.status); minutes *= 2) {
          await run.ctx.control("/clock/advance", { seconds: minutes * 60 });
          ({ payment, reply } = await getPayment(run, created.id));
        }
        run.expect(payment.status === "completed" && typeof payment.completed_at === "string", {
          expected: "completed, with completed_at, before the next settlement cut-off",
          actual: `${payment.status}, completed_at ${payment.completed_at ?? "absent"}`,
          exchange: reply,
        });
      },
    },
    {
      id: "state.settles",
      title: "a completed payment settles by itself at the next daily cut-off, with settled_at after completed_at",
      api: "payments",
      profile: "sandbox",
      operation: "GET /v1/payments/{id}",
      async run(run) {
        const [created] = await newPayments(run, 1);
        if (!created) return run.cannotStart("no payment was created");
        // The first day completes it; the second crosses a cut-off after its completion.
        await run.ctx.control("/clock/advance", { seconds: 86_400 });
        await run.ctx.control("/clock/advance", { seconds: 86_400 });
        const { payment, reply } = await getPayment(run, created.id);
        const settledAt = Date.parse(payment.settled_at ?? "");
        run.expect(payment.status === "settled" && settledAt > Date.parse(payment.completed_at ?? ""), {
          expected: "settled, settled_at after completed_at, two days later",
          actual: `${payment.status}, completed_at ${payment.completed_at ?? "absent"}, settled_at ${payment.settled_at ?? "absent"}`,
          exchange: reply,
        });
      },
    },
    {
      id: "pagination.disjoint-complete",
      title: "pages are disjoint, their union equals total, has_more holds exactly with next_cursor",
      api: "payments",
      profile: "behaviour",
      operation: "GET /v1/payments",
      async run(run) {
        await newPayments(run, 7);
        const { records, firstTotal } = await walkListing(run, "limit=3");
        expectDisjointAndComplete(
          run,
          records.map((r) => r.id),
          firstTotal,
        );
      },
    },
    {
      id: "pagination.concurrent-inserts",
      title: "pagination stays disjoint and complete while payments are created between pages",
      api: "payments",
      profile: "behaviour",
      operation: "GET /v1/payments",
      async run(run) {
        await newPayments(run, 6);
        const { records, firstTotal } = await walkListing(run, "limit=4", {
          between: async () => {
            await newPayments(run, 2, 900);
          },
        });
        expectDisjointAndComplete(
          run,
          records.map((r) => r.id),
          firstTotal,
        );
      },
    },
    {
      id: "batch.isolation",
      title: "one bad entry among good ones fails alone; the good ones are created",
      api: "payments",
      profile: "behaviour",
      operation: "POST /v1/payments/batch",
      async run(run) {
        const pair = await run.ctx.requireAccountPair();
        const good = {
          amount: 500,
          currency: pair.currency,
          method: "card",
          from_account: pair.from,
          to_account: pair.to,
        };
        const reply = await run.send({
          method: "POST",
          path: "/v1/payments/batch",
          json: { payments: [good, { ...good, amount: 0 }, good] },
        });
        if (!expectSuccess(run, "payments", reply)) return;
        const results = (reply.body as { results: { index: number; outcome: string; payment?: Payment }[] }).results;
        run.expect(
          JSON.stringify(results.map((r) => [r.index, r.outcome])) ===
            JSON.stringify([
              [0, "created"],
              [1, "failed"],
              [2, "created"],
            ]),
          {
            expected: "outcomes [created, failed, created] in input order",
            actual: JSON.stringify(results.map((r) => [r.index, r.outcome])),
            exchange: reply,
          },
        );
        for (const result of results.filter((r) => r.payment)) await getPayment(run, (result.payment as Payment).id);
      },
    },
  ];
  return checks;
}

/** The first Istanbul midnight (UTC+3, no daylight saving) after `ms`: the seed's daily settlement cut-off. */
function istanbulMidnightAfter(ms: number): number {
  const day = 86_400_000;
  const offset = 3 * 3_600_000;
  return (Math.floor((ms + offset) / day) + 1) * day - offset;
}
