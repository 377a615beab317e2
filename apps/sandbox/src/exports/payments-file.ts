import { PassThrough } from "node:stream";
import type { Payment } from "@payspec/payments-zod";
import { writePaymentsCsv } from "./payments-csv.js";
import { type PdfAbout, writePaymentsPdf } from "./payments-pdf.js";

/** The payments as a whole CSV or PDF file in memory: a queued export's or a scheduled report's. */
export async function paymentsFile(
  format: "csv" | "pdf",
  payments: AsyncIterable<Payment>,
  title: string,
  about?: PdfAbout,
): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => sink.once("end", resolve));
  if (format === "csv") await writePaymentsCsv(payments, sink);
  else await writePaymentsPdf(payments, title, sink, undefined, about);
  await ended;
  return Buffer.concat(chunks);
}
