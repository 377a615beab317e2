import { type FaultRule, proxiedDuringSuite, repeatingCursor } from "@payspec/fault-proxy";
import { startSandbox } from "@payspec/sandbox";
import { redactCardData } from "@payspec/server-kit";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CannotRun, parseOptions, runVerification, type VerificationReport } from "../src/index.js";
import { reportEdited } from "./support/edited-report.js";

const suite = proxiedDuringSuite(() => startSandbox(), { beforeAll, afterAll, beforeEach });

async function verifyThroughProxy(
  profile: string,
  rule?: FaultRule,
  extra: readonly string[] = [],
): Promise<VerificationReport> {
  if (rule) suite.proxy.inject(rule);
  return runVerification(parseOptions(["--target", suite.proxy.url, "--profile", profile, "--seed", "7", ...extra]));
}

function failedChecks(report: VerificationReport): Record<string, string[]> {
  return Object.fromEntries(
    report.results
      .filter((r) => r.status === "failed" || r.status === "error")
      .map((r) => [r.id, r.violations.map((v) => `${v.expected} | ${v.actual}`)]),
  );
}

const path = (url: string) => url.split("?")[0] ?? url;

interface KnownFault {
  readonly fault: string;
  readonly profile: string;
  /** A fresh rule per run: some faults keep state (the page before, the references seen). */
  readonly rule: () => FaultRule;
  readonly caughtBy: string;
  /**
   * The check whose requests meet the fault, run alone with `--only` (the run's findings about card
   * data and credentials come with it): `caughtBy` itself unless it judges what other checks received.
   */
  readonly meetsIt?: string;
  readonly saying: string | RegExp;
}

/** The provider answers a filtered listing with the last unfiltered page it served (the filter ignored). */
function ignoresFilter(parameter: string): FaultRule {
  let unfiltered: unknown[] = [];
  return {
    when: (r) => r.method === "GET" && path(r.url) === "/v1/payments",
    fault: {
      kind: "rewrite",
      rewrite: (page, request) => {
        if (!request.url.includes(`${parameter}=`)) {
          unfiltered = page.data;
          return page;
        }
        return { ...page, data: unfiltered, pagination: { ...page.pagination, total: unfiltered.length } };
      },
    },
  };
}

