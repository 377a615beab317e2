import type { Writable } from "node:stream";
import { type ExportFormat, writeRecords } from "@payspec/client-core";
import { paymentCsvColumns } from "@payspec/payments-zod";
import type { Payment } from "./types.js";

/**
 * Streams payments to any writable as CSV (the seed's dashboard columns) or JSON Lines, UTF-8, with
 * backpressure end to end. Resolves with the number of records written.
 */
export function writePayments(
  payments: AsyncIterable<Payment>,
  destination: Writable,
  format: ExportFormat,
): Promise<number> {
  return writeRecords(payments, destination, format, paymentCsvColumns);
}
