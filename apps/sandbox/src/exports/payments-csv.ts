import type { Writable } from "node:stream";
import { writeRecords } from "@payspec/client-core";
import { type Payment, paymentCsvColumns } from "@payspec/payments-zod";

/**
 * The seed's CSV export: its columns in its order, written by the client's `writeRecords` (formula
 * cells neutralised), after a byte order mark: without it Excel on Windows reads UTF-8 as its ANSI
 * code page and "Kasım" breaks. Ends `out`.
 */
export async function writePaymentsCsv(payments: AsyncIterable<Payment>, out: Writable): Promise<void> {
  out.write("\uFEFF");
  await writeRecords(payments, out, "csv", paymentCsvColumns);
}