/** Provider faults, each with the named check that must catch it and what that check must say. */
const FAULTS: readonly KnownFault[] = [
  {
    fault: "a dropped required field",
    profile: "schema",
    rule: () => ({
      when: (r) => r.method === "GET" && /^\/v1\/payments\/pay_/.test(path(r.url)),
      fault: { kind: "rewrite", rewrite: ({ status: _dropped, ...rest }) => rest },
    }),
    caughtBy: "positive.getPayment",
    saying: "must have required property 'status'",
  },
  {
    fault: "a field of the wrong type",
    profile: "schema",
    rule: () => ({
      when: (r) => r.method === "GET" && path(r.url) === "/v1/accounts",
      fault: {
        kind: "rewrite",
        rewrite: (accounts) => accounts.map((a: { balance: number }) => ({ ...a, balance: String(a.balance) })),
      },
    }),
    caughtBy: "positive.listAccounts",
    saying: "/0/balance must be number",
  },
  {
    fault: "an invalid card accepted",
    profile: "schema",
    rule: () => ({
      when: (r) => r.method === "POST" && path(r.url) === "/api/v1/payments/card" && /"cvc":"[^"]*x!"/.test(r.body),
      fault: {
        kind: "replace",
        replace: ({ body }) => ({ status: 200, body: body.code ? { message: "ok", response: {} } : body }),
      },
    }),
    caughtBy: "negative.createCardPayment",
    saying: "card.cvc",
  },
  {
    fault: "a cursor that repeats a record",
    profile: "behaviour",
    rule: () => {
      // The provider's next page starts again with the last record of the page before.
      let previousLast: unknown;
      return {
        when: (r) => r.method === "GET" && path(r.url) === "/v1/payments",
        fault: {
          kind: "rewrite",
          rewrite: (page, request) => {
            const data = (page.data ?? []) as unknown[];
            const repeated =
              request.url.includes("cursor=") && previousLast
                ? { ...page, data: [previousLast, ...data.slice(1)] }
                : page;
            previousLast = data[data.length - 1];
            return repeated;
          },
        },
      };
    },
    caughtBy: "pagination.disjoint-complete",
    saying: "pages that never repeat a record",
  },
  {
    fault: "a missing 401",
    profile: "schema",
    rule: () => ({
      when: (r) => path(r.url) === "/v1/accounts" && r.headers.authorization === undefined,
      fault: { kind: "respond", status: 200, body: [] },
    }),
    caughtBy: "auth.missing.listAccounts",
    saying: "401 in the API's error shape, for missing credentials",
  },
  {
    fault: "a wrong xlsx header",
    profile: "schema",
    rule: () => ({
      when: (r) => r.url.startsWith("/api/v1/general/reports/sales/daily-transactions?date="),
      fault: {
        kind: "replaceBytes",
        replace: async (bytes) => {
          const workbook = new ExcelJS.Workbook();
          await workbook.xlsx.load(bytes as never);
          (workbook.worksheets[0] as ExcelJS.Worksheet).getCell("A1").value = "Created At";
          return Buffer.from(await workbook.xlsx.writeBuffer());
        },
      },
    }),
    caughtBy: "gateway.report-headers",
    saying: 'Column 1 should be "Oluşturulma Tarihi" but is "Created At"',
  },
  {
    fault: "a CVC echoed in card payment answers",
    profile: "behaviour",
    rule: () => ({
      when: (r) => r.method === "POST" && path(r.url) === "/api/v1/payments/card",
      fault: {
        kind: "rewrite",
        rewrite: (body, request) => ({ ...body, cvc: JSON.parse(request.body || "{}").card?.cvc }),
      },
    }),
    caughtBy: "sensitive.card-data",
    meetsIt: "positive.createCardPayment",
    saying: 'a "cvc" field at cvc',
  },
  {
    fault: "a full card number echoed in an error message",
    profile: "schema",
    rule: () => ({
      when: (r) => r.method === "POST" && path(r.url) === "/api/v1/payments/card",
      fault: {
        kind: "replace",
        replace: (answer, request) =>
          answer.status === 400
            ? {
                status: 400,
                body: { code: 6001, message: `bad card ${JSON.parse(request.body || "{}").card?.cardNumber}` },
              }
            : answer,
      },
    }),
    caughtBy: "sensitive.card-data",
    meetsIt: "negative.createCardPayment",
    saying: /card number the run sent|passes Luhn/,
  },
  {
    fault: "a limit ignored on cursor pages",
    profile: "behaviour",
    rule: () => ({
      when: (r) => r.method === "GET" && path(r.url) === "/v1/payments" && r.url.includes("cursor="),
      fault: { kind: "rewrite", rewrite: (page) => ({ ...page, data: [...page.data, ...page.data] }) },
    }),
    caughtBy: "pagination.page-size",
    saying: "pages of exactly 2 records",
  },
  {
    fault: "a filter the provider ignores",
    profile: "behaviour",
    rule: () => ignoresFilter("status"),
    caughtBy: "filters.filter",
    saying: "every record of ?status=",
  },
  {
    fault: "a reference filter the provider ignores (a lost create would be taken for the wrong one)",
    profile: "behaviour",
    rule: () => ignoresFilter("reference"),
    caughtBy: "filters.filter",
    saying: "every record of ?reference=",
  },
  {
    fault: "a new payment for the same referenceId in upper case",
    profile: "behaviour",
    rule: () => ({
      when: (r) =>
        r.method === "POST" && path(r.url) === "/api/v1/payments/card" && /"referenceId":"[^"]*[A-F]/.test(r.body),
      fault: {
        kind: "rewrite",
        rewrite: (body) => ({ ...body, response: { ...body.response, id: crypto.randomUUID() } }),
      },
    }),
    caughtBy: "idempotency.reference-case",
    saying: "200 with the original payment",
  },
  {
    fault: "a different card with the same mask replayed as the original",
    profile: "behaviour",
    rule: () => {
      let original: unknown;
      return {
        when: (r) => r.method === "POST" && path(r.url) === "/api/v1/payments/card",
        fault: {
          kind: "replace",
          replace: (answer) => {
            if (answer.status === 200) original = answer.body;
            return answer.status === 400 && answer.body?.code === 6002 ? { status: 200, body: original } : answer;
          },
        },
      };
    },
    caughtBy: "idempotency.same-mask-card",
    saying: "another card under a used referenceId",
  },
  {
    fault: "a report that drops a row",
    profile: "behaviour",
    rule: () => ({
      when: (r) => r.url.startsWith("/api/v1/general/reports/sales/daily-transactions?date="),
      fault: reportEdited((sheet) => sheet.spliceRows(sheet.rowCount, 1)),
    }),
    caughtBy: "report.content",
    saying: "in the report exactly once",
  },
  {
    fault: "a report that drops the day's first row (another payment of the run)",
    profile: "behaviour",
    rule: () => ({
      when: (r) => r.url.startsWith("/api/v1/general/reports/sales/daily-transactions?date="),
      fault: reportEdited((sheet) => {
        if (sheet.rowCount > 2) sheet.spliceRows(2, 1);
      }),
    }),
    caughtBy: "report.content",
    saying: /every successful payment the run made on .* \| 1 missing/,
  },
  {
    fault: "completed payments without completed_at (settled ones keep theirs)",
    profile: "sandbox",
    rule: () => ({
      when: (r) => r.method === "GET" && /^\/v1\/payments\/pay_/.test(path(r.url)),
      fault: {
        kind: "rewrite",
        rewrite: ({ completed_at, ...payment }) =>
          payment.status === "completed" ? payment : { ...payment, completed_at },
      },
    }),
    caughtBy: "state.completes",
    saying: "completed, completed_at absent",
  },
  {
    fault: "a repeating cursor with small limits (the next page is the same page again)",
    profile: "behaviour",
    rule: () => repeatingCursor("/v1/payments"),
    caughtBy: "pagination.page-size",
    saying: "never repeats a record",
  },
  {
    fault: "a skipped record (each cursor page drops its first record)",
    profile: "behaviour",
    rule: () => ({
      when: (r) => r.method === "GET" && path(r.url) === "/v1/payments" && r.url.includes("cursor="),
      fault: { kind: "rewrite", rewrite: (page) => ({ ...page, data: page.data.slice(1) }) },
    }),
    caughtBy: "pagination.disjoint-complete",
    saying: "pagination.total",
  },
  {
    fault: "has_more without next_cursor",
    profile: "behaviour",
    rule: () => ({
      when: (r) => r.method === "GET" && path(r.url) === "/v1/payments",
      fault: {
        kind: "rewrite",
        rewrite: ({ pagination: { next_cursor: _dropped, ...pagination }, ...page }) => ({ ...page, pagination }),
      },
    }),
    caughtBy: "pagination.disjoint-complete",
    saying: "has_more exactly when there is a next_cursor",
  },
  {
    fault: "an amount as a string",
    profile: "schema",
    rule: () => ({
      when: (r) => r.method === "GET" && /^\/v1\/payments\/pay_/.test(path(r.url)),
      fault: { kind: "rewrite", rewrite: (payment) => ({ ...payment, amount: String(payment.amount) }) },
    }),
    caughtBy: "positive.getPayment",
    saying: "/amount must be integer",
  },
  {
    fault: "a created_at that is not in UTC",
    profile: "schema",
    rule: () => ({
      when: (r) => r.method === "POST" && path(r.url) === "/v1/payments",
      fault: {
        kind: "rewrite",
        rewrite: (payment) => ({ ...payment, created_at: String(payment.created_at).replace("Z", "+03:00") }),
      },
    }),
    caughtBy: "positive.createPayment",
    saying: "/created_at must match pattern",
  },
  {
    fault: "batch results out of order",
    profile: "behaviour",
    rule: () => ({
      when: (r) => r.method === "POST" && path(r.url) === "/v1/payments/batch",
      fault: { kind: "rewrite", rewrite: (answer) => ({ ...answer, results: [...answer.results].reverse() }) },
    }),
    caughtBy: "batch.isolation",
    saying: "in input order",
  },
  {
    fault: "a cancel that answers cancelled but changes nothing",
    profile: "behaviour",
    rule: () => ({
      when: (r) => r.method === "DELETE",
      fault: {
        kind: "respond",
        status: 200,
        body: {
          id: "pay_faked0",
          amount: 1,
          currency: "TRY",
          method: "eft",
          status: "cancelled",
          created_at: "2026-11-21T10:00:00.000Z",
        },
      },
    }),
    caughtBy: "state.create-get-cancel",
    saying: "status cancelled after a cancel",
  },
  {
    fault: "200 instead of 201 for a created payment",
    profile: "schema",
    rule: () => ({
      when: (r) => r.method === "POST" && path(r.url) === "/v1/payments",
      fault: { kind: "rewrite", rewrite: (payment) => payment, status: 200 },
    }),
    caughtBy: "positive.createPayment",
    saying: "status 200 is not declared",
  },
  {
    fault: "an expired token accepted",
    profile: "sandbox",
    rule: () => {
      let expired = false;
      return {
        when: (r) => {
          if (r.url.startsWith("/_sandbox/clock/advance")) expired = true;
          return expired && r.method === "POST" && path(r.url) === "/api/v1/payments/card";
        },
        fault: {
          kind: "replace",
          replace: (answer) =>
            answer.status === 401 ? { status: 200, body: { message: "ok", response: {} } } : answer,
        },
      };
    },
    caughtBy: "auth.expired.gateway",
    saying: "401 in the API's error shape",
  },
  {
    fault: "an error in the wrong shape",
    profile: "schema",
    rule: () => ({
      when: (r) => r.method === "POST" && path(r.url) === "/v1/payments",
      fault: {
        kind: "replace",
        replace: (answer) => (answer.status === 400 ? { status: 400, body: { error: "bad request" } } : answer),
      },
    }),
    caughtBy: "negative.createPayment",
    saying: "must have required property 'code'",
  },
  {
    fault: "a report with the wrong content type",
    profile: "schema",
    rule: () => ({
      when: (r) => r.url.startsWith("/api/v1/general/reports/sales/daily-transactions?date="),
      fault: { kind: "headers", headers: { "content-type": "text/csv" } },
    }),
    caughtBy: "positive.getDailyTransactionsReport",
    saying: 'content type "text/csv" is not declared',
  },
  {
    fault: "a completed payment without completed_at",
    profile: "sandbox",
    rule: () => ({
      when: (r) => r.method === "GET" && /^\/v1\/payments\/pay_/.test(path(r.url)),
      fault: { kind: "rewrite", rewrite: ({ completed_at: _dropped, ...payment }) => payment },
    }),
    caughtBy: "state.completes",
    saying: "completed_at absent",
  },
  {
    fault: "completed payments that never settle",
    profile: "sandbox",
    rule: () => ({
      when: (r) => r.method === "GET" && /^\/v1\/payments\/pay_/.test(path(r.url)),
      fault: {
        kind: "rewrite",
        rewrite: ({ settled_at: _dropped, ...payment }) =>
          payment.status === "settled" ? { ...payment, status: "completed" } : payment,
      },
    }),
    caughtBy: "state.settles",
    saying: "completed, completed_at",
  },
];

