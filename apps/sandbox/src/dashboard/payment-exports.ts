import { PassThrough } from "node:stream";
import { setImmediate, setTimeout as sleep } from "node:timers/promises";
import { writeRecords } from "@payspec/client-core";
import { type Payment, type PaymentPage, paymentCsvColumns } from "@payspec/payments-zod";
import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import PDFDocument from "pdfkit";
import { type ListingFilters, listPayments } from "../payments/list-payments.js";
import type { DashboardContext } from "./context.js";
import { html } from "./html.js";
import { DASHBOARD } from "./layout.js";
import { money } from "./money-format.js";
import { filtersOf } from "./payments-pages.js";

/** Records per listing page while exporting: big pages, few queries, still a bounded amount held at once. */
const EXPORT_PAGE = 1_000;
/** PDF output waiting for a slow reader beyond this stops the writing until it drains. */
const PDF_BACKLOG_BYTES = 1 << 20;

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

/**
 * Columns and their widths in characters: one monospaced line per payment, one text call per row.
 * Timestamps, payment ids and account ids always fit whole (a payment must be identifiable from the
 * PDF); only a long reference or description is cut. 200 characters of 6.5 pt Courier fill the page.
 */
const PDF_COLUMNS = [
  ["created_at", 25],
  ["id", 22],
  ["amount", 20],
  ["method", 16],
  ["status", 11],
  ["from_account", 24],
  ["to_account", 24],
  ["reference", 30],
  ["description", 28],
] as const;
const ROW_HEIGHT = 10;
const FONT_SIZE = 6.5;

function pdfCell(payment: Payment, column: (typeof PDF_COLUMNS)[number][0]): string {
  const text = column === "amount" ? money(payment.amount, payment.currency) : String(payment[column] ?? "");
  return text.replace(/\s+/g, " ");
}

function pdfLine(cells: (name: (typeof PDF_COLUMNS)[number][0]) => string): string {
  return PDF_COLUMNS.map(([name, width]) => {
    const text = cells(name);
    return (text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text).padEnd(width);
  }).join("");
}

/**
 * Writes the payments as a PDF table, page by page: each finished page leaves memory as it is written,
 * and the writing waits while the reader is behind, so a 100,000-payment export stays flat.
 */
async function writePdf(payments: AsyncIterable<Payment>, filterText: string, reply: FastifyReply): Promise<void> {
  const doc = new PDFDocument({ size: "A4", layout: "landscape", margin: 30, info: { Title: "Payments" } });
  void reply.type("application/pdf").header("content-disposition", 'attachment; filename="payments.pdf"').send(doc);
  const left = doc.page.margins.left;
  const bottom = doc.page.height - doc.page.margins.bottom - ROW_HEIGHT;
  const line = (text: string, y: number) => doc.text(text, left, y, { lineBreak: false });
  doc
    .font("Helvetica-Bold")
    .fontSize(11)
    .text(`Payments${filterText ? ` (${filterText})` : ""}`);
  // Courier: the columns line up by character count. Outside its Latin-1 range a character may not show.
  doc.font("Courier").fontSize(FONT_SIZE);
  let y = doc.y + 6;
  line(
    pdfLine((name) => name),
    y,
  );
  y += ROW_HEIGHT;
  let count = 0;
  // The reader went away: the rest is work for nobody, so it stops at the next page.
  let gone = false;
  reply.raw.once("close", () => {
    gone = !reply.raw.writableFinished;
  });
  for await (const payment of payments) {
    if (y > bottom) {
      // Laying out a page is synchronous work: between pages every other request gets its turn, so a
      // 50,000-row export never holds the process for more than one page's layout.
      await setImmediate();
      while (!gone && doc.readableLength > PDF_BACKLOG_BYTES) await sleep(5);
      if (gone) {
        doc.destroy();
        return;
      }
      doc.addPage();
      y = doc.page.margins.top;
      line(
        pdfLine((name) => name),
        y,
      );
      y += ROW_HEIGHT;
    }
    line(
      pdfLine((name) => pdfCell(payment, name)),
      y,
    );
    y += ROW_HEIGHT;
    count++;
  }
  line(`${count} payments.`, y + 4);
  doc.end();
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
    await writePdf(started.payments, filterText, reply);
    return reply;
  });
}
