import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { writeRecords } from "../src/index.js";

async function csvOf(records: object[], columns: string[]): Promise<string> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await writeRecords(
    (async function* () {
      yield* records;
    })(),
    sink,
    "csv",
    columns as never,
  );
  return Buffer.concat(chunks).toString("utf8");
}

describe("CSV exports", () => {
  it("neutralises cells a spreadsheet would run as a formula (OWASP), and leaves numbers and Turkish text alone", async () => {
    const text = await csvOf(
      [
        { reference: '=HYPERLINK("http://x")', description: "+90 212", amount: -1250 },
        { reference: "@SUM(A1)", description: "-kasım", amount: 5 },
        { reference: "FTR-ŞĞİ-0042", description: "Kasım ödemesi ı ş ğ İ", amount: 0 },
      ],
      ["reference", "description", "amount"],
    );
    expect(text.split("\n")).toEqual([
      "reference,description,amount",
      `"'=HYPERLINK(""http://x"")",'+90 212,-1250`,
      "'@SUM(A1),'-kasım,5",
      "FTR-ŞĞİ-0042,Kasım ödemesi ı ş ğ İ,0",
      "",
    ]);
  });
});