describe("the verifier reports each fault through the check that should catch it", () => {
  // Each fault's check alone, not a whole run per fault: the control case below shows that the other
  // checks pass a faithful provider, and a whole run for each of 27 faults was a tenth of the check's time.
  it.each(FAULTS)("$fault: caught by $caughtBy", async ({ profile, rule, caughtBy, meetsIt, saying }) => {
    const report = await verifyThroughProxy(profile, rule(), ["--only", meetsIt ?? caughtBy]);
    const said = failedChecks(report)[caughtBy]?.join("\n") ?? "";
    if (typeof saying === "string") expect(said).toContain(saying);
    else expect(said).toMatch(saying);
  });
  it("stops every listing walk at a repeating cursor's first repeat, instead of walking 1,000 pages", async () => {
    const repeating = FAULTS.find((f) => f.fault.startsWith("a repeating cursor"));
    const report = await verifyThroughProxy("behaviour", repeating?.rule(), ["--include-checks", "pagination,filters"]);
    const walks = report.results.filter((r) => /^(pagination|filters)\./.test(r.id));
    expect(walks.length).toBeGreaterThanOrEqual(4);
    for (const walk of walks) {
      // filters.filter walks with limit=1000: the workspace fits one page, and a cursor never comes.
      if (walk.id.startsWith("pagination.")) expect(walk.status, walk.id).toBe("failed");
      // A few pages per walk (filters walk once per filter value), never MAX_PAGES.
      expect(walk.requests, walk.id).toBeLessThan(100);
    }
    expect(failedChecks(report)["pagination.disjoint-complete"]?.join("\n")).toContain(
      "next_cursor repeats the cursor of an earlier page",
    );
  });
  it("passes a faithful provider (the control case)", async () => {
    expect(failedChecks(await verifyThroughProxy("sandbox"))).toEqual({});
  });

  it("a 500 on bad input", async () => {
    const report = await verifyThroughProxy("schema", {
      when: (r) => r.method === "POST" && path(r.url) === "/v1/payments" && r.body.includes('"amount":0'),
      fault: { kind: "respond", status: 500, body: { code: "internal_error", message: "boom" } },
    });
    const violations = failedChecks(report)["negative.createPayment"]?.join() ?? "";
    expect(violations).toContain("a declared 4xx in the API's error shape");
    expect(violations).toContain("500");
  });

  it("a cancel that succeeds from settled", async () => {
    const report = await verifyThroughProxy("sandbox", {
      when: (r) => r.method === "DELETE",
      fault: {
        kind: "replace",
        replace: (answer) =>
          answer.status === 409
            ? {
                status: 200,
                body: {
                  id: "pay_faked0",
                  amount: 1,
                  currency: "TRY",
                  method: "eft",
                  status: "cancelled",
                  created_at: "2026-11-21T10:00:00.000Z",
                },
              }
            : answer,
      },
    });
    const failed = failedChecks(report);
    expect(failed["state.cancel-forbidden"]?.join()).toContain(
      "409 in the API's error shape, for cancelling a processing payment",
    );
    expect(failed["state.cancel-twice"]).toBeDefined();
  });

  it("a new id for a repeated referenceId", async () => {
    const seen = new Set<string>();
    const report = await verifyThroughProxy("behaviour", {
      when: (r) => r.method === "POST" && path(r.url) === "/api/v1/payments/card",
      fault: {
        kind: "rewrite",
        rewrite: (body, request) => {
          const reference = String(JSON.parse(request.body || "{}").referenceId ?? "");
          const repeated = seen.has(reference);
          seen.add(reference);
          return repeated && body.response
            ? { ...body, response: { ...body.response, id: crypto.randomUUID() } }
            : body;
        },
      },
    });
    expect(failedChecks(report)["gateway.duplicate-reference"]).toBeDefined();
  });

  it("one 500 in twenty requests", async () => {
    let count = 0;
    const report = await verifyThroughProxy("schema", {
      // The run's first two requests check the credentials; the 500s then strike requests 22, 42, …
      when: (r) => !r.url.startsWith("/_sandbox") && ++count % 20 === 2 && count > 2,
      fault: { kind: "respond", status: 500, body: { code: "internal_error", message: "boom" } },
    });
    const failures = Object.values(failedChecks(report)).flat();
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.filter((f) => !/ 500 |status 500|\| 500/.test(f))).toEqual([]);
  });

  it("a listing that takes 12 s (the request times out)", async () => {
    const report = await verifyThroughProxy(
      "schema",
      {
        when: (r) => r.method === "GET" && path(r.url) === "/v1/payments",
        fault: { kind: "delay", ms: 12_000 },
        times: 1,
      },
      ["--timeout-ms", "1500", "--only", "positive.listPayments"],
    );
    expect(failedChecks(report)["positive.listPayments"]?.join()).toContain("no answer within 1500 ms");
  });

  it("a listing that takes 12 s before a run that writes: one sentence, exit 2, no stack", async () => {
    const run = verifyThroughProxy(
      "behaviour",
      {
        when: (r) => r.method === "GET" && path(r.url) === "/v1/payments",
        fault: { kind: "delay", ms: 12_000 },
        times: 1,
      },
      ["--timeout-ms", "1500"],
    );
    await expect(run).rejects.toThrow(
      /the provider did not answer the run's first requests \(no answer within 1500 ms\)/,
    );
    await expect(run).rejects.toBeInstanceOf(CannotRun);
  });

  it("a listing whose pagination.total is off by one: the provider's inconsistency, not the user's workspace", async () => {
    const run = verifyThroughProxy("behaviour", {
      when: (r) => r.method === "GET" && r.url === "/v1/payments?limit=1",
      fault: {
        kind: "rewrite",
        rewrite: (page) => ({ ...page, pagination: { ...page.pagination, total: page.pagination.total + 1 } }),
      },
      times: 1,
    });
    await expect(run).rejects.toThrow(/the provider contradicts itself: .*pagination.total is 1 but lists no payment/);
  });
});

