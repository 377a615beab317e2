import type { OpenApiDocument } from "./load-spec.js";

interface ReportColumn {
  readonly header: string;
  readonly field: string;
  readonly description?: string;
  readonly schema: Record<string, unknown>;
}

const REPORT_PATH = "/api/v1/general/reports/sales/daily-transactions";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The ordered report columns a spec declares in `x-report-columns`, or none. */
export function reportColumnsOf(spec: OpenApiDocument): ReportColumn[] {
  // biome-ignore lint/suspicious/noExplicitAny: walking an untyped OpenAPI document
  const paths = spec.paths as Record<string, any> | undefined;
  return paths?.[REPORT_PATH]?.get?.responses?.["200"]?.content?.[XLSX]?.["x-report-columns"] ?? [];
}

/**
 * The document the type and zod generators read: the bundled spec, plus a `DailyTransactionsReportRow`
 * component built from `x-report-columns`, so report rows get a generated type and schema while the
 * spec keeps the columns in one place.
 */
export function generatorInput(spec: OpenApiDocument): OpenApiDocument {
  const columns = reportColumnsOf(spec);
  if (columns.length === 0) return spec;
  const copy = structuredClone(spec) as OpenApiDocument & { components: { schemas: Record<string, unknown> } };
  copy.components.schemas.DailyTransactionsReportRow = {
    type: "object",
    description: "One row of the daily transactions report, keyed by field; x-report-columns gives the headers.",
    required: columns.map((c) => c.field),
    properties: Object.fromEntries(
      columns.map((c) => [c.field, { ...c.schema, ...(c.description ? { description: c.description } : {}) }]),
    ),
  };
  return copy;
}
