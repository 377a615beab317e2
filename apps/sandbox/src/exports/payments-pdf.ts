import type { Writable } from "node:stream";
import { setImmediate, setTimeout as sleep } from "node:timers/promises";
import type { Payment } from "@payspec/payments-zod";
import PDFDocument from "pdfkit";
import { dateTime, money, plural } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import { methodWord } from "../infrastructure/i18n/method-words.js";
import { statusWord } from "../infrastructure/i18n/status-words.js";
import { fieldLabel, type NamedAccount } from "../payments/index.js";
import { MonospacedText, type PlacedText, TITLE_FONT, wrapText } from "./monospaced-text.js";

/** PDF output waiting for a slow reader beyond this stops the writing until it drains. */
const PDF_BACKLOG_BYTES = 1 << 20;
const FONT_SIZE = 6.5;
const LINE_HEIGHT = 8;
/** Space between two payments. */
const ROW_GAP = 2;
const MARGIN = 28;

/** What a row's cells read beyond the payment: the workspace's accounts, to name them. */
interface RowContext {
  accountName(id: string | undefined): string;
}

interface Column {
  /** The payment fields it shows, one heading line each, in the active language's words. */
  fields: readonly string[];
  /** Amounts are right-aligned, as they are read and added up. */
  right?: boolean;
  /** Characters of text, between gaps of GAP blank characters. */
  width: number;
  /** The cell's text, one entry per line; each is wrapped, never cut. */
  cell(payment: Payment, row: RowContext): readonly string[];
}

const flat = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ");

/**
 * The seed's export columns, every one whole and in words: a timestamp, id or name that does not fit
 * its column wraps onto the next line, so each payment can be identified from the paper. created_at
 * and settled_at share a column, one above the other, to leave the width to reference and description.
 */
const COLUMNS: readonly Omit<Column, "width">[] = [
  {
    // Istanbul time, as the language writes it (every time the dashboard shows is): the API's UTC
    // ISO strings are for programs, and the CSV keeps them.
    fields: ["created_at", "settled_at"],
    cell: (p) => [p.created_at, ...(p.settled_at ? [p.settled_at] : [])].map((iso) => dateTime(Date.parse(iso))),
  },
  { fields: ["id"], cell: (p) => [p.id] },
  { fields: ["amount"], right: true, cell: (p) => [money(p.amount, p.currency).padStart(AMOUNT_WIDTH)] },
  { fields: ["method"], cell: (p) => [p.method ? methodWord(p.method) : ""] },
  { fields: ["status"], cell: (p) => [p.status ? statusWord(p.status) : ""] },
  { fields: ["from_account"], cell: (p, row) => [row.accountName(p.from_account)] },
  { fields: ["to_account"], cell: (p, row) => [row.accountName(p.to_account)] },
  { fields: ["reference"], cell: (p) => [flat(p.reference)] },
  { fields: ["description"], cell: (p) => [flat(p.description)] },
];

/**
 * An account by the name people know it by; with its id when another account of the workspace has
 * the same name, and by its id alone when the workspace no longer has it.
 */
function accountNames(accounts: readonly NamedAccount[]): RowContext {
  const named = new Map(accounts.map((a) => [a.id, a.name]));
  const seen = new Map<string, number>();
  for (const { name } of accounts) seen.set(name, (seen.get(name) ?? 0) + 1);
  return {
    accountName(id) {
      if (id === undefined) return "";
      const name = named.get(id);
      if (name === undefined) return id;
      return (seen.get(name) ?? 0) > 1 ? `${name} (${id})` : name;
    },
  };
}

/** Widths for all but the description, which takes what is left of the line. */
const WIDTHS = [19, 20, 18, 15, 12, 23, 23, 24];
const AMOUNT_WIDTH = WIDTHS[2] as number;

/**
 * Where a payment's money stands, as the totals add it up: moved (it left the debit account), on its
 * way (it may yet move), or never moved (failed or cancelled). Each is summed and counted apart, so
 * no total adds money that has not moved.
 */
const OUTCOMES = [
  { statuses: ["completed", "settled", "reconciled"], words: ["moved", "hareket eden"] },
  { statuses: ["pending", "approved", "processing"], words: ["in progress", "işlemde"] },
  { statuses: ["failed", "cancelled"], words: ["not moved", "hareket etmeyen"] },
] as const;

/** Each currency's money by outcome (OUTCOMES' order): minor units summed and payments counted. */
type OutcomeTotals = Map<string, { minor: number; count: number }[]>;

function addToTotals(totals: OutcomeTotals, payment: Payment): void {
  const outcome = OUTCOMES.findIndex((o) => (o.statuses as readonly string[]).includes(payment.status));
  if (outcome < 0) return;
  let byOutcome = totals.get(payment.currency);
  if (!byOutcome) {
    byOutcome = OUTCOMES.map(() => ({ minor: 0, count: 0 }));
    totals.set(payment.currency, byOutcome);
  }
  const total = byOutcome[outcome] as { minor: number; count: number };
  total.minor += payment.amount;
  total.count++;
}

/** The totals' lines: per currency, one per outcome with the states it holds, zero ones too. */
function totalsLines(totals: OutcomeTotals): string[] {
  return [...totals].flatMap(([currency, byOutcome]) =>
    OUTCOMES.map(({ statuses, words: [english, turkish] }, i) => {
      const { minor, count } = byOutcome[i] as { minor: number; count: number };
      const states = statuses.map((status) => statusWord(status)).join(", ");
      const held = `${money(minor, currency)}, ${plural(count, "payment", "ödeme")}`;
      return t(`${currency} ${english} (${states}): ${held}`, `${currency} ${turkish} (${states}): ${held}`);
    }),
  );
}

