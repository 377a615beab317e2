import { PassThrough } from "node:stream";
import { writeRecords } from "@payspec/client-core";
import { type Payment, type PaymentPage, paymentCsvColumns } from "@payspec/payments-zod";
import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { writePaymentsPdf } from "../exports/payments-pdf.js";
import { type ListingFilters, listPayments } from "../payments/list-payments.js";
import type { DashboardContext } from "./context.js";
import { html } from "./html.js";
import { DASHBOARD } from "./layout.js";
import { filtersOf } from "./payments-pages.js";

/** Records per listing page while exporting: big pages, few queries, still a bounded amount held at once. */
const EXPORT_PAGE = 1_000;
/** Every payment of a listing, page after page through its cursors (one snapshot, however long it takes). */
async function* allPayments(
  first: PaymentPage,
  next: (cursor: string) => Promise<PaymentPage>,
): AsyncGenerator<Payment> {
  let page = first;
  for (;;) {
    yield* page.data;
    const cursor = page.pagination.next_cursor;
    if (!cursor) return;
    page = await next(cursor);
  }
}

/** The overview's current filter as CSV (the seed's dashboard columns, the client's writer) or PDF. */
export function registerPaymentExports(dashboard: FastifyInstance, ctx: DashboardContext): void {
  const { deps } = ctx;

  /** The listing's first page, or the page that says what is wrong with the filter. */
  const start = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.dashboardKey;
    const { filters, problem } = filtersOf(request);
    let error = problem;
    if (!error) {
      try {
        await ctx.catchUp(key);
        const list = (more: { cursor: string } | ({ limit: number } & ListingFilters)) =>
          listPayments(deps.payments, deps.secret, key, more);
        const first = await list({ ...filters, limit: EXPORT_PAGE });
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
    const started = await start(request, reply);
    if (!started) return reply;
    const body = new PassThrough();
    void reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", 'attachment; filename="payments.csv"')
      .send(body);
    // A byte order mark: without it Excel on Windows reads UTF-8 as its ANSI code page and "Kasım" breaks.
    body.write("\uFEFF");
    // A reader that goes away ends the pipeline with an error; there is no one left to tell.
    await writeRecords(started.payments, body, "csv", paymentCsvColumns).catch(() => body.destroy());
    return reply;
  });

  dashboard.get(`${DASHBOARD}/export.pdf`, { preHandler: ctx.requireSession }, async (request, reply) => {
    const started = await start(request, reply);
    if (!started) return reply;
    // Only the filters that were given: "status completed, from 2026-11-01", never "method undefined".
    const filterText = Object.entries(started.filters)
      .filter(([, value]) => value !== undefined && value !== "")
      .map(([name, value]) => `${name} ${value}`)
      .join(", ");
    void reply.type("application/pdf").header("content-disposition", 'attachment; filename="payments.pdf"');
    const body = new PassThrough();
    void reply.send(body);
    // The reader went away: the rest is work for nobody, so it stops at the next page.
    let gone = false;
    reply.raw.once("close", () => {
      gone = !reply.raw.writableFinished;
    });
    const title = `Payments${filterText ? ` (${filterText})` : ""}`;
    await writePaymentsPdf(started.payments, title, body, () => gone).catch(() => body.destroy());
    return reply;
  });
}
