import { Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import type { Payment } from "./types.js";

/** The dashboard CSV export's columns, in the seed's order. */
export const paymentCsvColumns = [
  "id",
  "amount",
  "currency",
  "method",
  "status",
  "from_account",
  "to_account",
  "reference",
  "description",
  "created_at",
  "settled_at",
] as const satisfies readonly (keyof Payment)[];

export type ExportFormat = "csv" | "jsonl";

function jsonLines(): Transform {
  return new Transform({
    writableObjectMode: true,
    transform(payment: Payment, _encoding, done) {
      done(null, `${JSON.stringify(payment)}\n`);
    },
  });
}

function csv(): Transform {
  // RFC 4180 quoting (commas, quotes, line breaks) is csv-stringify's job; missing fields become empty cells.
  return stringify({ header: true, columns: [...paymentCsvColumns], eof: true, record_delimiter: "unix" });
}

/**
 * Streams payments to any writable (a file, an HTTP response, stdout) as CSV with a header row or as
 * JSON Lines, UTF-8. Backpressure is respected end to end, so memory stays flat. Resolves with the
 * number of records written.
 */
export async function writePayments(
  payments: AsyncIterable<Payment>,
  destination: Writable,
  format: ExportFormat,
): Promise<number> {
  let count = 0;
  const counted = Readable.from(
    (async function* () {
      for await (const payment of payments) {
        count++;
        yield payment;
      }
    })(),
  );
  await pipeline(counted, format === "csv" ? csv() : jsonLines(), destination);
  return count;
}
