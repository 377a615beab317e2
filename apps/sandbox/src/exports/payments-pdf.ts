import type { Writable } from "node:stream";
import { setImmediate, setTimeout as sleep } from "node:timers/promises";
import type { Payment } from "@payspec/payments-zod";
import PDFDocument from "pdfkit";
import { dateTime, money, plural } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import { statusWord } from "../infrastructure/i18n/status-words.js";
import { turkishFieldName } from "../payments/index.js";
import { MonospacedText, type PlacedText, TITLE_FONT, wrapText } from "./monospaced-text.js";

/** PDF output waiting for a slow reader beyond this stops the writing until it drains. */
const PDF_BACKLOG_BYTES = 1 << 20;
const FONT_SIZE = 6.5;
const LINE_HEIGHT = 8;
/** Space between two payments. */
const ROW_GAP = 2;
const MARGIN = 28;

interface Column {
  /** The heading, one entry per line. */
  heading: readonly string[];
  /** Characters of text, between gaps of GAP blank characters. */
  width: number;
  /** The cell's text, one entry per line; each is wrapped, never cut. */
  cell(payment: Payment): readonly string[];
}

const flat = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ");

/**
 * The seed's export columns, every one whole: a timestamp, id or account that does not fit its
 * column wraps onto the next line, so each payment can be identified from the paper. created_at and
 * settled_at share a column, one above the other, to leave the width to reference and description.
 */
const COLUMNS: readonly Omit<Column, "width">[] = [
  {
    // Istanbul time, as the language writes it (every time the dashboard shows is): the API's UTC
    // ISO strings are for programs, and the CSV keeps them.
    heading: ["created_at", "settled_at"],
    cell: (p) => [p.created_at, ...(p.settled_at ? [p.settled_at] : [])].map((iso) => dateTime(Date.parse(iso))),
  },
  { heading: ["id"], cell: (p) => [p.id] },
  // Right-aligned, as amounts are read and added up (a monospaced column: padding aligns them).
  { heading: ["           amount"], cell: (p) => [money(p.amount, p.currency).padStart(AMOUNT_WIDTH)] },
  { heading: ["method"], cell: (p) => [p.method ?? ""] },
  { heading: ["status"], cell: (p) => [p.status ? statusWord(p.status) : ""] },
  { heading: ["from_account"], cell: (p) => [p.from_account ?? ""] },
  { heading: ["to_account"], cell: (p) => [p.to_account ?? ""] },
  { heading: ["reference"], cell: (p) => [flat(p.reference)] },
  { heading: ["description"], cell: (p) => [flat(p.description)] },
];
/** A heading in the active language, right-aligned as its column is (the amount's). */
function headingIn(heading: string): string {
  const name = heading.trim();
  // In lower case, as the API's names the English headings show are.
  const turkish = turkishFieldName(name).toLocaleLowerCase("tr-TR");
  return t(heading, heading.startsWith(" ") ? turkish.padStart(heading.length) : turkish);
}

/** Widths for all but the description, which takes what is left of the line. */
const WIDTHS = [24, 20, 18, 15, 10, 21, 21, 27];
const AMOUNT_WIDTH = WIDTHS[2] as number;

/** Who the file is for and when it was made: printed under the title. */
export interface PdfAbout {
  /** The workspace's public tag. */
  readonly workspace: string;
  /** When the file was made, in ms on the workspace's sandbox clock. */
  readonly generatedAt: number;
}
/**
 * Two blank characters between columns: a cell that fills its column still reads as apart from the
 * next one, to people and to text extraction (which takes a single space for a word break).
 */
const GAP = 2;

function columnsFor(lineWidth: number): Column[] {
  const description = lineWidth - WIDTHS.reduce((sum, width) => sum + width + GAP, 0);
  return COLUMNS.map((column, i) => ({ ...column, width: WIDTHS[i] ?? description }));
}

/** A row's lines: each column's cell wrapped to its width, placed side by side. */
function rowLines(columns: readonly Column[], cells: (column: Column) => readonly string[]): string[][] {
  return columns.map((column) => cells(column).flatMap((text) => wrapText(text, column.width)));
}

/**
 * Writes the payments as a PDF table in an embedded font that shows Turkish text as it is, page by
 * page: each finished page leaves memory as it is written, and the writing waits while the reader
 * is behind, so a 100,000-payment export stays flat. Resolves "completed" when the document is
 * complete, or "abandoned" at the next page once `isGone` says the reader went away.
 */