describe("every failure can be reproduced", () => {
  it("carries a curl line with credentials as variables, and the flags that re-run just that check", async () => {
    const report = await verifyThroughProxy("schema", {
      when: (r) => r.method === "GET" && /^\/v1\/payments\/pay_/.test(path(r.url)),
      fault: { kind: "rewrite", rewrite: ({ id: _id, ...rest }) => rest },
    });
    const failed = report.results.find((r) => r.status === "failed");
    const violation = failed?.violations[0];
    expect(violation?.reproduce).toMatch(
      /^curl -sS -X GET '.*\/v1\/payments\/pay_\w+' -H "Authorization: Bearer \$PAYSPEC_VERIFY_API_KEY"/,
    );
    expect(violation?.reproduce).not.toContain("sk_sandbox_demo_1");
    expect(violation?.rerun).toBe(`--target ${suite.proxy.url} --api both --seed 7 --only ${failed?.id}`);
    // The re-run line is the whole command: pasted as it is, it runs that check again.
    const again = await runVerification(parseOptions((violation?.rerun ?? "").split(" ")));
    expect(again.results.map((r) => r.id)).toEqual([failed?.id, "sensitive.card-data", "sensitive.credentials"]);
    expect(again.results.find((r) => r.id === failed?.id)?.status).toBe("failed");
  });
});

