import { PassThrough } from "node:stream";
import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type SandboxClocks, workspaceScope } from "../clock/index.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { html } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { SandboxMetrics } from "../infrastructure/metrics/sandbox-metrics.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { istanbulDate } from "../infrastructure/time/istanbul-time.js";
import type { PaymentsStore } from "../payments/index.js";
import { filtersOf, type ListingFilters, listPayments } from "../payments/index.js";
import { workspaceTag } from "../workspaces/index.js";
import { attachmentHeader, exportFilename } from "./export-filename.js";
import type { ExportQueue } from "./export-queue.js";
import { allPayments, EXPORT_PAGE, listingTitle } from "./listing-stream.js";
import { writePaymentsCsv } from "./payments-csv.js";
import { writePaymentsPdf } from "./payments-pdf.js";

export interface PaymentExportsDeps {
  readonly payments: PaymentsStore;
  readonly secret: SandboxSecret;
  readonly exports: ExportQueue;
  /** The workspace's clock: a file is named after its date. */
  readonly clocks: SandboxClocks;
  /** An export of more rows than this is queued and e-mailed instead of downloaded. */
  readonly exportQueueRows: number;
  /** Counts each download by how it ended. */
  readonly metrics: SandboxMetrics;
}

/** The listing's first page, or the page that says what is wrong with the filter. */
async function startExport(
  deps: PaymentExportsDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
  format: "csv" | "pdf",
) {
  const key = request.dashboardKey;
  const { filters, problem } = filtersOf(request);
  let error = problem;
  if (!error) {
    try {
      await ctx.catchUp(key);
      const list = (more: { cursor: string } | ({ limit: number } & ListingFilters)) =>
        listPayments(deps.payments, deps.secret, key, more);
      const first = await list({ ...filters, limit: EXPORT_PAGE });
      // The seed: "large dashboard exports are queued rather than downloaded immediately".
      if (first.pagination.total > deps.exportQueueRows) {
        const job = await deps.exports.request(key, format, filters);
        await reply.redirect(`${DASHBOARD}/exports?queued=${encodeURIComponent(job.id)}`, 303);
        return undefined;
      }
      const at = await deps.clocks.now(workspaceScope(key));
      const name = exportFilename(workspaceTag(key), filters, istanbulDate(at), format);
      return { filters, name, at, payments: allPayments(first, (cursor) => list({ cursor })) };
    } catch (failure) {
      if (!(failure instanceof ApiFailure)) throw failure;
      error = failure.message;
    }
  }
  await ctx.render(
    request,
    reply,
    t("Export not possible", "Dışa aktarılamıyor"),
    html`<p class="error" role="alert">${error}</p><p class="actions"><a href="${DASHBOARD}">${t("Back to payments", "Ödemelere dön")}</a></p>`,
    400,
  );
  return undefined;
}

/**
 * Whether the reader went away before the file was whole: heard before the pipeline is torn down,
 * so a listing that fails (the reader still there) is told from a reader that left.
 */
function readerLeft(reply: FastifyReply): () => boolean {
  let gone = false;
  reply.raw.once("close", () => {
    gone = !reply.raw.writableFinished;
  });
  return () => gone;
}

/** The CSV, streamed page by page; how it ended (completed, abandoned, failed) counted. */
async function csvDownload(
  deps: PaymentExportsDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const started = await startExport(deps, ctx, request, reply, "csv");
  if (!started) return reply;
  const body = new PassThrough();
  const gone = readerLeft(reply);
  void reply.type("text/csv; charset=utf-8").header("content-disposition", attachmentHeader(started.name)).send(body);
  // Either way the writing stops with an error; there is no one to tell but the metrics.
  const outcome = await writePaymentsCsv(started.payments, body).then(
    () => "completed" as const,
    () => {
      const left = gone();
      body.destroy();
      return left ? ("abandoned" as const) : ("failed" as const);
    },
  );
  deps.metrics.downloadEnded("csv", outcome);
  return reply;
}

/** The PDF, streamed page by page; how it ended counted. */
async function pdfDownload(
  deps: PaymentExportsDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const started = await startExport(deps, ctx, request, reply, "pdf");
  if (!started) return reply;
  void reply.type("application/pdf").header("content-disposition", attachmentHeader(started.name));
  const body = new PassThrough();
  void reply.send(body);
  // The reader went away: the rest is work for nobody, so it stops at the next page.
  const gone = readerLeft(reply);
  const accounts = await deps.payments.accounts(request.dashboardKey);
  const outcome = await writePaymentsPdf(started.payments, listingTitle(started.filters, accounts), body, gone, {
    workspace: workspaceTag(request.dashboardKey),
    generatedAt: started.at,
    accounts,
  }).catch(() => {
    body.destroy();
    return "failed" as const;
  });
  deps.metrics.downloadEnded("pdf", outcome);
  return reply;
}

/** The overview's current filter as CSV (the seed's dashboard columns, the client's writer) or PDF. */
export function paymentExportsPages(deps: PaymentExportsDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    dashboard.get(`${DASHBOARD}/export.csv`, { preHandler: ctx.requireSession }, (request, reply) =>
      csvDownload(deps, ctx, request, reply),
    );

    dashboard.get(`${DASHBOARD}/export.pdf`, { preHandler: ctx.requireSession }, (request, reply) =>
      pdfDownload(deps, ctx, request, reply),
    );
  };
}