export async function writePaymentsPdf(
  payments: AsyncIterable<Payment>,
  title: string,
  out: Writable,
  isGone: () => boolean = () => false,
  about?: PdfAbout,
): Promise<"completed" | "abandoned"> {
  const doc = new PDFDocument({ size: "A4", layout: "landscape", margin: MARGIN, info: { Title: title } });
  doc.pipe(out);
  doc.font(TITLE_FONT).fontSize(11).text(title, { lineBreak: false });
  const text = new MonospacedText(doc, FONT_SIZE);
  const columns = columnsFor(text.fit(doc.page.width - 2 * MARGIN));
  const offsets = columns.map(
    (_, i) => MARGIN + text.charWidth * columns.slice(0, i).reduce((sum, column) => sum + column.width + GAP, 0),
  );
  const bottom = doc.page.height - MARGIN - LINE_HEIGHT;
  let lines: PlacedText[] = [];
  let y = MARGIN + 20;
  let pageNumber = 1;
  if (about) {
    lines.push({
      x: MARGIN,
      y,
      text: t(
        `Workspace ${about.workspace} · generated ${dateTime(about.generatedAt)} Istanbul time (sandbox clock) · all times Istanbul time`,
        `Çalışma alanı ${about.workspace} · ${dateTime(about.generatedAt)} İstanbul saatiyle oluşturuldu (sandbox saati) · tüm saatler İstanbul saatiyle`,
      ),
    });
    y += LINE_HEIGHT + ROW_GAP * 2;
  }
  // Each page says its number and the count at its foot. The file is written page by page, so the
  // count is known only at the end: every page draws it from one object written last.
  const pageCount = text.deferred();
  /** The page's foot, and the page's lines written out. */
  const finishPage = () => {
    const y = bottom - LINE_HEIGHT + 2;
    const label = t(`page ${pageNumber} of`, `sayfa ${pageNumber} /`);
    lines.push({ x: MARGIN, y, text: label });
    text.write(lines);
    lines = [];
    pageCount.place(MARGIN + (Array.from(label).length + 1) * text.charWidth, y);
  };
  const totals = new Map<string, { minor: number; count: number }>();

  const place = (cells: string[][]) => {
    cells.forEach((column, i) => {
      column.forEach((line, n) => {
        if (line) lines.push({ x: offsets[i] as number, y: y + n * LINE_HEIGHT, text: line });
      });
    });
    y += Math.max(...cells.map((column) => column.length)) * LINE_HEIGHT + ROW_GAP;
  };
  const heading = rowLines(columns, (column) => column.heading.map(headingIn));
  place(heading);

  let count = 0;
  /** Failed and cancelled payments: listed, but their money never moved, so no total counts them. */
  let notCounted = 0;
  for await (const payment of payments) {
    const row = rowLines(columns, (column) => column.cell(payment));
    const height = Math.max(...row.map((column) => column.length)) * LINE_HEIGHT;
    if (y + height > bottom) {
      finishPage();
      // Between pages every other request gets its turn, and a reader that is behind is waited for.
      await setImmediate();
      while (!isGone() && doc.readableLength > PDF_BACKLOG_BYTES) await sleep(5);
      if (isGone()) {
        doc.unpipe(out);
        doc.destroy();
        return "abandoned";
      }
      doc.addPage();
      pageNumber++;
      y = MARGIN;
      place(heading);
    }
    place(row);
    count++;
    if (payment.status === "failed" || payment.status === "cancelled") {
      notCounted++;
      continue;
    }
    const total = totals.get(payment.currency) ?? { minor: 0, count: 0 };
    totals.set(payment.currency, { minor: total.minor + payment.amount, count: total.count + 1 });
  }
  const summary = [
    `${plural(count, "payment", "ödeme")}.`,
    ...[...totals].map(([currency, total]) =>
      t(
        `Total in ${currency}: ${money(total.minor, currency)} (${plural(total.count, "payment", "ödeme")})`,
        `${currency} toplamı: ${money(total.minor, currency)} (${plural(total.count, "payment", "ödeme")})`,
      ),
    ),
    ...(notCounted === 0
      ? []
      : [
          t(
            `${plural(notCounted, ["failed or cancelled payment is", "failed or cancelled payments are"], "başarısız ya da iptal edilmiş ödeme")} not in the totals: no money moved.`,
            `${plural(notCounted, "", "başarısız ya da iptal edilmiş ödeme")} toplamlara katılmadı: para hareket etmedi.`,
          ),
        ]),
  ];
  if (y + summary.length * LINE_HEIGHT > bottom) {
    finishPage();
    doc.addPage();
    pageNumber++;
    y = MARGIN;
  }
  for (const [n, line] of summary.entries()) lines.push({ x: MARGIN, y: y + n * LINE_HEIGHT, text: line });
  finishPage();
  pageCount.fill(String(pageNumber));
  const finished = new Promise<void>((resolve, reject) => {
    doc.once("end", resolve);
    doc.once("error", reject);
  });
  doc.end();
  await finished;
  return "completed";
}