describe("its own output holds no card data", () => {
  it("never repeats card data a provider leaked in an answer that broke a check", async () => {
    const report = await verifyThroughProxy("schema", {
      when: (r) => r.method === "POST" && path(r.url) === "/api/v1/payments/card",
      fault: {
        kind: "replace",
        replace: (answer, request) => {
          const card = JSON.parse(request.body || "{}").card ?? {};
          return answer.status === 400
            ? { status: 200, body: { message: `accepted ${card.cardNumber}`, card: { cvc: card.cvc } } }
            : answer;
        },
      },
    });
    const negative = report.results.find((r) => r.id === "negative.createCardPayment");
    expect(negative?.violations.some((v) => v.actual.includes("accepted "))).toBe(true);
    const text = JSON.stringify(report);
    expect(text).not.toMatch(/(?<![\d.])\d{13,19}(?![\d.])/);
    expect(text).not.toMatch(/\\"cvc\\":\s*\\?"?\d/);
  });

  it("masks a numeric CVC and card numbers in what it records", () => {
    expect(redactCardData('{"card":{"cvc":1234,"cardNumber":"4543590000000006"},"cvv": "987"}')).toBe(
      '{"card":{"cvc":"***","cardNumber":"454359******0006"},"cvv":"***"}',
    );
  });
});
