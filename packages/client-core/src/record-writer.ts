import { Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";

export type ExportFormat = "csv" | "jsonl";

function jsonLines(): Transform {
  return new Transform({
    writableObjectMode: true,
    transform(record: object, _encoding, done) {
      done(null, `${JSON.stringify(record)}\n`);
    },
  });
}

/**
 * A text cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab or carriage return first)
 * gets a leading `'`, as OWASP's CSV-injection guidance says: Excel then shows the text, runs nothing.
 */
export function formulaSafeCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function csv(columns: readonly string[]): Transform {
  // RFC 4180 quoting (commas, quotes, line breaks) is csv-stringify's job; missing fields become empty cells.
  // Numbers are not text: a negative amount stays a number.
  return stringify({
    header: true,
    columns: [...columns],
    eof: true,
    record_delimiter: "unix",
    cast: { string: formulaSafeCell },
  });
}

/**
 * Streams records to any writable (a file, an HTTP response, stdout) as CSV with a header row (these
 * columns, in this order; text cells a spreadsheet would run as a formula start with `'`) or as JSON
 * Lines, UTF-8. Backpressure is respected end to end, so memory
 * stays flat. Resolves with the number of records written.
 */
export async function writeRecords<T extends object>(
  records: AsyncIterable<T>,
  destination: Writable,
  format: ExportFormat,
  columns: readonly (keyof T & string)[],
): Promise<number> {
  let count = 0;
  const counted = Readable.from(
    (async function* () {
      for await (const record of records) {
        count++;
        yield record;
      }
    })(),
  );
  await pipeline(counted, format === "csv" ? csv(columns) : jsonLines(), destination);
  return count;
}
