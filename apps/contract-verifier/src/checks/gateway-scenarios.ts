import type { DailyTransactionsReportRow } from "@payspec/card-gateway-client";
import { parseDailyReport, ReportFormatError } from "@payspec/card-gateway-client";
import type { Check, CheckRun } from "../check.js";
import type { PaidCard } from "../context.js";
import { cardPaymentRequest, istanbulToday } from "../operation-requests.js";
import { describeReply, expectClientError, expectSuccess } from "./expectations.js";

interface CardPayment {
  readonly id: string;
  readonly transactionId: string;
  readonly referenceId: string;
  readonly createdDate: string;
  readonly paymentStatus: string;
}

const cardRequest = (run: CheckRun) => cardPaymentRequest(run.ctx);

async function pay(run: CheckRun, body: Record<string, unknown>): Promise<CardPayment | undefined> {
  const reply = await run.send({ method: "POST", path: "/api/v1/payments/card", json: body });
  return expectSuccess(run, "gateway", reply) ? (reply.body as { response: CardPayment }).response : undefined;
}

const REPORT = "/api/v1/general/reports/sales/daily-transactions";

/** A fresh login of the check's own, checked against the spec; undefined when it failed. */
async function login(run: CheckRun): Promise<{ accessToken: string; expiresIn?: number } | undefined> {
  const reply = await run.send({
    method: "POST",
    path: "/auth/login",
    headers: { "content-type": "application/json" },
  });
  return expectSuccess(run, "gateway", reply) ? (reply.body as { accessToken: string; expiresIn?: number }) : undefined;
}

/** Reads a report the way a client would; a wrong header or row is a violation, not a crash. */
async function report(run: CheckRun, date: string) {
  const reply = await run.send({ method: "GET", path: `${REPORT}?date=${date}` });
  if (!expectSuccess(run, "gateway", reply)) return undefined;
  try {
    return await parseDailyReport(reply.bytes);
  } catch (error) {
    if (!(error instanceof ReportFormatError)) throw error;
    run.expect(false, {
      expected: "an .xlsx with the spec's twelve columns in order and rows that fit them",
      actual: error.message,
      exchange: reply,
    });
    return undefined;
  }
}

/** The report's rows for one successful card payment of the run: exactly one, with its reference, amount, currency and masked card. */
function expectInReport(run: CheckRun, day: string, rows: readonly DailyTransactionsReportRow[], paid: PaidCard): void {
  const mine = rows.filter((r) => r.referenceId.toLowerCase() === paid.referenceId.toLowerCase());
  const row = mine[0];
  if (
    !run.expect(mine.length === 1, {
      expected: `the payment ${paid.transactionId} (reference ${paid.referenceId}) in the report of ${day} exactly once`,
      actual: `${mine.length} rows`,
    }) ||
    !row
  )
    return;
  const shown = { transactionId: row.transactionId, amount: row.amount, currency: row.currency, card: row.cardNumber };
  const answered = {
    transactionId: paid.transactionId,
    amount: paid.amount,
    currency: paid.currency,
    card: paid.maskedCard,
  };
  run.expect(JSON.stringify(shown) === JSON.stringify(answered), {
    expected: `its row as the payment was answered: ${JSON.stringify(answered)}`,
    actual: JSON.stringify(shown),
  });
}