/** Who the file is for and when it was made: printed under the title. */
export interface PdfAbout {
  /** The workspace's public tag. */
  readonly workspace: string;
  /** When the file was made, in ms on the workspace's sandbox clock. */
  readonly generatedAt: number;
  /** The workspace's accounts, to name them in the rows; an account not among them shows its id. */
  readonly accounts?: readonly NamedAccount[];
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
 * The pages as they are laid out: the lines placed on the current page, where the next row goes, and
 * each page's foot ("page 3 of" and the count, known only at the end: drawn from one object written last).
 */
class PdfPages {
  readonly doc: PDFKit.PDFDocument;
  readonly #text: MonospacedText;
  readonly #pageCount: ReturnType<MonospacedText["deferred"]>;
  readonly #offsets: number[];
  readonly #bottom: number;
  #lines: PlacedText[] = [];
  #y = MARGIN + 20;
  #number = 1;

  constructor(doc: PDFKit.PDFDocument, text: MonospacedText, columns: readonly Column[]) {
    this.doc = doc;
    this.#text = text;
    this.#pageCount = text.deferred();
    this.#offsets = columns.map(
      (_, i) => MARGIN + text.charWidth * columns.slice(0, i).reduce((sum, column) => sum + column.width + GAP, 0),
    );
    this.#bottom = doc.page.height - MARGIN - LINE_HEIGHT;
  }

  /** Whether `lines` more lines fit on this page. */
  fits(lines: number): boolean {
    return this.#y + lines * LINE_HEIGHT <= this.#bottom;
  }

  /** Full-width lines, one under the other, and a gap after them. */
  say(texts: readonly string[], gap = 0): void {
    for (const [n, text] of texts.entries()) this.#lines.push({ x: MARGIN, y: this.#y + n * LINE_HEIGHT, text });
    this.#y += texts.length * LINE_HEIGHT + gap;
  }

  /** A row: each column's lines side by side, the next row under its tallest cell. */
  place(cells: readonly string[][]): void {
    cells.forEach((column, i) => {
      column.forEach((line, n) => {
        if (line) this.#lines.push({ x: this.#offsets[i] as number, y: this.#y + n * LINE_HEIGHT, text: line });
      });
    });
    this.#y += Math.max(...cells.map((column) => column.length)) * LINE_HEIGHT + ROW_GAP;
  }

  /** The page's foot, and the page's lines written out. */
  finish(): void {
    const y = this.#bottom - LINE_HEIGHT + 2;
    const label = t(`page ${this.#number} of`, `sayfa ${this.#number} /`);
    this.#lines.push({ x: MARGIN, y, text: label });
    this.#text.write(this.#lines);
    this.#lines = [];
    this.#pageCount.place(MARGIN + (Array.from(label).length + 1) * this.#text.charWidth, y);
  }

  next(): void {
    this.doc.addPage();
    this.#number++;
    this.#y = MARGIN;
  }

  /** The last page finished, the count filled in on every page's foot. */
  end(): void {
    this.finish();
    this.#pageCount.fill(String(this.#number));
  }
}

/** The first lines: which workspace, when it was made, on which clock. */
function aboutLine(about: PdfAbout): string {
  return t(
    `Workspace ${about.workspace} · generated ${dateTime(about.generatedAt)} Istanbul time (sandbox clock) · all times Istanbul time`,
    `Çalışma alanı ${about.workspace} · ${dateTime(about.generatedAt)} İstanbul saatiyle oluşturuldu (sandbox saati) · tüm saatler İstanbul saatiyle`,
  );
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
  const pages = new PdfPages(doc, text, columns);
  if (about) pages.say([aboutLine(about)], ROW_GAP * 2);
  const heading = rowLines(columns, (column) =>
    column.fields.map((field) => (column.right ? fieldLabel(field).padStart(column.width) : fieldLabel(field))),
  );
  pages.place(heading);
  const totals: OutcomeTotals = new Map();
  const row = accountNames(about?.accounts ?? []);
  let count = 0;
  for await (const payment of payments) {
    const cells = rowLines(columns, (column) => column.cell(payment, row));
    if (!pages.fits(Math.max(...cells.map((column) => column.length)))) {
      pages.finish();
      if (await readerGone(doc, out, isGone)) return "abandoned";
      pages.next();
      pages.place(heading);
    }
    pages.place(cells);
    count++;
    addToTotals(totals, payment);
  }
  const summary = [`${plural(count, "payment", "ödeme")}.`, ...totalsLines(totals)];
  if (!pages.fits(summary.length)) {
    pages.finish();
    pages.next();
  }
  pages.say(summary);
  pages.end();
  const finished = new Promise<void>((resolve, reject) => {
    doc.once("end", resolve);
    doc.once("error", reject);
  });
  doc.end();
  await finished;
  return "completed";
}

/**
 * Between pages every other request gets its turn, and a reader that is behind is waited for; one
 * that went away ends the document (true).
 */
async function readerGone(doc: PDFKit.PDFDocument, out: Writable, isGone: () => boolean): Promise<boolean> {
  await setImmediate();
  while (!isGone() && doc.readableLength > PDF_BACKLOG_BYTES) await sleep(5);
  if (!isGone()) return false;
  doc.unpipe(out);
  doc.destroy();
  return true;
}
