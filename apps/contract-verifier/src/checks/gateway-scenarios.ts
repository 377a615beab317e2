import { parseDailyReport, ReportFormatError } from "@payspec/card-gateway-client";
import { specExamples } from "@payspec/specs";
import type { Check, CheckRun } from "../check.js";
import { istanbulToday } from "../operation-requests.js";
import { describeReply, expectClientError, expectSuccess } from "./expectations.js";

interface CardPayment {
  readonly id: string;
  readonly transactionId: string;
  readonly referenceId: string;
  readonly createdDate: string;
  readonly paymentStatus: string;
}

function cardRequest(run: CheckRun): Record<string, unknown> {
  const example = specExamples(run.ctx.api("gateway").spec).find(
    (e) => e.operationId === "createCardPayment" && e.part === "request",
  );
  return { ...(structuredClone(example?.value) as Record<string, unknown>), referenceId: run.ctx.uuid() };
}

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

/** The gateway scenarios: token reuse, duplicate references, lookup, the day's report. */
export function gatewayScenarios(): Check[] {
  return [
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