/** The gateway scenarios: token reuse, duplicate references, lookup, the day's report. */
export function gatewayScenarios(): Check[] {
  return [
    {
      id: "idempotency.reference-case",
      title: "the same payment re-sent with its referenceId in upper case is replayed, not charged again",
      api: "gateway",
      profile: "behaviour",
      operation: "POST /api/v1/payments/card",
      async run(run) {
        const body = cardRequest(run);
        const first = await pay(run, body);
        if (!first) return;
        const upper = await run.send({
          method: "POST",
          path: "/api/v1/payments/card",
          json: { ...body, referenceId: String(body.referenceId).toUpperCase() },
        });
        const replayed = (upper.body as { response?: CardPayment } | undefined)?.response;
        run.expect(upper.status === 200 && replayed?.id === first.id, {
          expected: `200 with the original payment ${first.id} (a UUID is case-insensitive)`,
          actual: describeReply(upper),
          exchange: upper,
        });
      },
    },
    {
      id: "idempotency.same-mask-card",
      title: "a different card with the same mask under a used referenceId is refused (6002), not replayed",
      api: "gateway",
      profile: "behaviour",
      operation: "POST /api/v1/payments/card",
      async run(run) {
        const body = cardRequest(run);
        const card = body.card as { cardNumber: string };
        const first = await pay(run, body);
        if (!first) return;
        // Same first six and last four digits, different middle: another card.
        const twin = `${card.cardNumber.slice(0, 6)}${"5".repeat(card.cardNumber.length - 10)}${card.cardNumber.slice(-4)}`;
        const other = await run.send({
          method: "POST",
          path: "/api/v1/payments/card",
          json: { ...body, card: { ...card, cardNumber: twin } },
        });
        expectClientError(run, "gateway", other, 400, "another card under a used referenceId");
        run.expect((other.body as { code?: unknown } | undefined)?.code === 6002, {
          expected: "code 6002 (referenceId used by a different request)",
          actual: describeReply(other),
          exchange: other,
        });
      },
    },
    {
      id: "report.content",
      title: "a payment made in the run appears in the day's report once, masked, with its amounts",
      api: "gateway",
      profile: "behaviour",
      operation: `GET ${REPORT}`,
      async run(run) {
        // Two payments of its own, so that a report that loses a row (its first or its last) shows.
        const earlier = await pay(run, cardRequest(run));
        const paid = await pay(run, cardRequest(run));
        if (!paid || !earlier) return;
        if (paid.paymentStatus !== "SUCCESS") return run.cannotStart("the provider declined the spec's example card");
        const day = paid.createdDate.slice(0, 10);
        const rows = await report(run, day);
        if (!rows) return;
        // Every successful payment the run made that day, whichever check made it, is in the report.
        const inReport = new Set(rows.map((r) => r.referenceId.toLowerCase()));
        const missing = [...run.ctx.paidCards].filter(([ref, made]) => made.day === day && !inReport.has(ref));
        run.expect(missing.length === 0, {
          expected: `every successful payment the run made on ${day} in that day's report (${[...run.ctx.paidCards.values()].filter((p) => p.day === day).length})`,
          actual: `${missing.length} missing: ${missing
            .slice(0, 5)
            .map(([, made]) => made.transactionId)
            .join(", ")}`,
        });
        const mine = rows.filter((r) => r.referenceId.toLowerCase() === paid.referenceId.toLowerCase());
        run.expect(mine.length === 1, {
          expected: `the payment ${paid.transactionId} in the report exactly once`,
          actual: `${mine.length} rows`,
        });
        const row = mine[0];
        const sent = paid as unknown as { amount: number; cardDetails: { cardNumber: string } };
        if (row) {
          run.expect(row.cardNumber === sent.cardDetails.cardNumber && row.amount === sent.amount, {
            expected: `masked card ${sent.cardDetails.cardNumber} and amount ${sent.amount}`,
            actual: `${row.cardNumber}, ${row.amount}`,
          });
        }
        const fullNumbers = rows.filter((r) => /^\d{13,19}$/.test(String(r.cardNumber)));
        run.expect(fullNumbers.length === 0, {
          expected: "no full card number in any cell",
          actual: `${fullNumbers.length} rows with a full card number`,
        });
      },
    },
    {
      id: "report.every-payment",
      title:
        "after every other check, each day's report holds every successful card payment the run made, once, with its amount",
      api: "gateway",
      profile: "behaviour",
      operation: `GET ${REPORT}`,
      runsLast: true,
      async run(run) {
        const byDay = new Map<string, PaidCard[]>();
        for (const paid of run.ctx.paidCards.values()) byDay.set(paid.day, [...(byDay.get(paid.day) ?? []), paid]);
        if (byDay.size === 0) return run.skip("the run made no successful card payment to look for");
        for (const [day, paidThatDay] of byDay) {
          const rows = await report(run, day);
          if (!rows) continue;
          for (const paid of paidThatDay) expectInReport(run, day, rows, paid);
        }
      },
    },
    {
      id: "gateway.report-headers",
      title: "the daily report is an .xlsx whose headers are the seed's twelve, in order",
      api: "gateway",
      profile: "schema",
      operation: `GET ${REPORT}`,
      async run(run) {
        await report(run, istanbulToday());
      },
    },
    {
      id: "gateway.token-reuse",
      title: "one login's token serves several calls",
      api: "gateway",
      profile: "behaviour",
      operation: "POST /auth/login",
      async run(run) {
        const issued = await login(run);
        if (!issued) return;
        const token = issued.accessToken;
        for (let i = 0; i < 3; i++) {
          const reply = await run.send({
            method: "POST",
            path: "/api/v1/payments/card",
            json: cardRequest(run),
            auth: { authorization: `Bearer ${token}` },
          });
          expectSuccess(run, "gateway", reply);
        }
      },
    },
    {
      id: "gateway.duplicate-reference",
      title: "a repeated referenceId never charges twice",
      api: "gateway",
      profile: "behaviour",
      operation: "POST /api/v1/payments/card",
      async run(run) {
        const body = cardRequest(run);
        const first = await pay(run, body);
        if (!first) return;
        const again = await run.send({ method: "POST", path: "/api/v1/payments/card", json: body });
        const replayed = again.status === 200 && (again.body as { response?: CardPayment }).response?.id === first.id;
        run.expect(replayed || (again.status >= 400 && again.status < 500), {
          expected: "the original payment again, or a 4xx refusal; never a second charge",
          actual: describeReply(again),
          exchange: again,
        });
        if (again.status >= 400) expectClientError(run, "gateway", again, undefined, "a repeated referenceId");
        const rows = await report(run, first.createdDate.slice(0, 10));
        const charges = rows?.filter((r) => r.referenceId === body.referenceId).length ?? 1;
        run.expect(charges === 1, {
          expected: "one row for the reference in the day's report",
          actual: `${charges} rows`,
        });
      },
    },
    {
      id: "gateway.lookup-after-payment",
      title: "a payment is found by its referenceId, with the same id",
      api: "gateway",
      profile: "behaviour",
      operation: "GET /api/v1/payments/reference/{referenceId}",
      async run(run) {
        const paid = await pay(run, cardRequest(run));
        if (!paid) return;
        const reply = await run.send({ method: "GET", path: `/api/v1/payments/reference/${paid.referenceId}` });
        if (!expectSuccess(run, "gateway", reply)) return;
        const found = (reply.body as { response: CardPayment }).response;
        run.expect(found.id === paid.id && found.referenceId === paid.referenceId, {
          expected: `payment ${paid.id} for reference ${paid.referenceId}`,
          actual: `payment ${found.id} for reference ${found.referenceId}`,
          exchange: reply,
        });
      },
    },
    {
      id: "gateway.report-contains-payment",
      title: "the day's report holds the day's successful payment",
      api: "gateway",
      profile: "behaviour",
      operation: `GET ${REPORT}`,
      async run(run) {
        const paid = await pay(run, cardRequest(run));
        if (!paid) return;
        const rows = await report(run, paid.createdDate.slice(0, 10));
        if (!rows) return;
        run.expect(
          rows.some((r) => r.transactionId === paid.transactionId && r.status === "SUCCESS"),
          {
            expected: `a SUCCESS row for transaction ${paid.transactionId}`,
            actual: `${rows.length} rows without it`,
          },
        );
      },
    },
    {
      id: "auth.expired.gateway",
      title: "an expired access token gets 401",
      api: "gateway",
      profile: "sandbox",
      operation: "POST /api/v1/payments/card",
      async run(run) {
        const issued = await login(run);
        if (!issued) return;
        const { accessToken, expiresIn } = issued;
        await run.ctx.control("/clock/advance", { seconds: (expiresIn ?? 86_400) + 1 }, accessToken);
        run.ctx.dropToken();
        const reply = await run.send({
          method: "POST",
          path: "/api/v1/payments/card",
          json: cardRequest(run),
          auth: { authorization: `Bearer ${accessToken}` },
        });
        expectClientError(run, "gateway", reply, 401, "an expired token");
      },
    },
  ];
}
