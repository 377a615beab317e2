import type { Artefact } from "../artefact.js";
import { tsHeader } from "../artefact.js";
import { reportColumnsOf } from "../generator-input.js";
import type { LoadedSpec } from "../load-spec.js";

/** The daily report's column headers and fields, in the file's order, from `x-report-columns`. */
export function reportColumns(spec: LoadedSpec, packageDir: string): Artefact {
  const columns = reportColumnsOf(spec.bundled).map((c) => ({ header: c.header, field: c.field }));
  const body = [
    "/** The daily transactions report's columns, in the file's order: Turkish header and row field. */",
    `export const dailyTransactionsReportColumns = ${JSON.stringify(columns, null, 2)} as const;`,
    "",
    'export type DailyTransactionsReportField = (typeof dailyTransactionsReportColumns)[number]["field"];',
    "",
  ].join("\n");
  return {
    path: `${packageDir}/src/generated/report-columns.gen.ts`,
    content: `${tsHeader(spec.provenance)}\n${body}`,
  };
}
