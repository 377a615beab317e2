import { PassThrough } from "node:stream";
import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { allPayments, EXPORT_PAGE, listingTitle } from "../exports/listing-stream.js";
import { writePaymentsCsv } from "../exports/payments-csv.js";
import { writePaymentsPdf } from "../exports/payments-pdf.js";
import { type ListingFilters, listPayments } from "../payments/list-payments.js";
import type { DashboardContext } from "./context.js";
import { html } from "./html.js";
import { DASHBOARD } from "./layout.js";
import { filtersOf } from "./payments-pages.js";

/** The overview's current filter as CSV (the seed's dashboard columns, the client's writer) or PDF. */
export function registerPaymentExports(dashboard: FastifyInstance, ctx: DashboardContext): void {
  const { deps } = ctx;

  /** The listing's first page, or the page that says what is wrong with the filter. */
  const start = async (request: FastifyRequest, reply: FastifyReply, format: "csv" | "pdf") => {
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
        return { filters, payments: allPayments(first, (cursor) => list({ cursor })) };
      } catch (failure) {
        if (!(failure instanceof ApiFailure)) throw failure;
        error = failure.message;
      }
    }
    await ctx.render(
      request,
      reply,
      "Export not possible",
      html`<p class="error" role="alert">${error}</p><p><a href="${DASHBOARD}">Back to payments</a></p>`,
      400,
    );
    return undefined;
  };

  dashboard.get(`${DASHBOARD}/export.csv`, { preHandler: ctx.requireSession }, async (request, reply) => {
    const started = await start(request, reply, "csv");
    if (!started) return reply;
    const body = new PassThrough();
    void reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", 'attachment; filename="payments.csv"')
      .send(body);
    // A reader that goes away ends the pipeline with an error; there is no one left to tell.
    await writePaymentsCsv(started.payments, body).catch(() => body.destroy());
    return reply;
  });

  dashboard.get(`${DASHBOARD}/export.pdf`, { preHandler: ctx.requireSession }, async (request, reply) => {
    const started = await start(request, reply, "pdf");
    if (!started) return reply;
    void reply.type("application/pdf").header("content-disposition", 'attachment; filename="payments.pdf"');
    const body = new PassThrough();
    void reply.send(body);
    // The reader went away: the rest is work for nobody, so it stops at the next page.
    let gone = false;
    reply.raw.once("close", () => {
      gone = !reply.raw.writableFinished;
    });
    await writePaymentsPdf(started.payments, listingTitle(started.filters), body, () => gone).catch(() =>
      body.destroy(),
    );
    return reply;
  });
}
