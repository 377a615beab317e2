import { type FaultRule, proxiedDuringSuite } from "@payspec/fault-proxy";
import { startSandbox } from "@payspec/sandbox";
import type ExcelJS from "exceljs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseOptions, runVerification, type VerificationReport } from "../src/index.js";
import { reportEdited } from "./support/edited-report.js";

/**
 * The day's report must hold every successful card payment the run made that day, each with its
 * amount and reference, whichever check made it and whenever. A report that lost its last row once
 * passed when that row was a payment made after the report check had read the report.
 */
const suite = proxiedDuringSuite(() => startSandbox(), { beforeAll, afterAll, beforeEach });

const REPORT = "/api/v1/general/reports/sales/daily-transactions?date=";
const CARD_PAYMENT = "/api/v1/payments/card";
/** The report's column of the referenceId (the seed's twelfth). */
const REFERENCE_COLUMN = 12;

/** Successful card payments, in the order the provider answered them, as the proxy saw them. */
function successesSeen(): { rule: FaultRule; references: string[] } {
  const references: string[] = [];
  return {
    references,
    rule: {
      when: (r) => r.method === "POST" && r.url === CARD_PAYMENT,
      fault: {
        kind: "rewrite",
        rewrite: (body) => {
          if (body?.response?.paymentStatus === "SUCCESS") references.push(String(body.response.referenceId));
          return body;
        },
      },
    },
  };
}

/** Every report on its way to the verifier, with its rows changed by `edit`. */
const reportsEdited = (edit: (sheet: ExcelJS.Worksheet) => void): FaultRule => ({
  when: (r) => r.url.startsWith(REPORT),
  fault: reportEdited(edit),
});

const rowOf = (sheet: ExcelJS.Worksheet, reference: string | undefined) => {
  for (let r = 2; r <= sheet.rowCount; r++)
    if (String(sheet.getRow(r).getCell(REFERENCE_COLUMN).value).toLowerCase() === reference?.toLowerCase()) return r;
  return undefined;
};

// The checks that pay, and the report's; the negative and credential checks make no payment and are
// left out to keep a run per row short.
const verify = () =>
  runVerification(
    parseOptions([
      ...["--target", suite.proxy.url, "--api", "gateway", "--profile", "behaviour", "--seed", "7"],
      ...["--exclude-checks", "negative,auth,generated"],
    ]),
  );

const reportFindings = (report: VerificationReport) =>
  report.results
    .filter((r) => r.id.startsWith("report.") && r.status === "failed")
    .flatMap((r) => r.violations.map((v) => `${r.id}: ${v.expected} | ${v.actual}`));

describe("the day's report holds every successful card payment of the run", () => {
  // A faithful provider first: how many successful payments a run makes, and that none is missed.
  let paidInRun = 0;
  beforeAll(async () => {
    const seen = successesSeen();
    suite.proxy.inject(seen.rule);
    const report = await verify();
    expect(reportFindings(report)).toEqual([]);
    expect(report.results.find((r) => r.id === "report.every-payment")?.status).toBe("passed");
    paidInRun = seen.references.length;
  }, 120_000);

  it("runs after every other check, so the payments made after report.content are looked for too", async () => {
    const seen = successesSeen();
    suite.proxy.inject(seen.rule);
    const report = await verify();
    expect(report.results.filter((r) => r.id.startsWith("report.") || r.id.startsWith("gateway.")).at(-1)?.id).toBe(
      "report.every-payment",
    );
    expect(seen.references.length).toBeGreaterThanOrEqual(10);
  });

  it("finds any one of the run's rows missing from the report, whichever it is", async () => {
    expect(paidInRun).toBeGreaterThanOrEqual(10);
    for (let k = 0; k < paidInRun; k++) {
      suite.proxy.clear();
      const seen = successesSeen();
      suite.proxy.inject(seen.rule);
      suite.proxy.inject(
        reportsEdited((sheet) => {
          const row = rowOf(sheet, seen.references[k]);
          if (row !== undefined) sheet.spliceRows(row, 1);
        }),
      );
      const findings = reportFindings(await verify());
      const dropped = seen.references[k] ?? "";
      expect(findings.join("\n"), `payment ${k + 1} of ${paidInRun}`).toContain(`reference ${dropped}`);
    }
  }, 300_000);

  it("finds the last payment's row with another amount", async () => {
    const seen = successesSeen();
    suite.proxy.inject(seen.rule);
    suite.proxy.inject(
      reportsEdited((sheet) => {
        const row = rowOf(sheet, seen.references.at(-1));
        if (row !== undefined) sheet.getRow(row).getCell(5).value = 0.01;
      }),
    );
    const findings = reportFindings(await verify());
    expect(findings.join("\n")).toMatch(
      /report\.every-payment: its row as the payment was answered: .* \| .*"amount":0\.01/,
    );
  });
});
