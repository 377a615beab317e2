import { readFileSync } from "node:fs";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { referenceKeys } from "../../match-statement.js";
import { readStatement } from "../../statement-file.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../test/fixtures/statements/${name}`, import.meta.url));
const refused = (bytes: Buffer) => {
  try {
    readStatement(bytes);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("read without a complaint");
};

/**
 * The statement formats banks send, read from files other projects wrote (see fixtures/statements)
 * and from files written to the standards here, in every encoding a Turkish bank uses.
 */
describe("statement formats recognised from the file itself", () => {
  it("reads camt.053 V02 and V08 as their authors' own tests read them", () => {
    for (const name of ["camt053.v2.genkgo-minimal.xml", "camt053.v8.genkgo.xml"]) {
      const { lines } = readStatement(fixture(name));
      expect(lines, name).toHaveLength(1);
      expect(lines[0], name).toMatchObject({
        amountMinor: 885,
        currency: "EUR",
        valueDate: "2015-01-02",
        direction: "credit",
      });
    }
    // V08 carries an EndToEndId: the entry's own reference.
    expect(readStatement(fixture("camt053.v8.genkgo.xml")).lines[0]?.reference).toBe("MUELL/FINP/RA12345");
  });

  it("reads MT940 from two banks' layouts: amounts with a decimal comma, D/C marks, :86: narratives", () => {
    const ing = readStatement(fixture("mt940.ing.wolph.sta")).lines;
    expect(ing.map((l) => [l.amountMinor, l.direction])).toEqual([
      [2503, "debit"],
      [303, "debit"],
      [111, "debit"],
      [2000, "debit"],
      [110, "debit"],
      [368, "credit"],
      [100, "credit"],
    ]);
    expect(ing[0]).toMatchObject({ currency: "EUR", valueDate: "2010-07-22" });
    expect(ing[0]?.narrative).toContain("BETREFT REKENING 4715589");
    expect(ing[6]?.narrative).toContain("Betaling transactiedatum: 22-07-2010");
    const cmxl = readStatement(fixture("mt940.cmxl.wolph.sta")).lines;
    // Three messages in one file, each with its own currency; the Polish narrative's letters exact.
    expect(new Set(cmxl.map((l) => l.currency))).toEqual(new Set(["DEM", "EUR", "PLN"]));
    expect(cmxl.find((l) => l.amountMinor === 4000 && l.currency === "PLN")?.narrative).toContain(
      "Uznanie kwotą odsetek",
    );
    expect(cmxl.find((l) => l.currency === "EUR" && l.direction === "debit")).toMatchObject({
      amountMinor: 80000,
      valueDate: "2002-11-01",
    });
  });

  it("joins :86: lines so that a word the bank wrapped at 65 characters is whole and two words are not glued", () => {
    // ING ends a line where its writer did: `ROSMALEN` and `Betaling` are two words.
    const ing = readStatement(fixture("mt940.ing.wolph.sta")).lines;
    expect(ing.at(-1)?.narrative).toBe(
      "0111111111 Hr S Marechal ROSMALEN Hr S Marechal ROSMALEN Betaling transactiedatum: 22-07-2010",
    );
    // ASN Bank fills every line to 65 characters and wraps mid-word: `Betaling aan I` + `CS …` is `ICS`.
    const asn = readStatement(fixture("mt940.asnb.wolph.txt")).lines;
    const wrapped = asn.find((line) => line.narrative?.includes("Betaling aan"));
    expect(wrapped?.narrative).toContain("Betaling aan ICS 99999999999 ICS Referentie");
  });

  it("warns when an MT940's opening balance plus its movements is not its closing balance, and reads it all the same", () => {
    const ing = readStatement(fixture("mt940.ing.wolph.sta"));
    expect(ing.lines).toHaveLength(7);
    expect(ing.warnings).toEqual([
      "Message MPBZ: the opening balance 0.00 EUR plus the movements -45.59 EUR is -45.59 EUR, not the closing balance 3.47 EUR (a difference of 49.06 EUR); its lines were reconciled as the bank wrote them.",
    ]);
    // Banks' own files add up: no warning.
    for (const name of [
      "mt940.citi.wolph.txt",
      "mt940.cmxl.wolph.sta",
      "mt940.asnb.wolph.txt",
      "mt942.mbank.wolph.sta",
    ])
      expect(readStatement(fixture(name)).warnings, name).toBeUndefined();
  });

  it("keeps a camt.053 entry the bank has not booked (Sts PDNG, INFO; V02 and V08 forms) marked, for the matcher to leave", () => {
    const v2 = fixture("camt053.v2.genkgo-minimal.xml").toString("utf8").replace("<Sts>BOOK</Sts>", "<Sts>PDNG</Sts>");
    expect(readStatement(Buffer.from(v2)).lines.map((l) => l.bankStatus)).toContain("PDNG");
    const v8 = fixture("camt053.v8.genkgo.xml")
      .toString("utf8")
      .replace(/<Sts>\s*<Cd>BOOK<\/Cd>\s*<\/Sts>/, "<Sts><Cd>INFO</Cd></Sts>");
    expect(readStatement(Buffer.from(v8)).lines.map((l) => l.bankStatus)).toContain("INFO");
    expect(readStatement(fixture("camt053.v8.genkgo.xml")).lines.every((l) => l.bankStatus === undefined)).toBe(true);
  });

  it("reads the MT940 of banks that leave the entry date blank (Citi, ASN Bank) as if they had left it out", () => {
    const citi = readStatement(fixture("mt940.citi.wolph.txt")).lines;
    // "DD212,39": the mark D, then USD's funds code D. The two zero lines carry balance information.
    expect(citi.map((l) => [l.amountMinor, l.direction])).toEqual([
      [21239, "debit"],
      [36928, "debit"],
      [0, "credit"],
      [0, "credit"],
      [56108, "debit"],
    ]);
    // The file's opening balance (17,376.67) moved by every line is its closing balance (16,233.92).
    const moved = citi.reduce((sum, l) => sum + (l.direction === "credit" ? l.amountMinor : -l.amountMinor), 0);
    expect(1_737_667 + moved).toBe(1_623_392);
    expect(citi[0]).toMatchObject({ currency: "USD", valueDate: "2024-03-12" });
    const blank = readStatement(fixture("mt940.asnb-blank-entry-dates.wolph.txt")).lines;
    expect(blank).toHaveLength(8);
    expect(blank).toEqual(readStatement(fixture("mt940.asnb.wolph.txt")).lines);
    expect(blank[0]).toMatchObject({ amountMinor: 6500, direction: "debit", valueDate: "2020-01-01" });
  });

  it("reads a German bank's 30 February (its 30/360 fee settlement) as February's last day", () => {
    const [fee] = readStatement(fixture("mt940.february-30.wolph.sta")).lines;
    expect(fee).toMatchObject({ amountMinor: 600, currency: "EUR", direction: "debit", valueDate: "2016-02-29" });
    const statement = (valueDate: string) =>
      Buffer.from(`:20:X\r\n:25:1\r\n:28C:1\r\n:60F:C230101TRY10,00\r\n:61:${valueDate}D1,00NTRFREF\r\n-\r\n`);
    // In a year without a 29 February, the 29th and the 30th are the 28th.
    expect(readStatement(statement("230230")).lines[0]?.valueDate).toBe("2023-02-28");
    expect(readStatement(statement("230229")).lines[0]?.valueDate).toBe("2023-02-28");
    // Any other day a month lacks is still an error.
    expect(refused(statement("230431"))).toBe("Line 5 (value date, column 5): not a calendar date.");
    expect(refused(statement("230231"))).toBe("Line 5 (value date, column 5): not a calendar date.");
  });

  it("names every bad line of a file at once, in each format, and only the first twenty of a long one", () => {
    const ours = Buffer.from(
      "reference,amount_minor,currency,value_date\nA,on iki,TRY,2026-11-27\nB,100,TRY,2026-11-27\nC,100,TRY,2026-13-01\n",
    );
    const said = refused(ours);
    expect(said).toMatch(
      /^Line 2 \(amount_minor, column 2\): .+ Line 4 \(value_date, column 4\): not a calendar date; use yyyy-MM-dd\.$/,
    );
    expect(said).not.toContain("Line 3");
    const mt940 = Buffer.from(
      ":20:X\r\n:25:1\r\n:28C:1\r\n:60F:C230101TRY10,00\r\n:61:230431D1,00NTRFREF\r\n:61:230101D1,00NTRFREF\r\n:61:230532D1,00NTRFREF\r\n-\r\n",
    );
    expect(refused(mt940)).toBe(
      "Line 5 (value date, column 5): not a calendar date. Line 7 (value date, column 5): not a calendar date.",
    );
    const long = Buffer.from(
      `reference,amount_minor,currency,value_date\n${Array.from({ length: 30 }, (_, i) => `R${i},x,TRY,2026-11-27`).join("\n")}\n`,
    );
    const first20 = refused(long);
    expect(first20.match(/Line \d+/g)).toHaveLength(20);
    expect(first20).toContain("Line 21 ");
    expect(first20).not.toContain("Line 22 ");
    expect(first20).toMatch(/\(The first 20 problems; the file may hold more\.\)$/);
  });

  it("reads an MT940 with no movement (a Turkish bank's TRY account) and an MT942 interim report", () => {
    expect(readStatement(fixture("mt940.no-movement-try.wolph.sta")).lines).toEqual([]);
    // An MT942 has no opening balance: its floor limit (:34F:) names the currency.
    const interim = readStatement(fixture("mt942.mbank.wolph.sta")).lines;
    expect(interim.map((l) => [l.amountMinor, l.currency, l.direction, l.valueDate])).toEqual([
      [1, "PLN", "credit", "2017-01-19"],
      [1, "PLN", "credit", "2017-01-19"],
      [1, "PLN", "credit", "2017-01-19"],
    ]);
    // A second message's lines take that message's currency, never the first one's.
    const twoMessages = Buffer.from(
      ":20:A\n:25:1\n:28C:1\n:60F:C230101EUR10,00\n:61:230102D1,00NTRFREF\n:62F:C230102EUR9,00\n" +
        ":20:B\n:25:1\n:28C:2\n:61:230102D1,00NTRFREF\n-\n",
    );
    expect(refused(twoMessages)).toContain("without an opening balance (:60F:)");
  });

  it("refuses a camt.053 message that holds no statement, and says so", () => {
    expect(refused(fixture("camt053.v2.genkgo-no-statement.xml"))).toBe(
      "The camt.053 file holds no statement (BkToCstmrStmt/Stmt); send the file the bank produced for the day.",
    );
  });

  const bankCsv = [
    "Tarih;Açıklama;Tutar;Bakiye",
    "26.11.2026;FATURA NO: İNV-2026-0007 ÖDEMESİ - KAYA TEKSTİL;-1.500,75;248.499,25",
    "26.11.2026;GELEN EFT IŞIK MAĞAZACILIK;2.000,00;250.499,25",
    "",
  ].join("\r\n");

  it("reads a Turkish bank's CSV export in UTF-8, Windows-1254, ISO-8859-9 and UTF-16, letters exact", () => {
    const encodings: [string, Buffer][] = [
      ["utf-8", Buffer.from(bankCsv, "utf8")],
      ["utf-8 with BOM", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(bankCsv, "utf8")])],
      ["windows-1254", iconv.encode(bankCsv, "windows-1254")],
      ["iso-8859-9", iconv.encode(bankCsv, "iso-8859-9")],
      ["utf-16le with BOM", Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(bankCsv, "utf-16le")])],
    ];
    for (const [name, bytes] of encodings) {
      const { lines } = readStatement(bytes);
      expect(
        lines.map((l) => [l.line, l.amountMinor, l.currency, l.direction, l.valueDate]),
        name,
      ).toEqual([
        [2, 150075, "TRY", "debit", "2026-11-26"],
        [3, 200000, "TRY", "credit", "2026-11-26"],
      ]);
      expect(lines[0]?.narrative, name).toBe("FATURA NO: İNV-2026-0007 ÖDEMESİ - KAYA TEKSTİL");
      expect(lines[1]?.narrative, name).toBe("GELEN EFT IŞIK MAĞAZACILIK");
    }
  });

  it("reads the debit-and-credit column layout too", () => {
    const csv = "İşlem Tarihi;Açıklama;Borç;Alacak;Bakiye\n01.12.2026;Kira Aralık FTR-ŞĞİ-0042;12.500,00;;1.000,00\n";
    expect(readStatement(Buffer.from(csv)).lines[0]).toMatchObject({ amountMinor: 1_250_000, direction: "debit" });
  });

  it("finds a reference as a whole word of the narrative, whatever the bank did to its case", () => {
    const [line] = readStatement(Buffer.from(bankCsv)).lines;
    const keys = referenceKeys(line as never);
    expect(keys).toContain("inv-2026-0007");
    // A word that only contains it is not it.
    expect(referenceKeys({ reference: "", narrative: "XINV-2026-00071" })).not.toContain("inv-2026-0007");
  });

  it("accepts a statement with no entries: a day with no movement", () => {
    expect(readStatement(Buffer.from("Tarih;Açıklama;Tutar;Bakiye\r\n")).lines).toEqual([]);
    expect(readStatement(Buffer.from("reference,amount_minor,currency,value_date\n")).lines).toEqual([]);
  });

  it("names a byte no encoding can read by line and column, and an unknown format by what to send", () => {
    const broken = Buffer.concat([
      Buffer.from("Tarih;Açıklama;Tutar\n26.11.2026;Kas"),
      Buffer.from([0x81]),
      Buffer.from("m;-1,00\n"),
    ]);
    // "Açıklama" is already UTF-8 before the bad byte: a UTF-8 file with a broken byte, never a guess.
    expect(refused(broken)).toMatch(/^Line 2, column 15 \(byte \d+\): not UTF-8 text/);
    const latin = Buffer.concat([
      Buffer.from("Tarih;Aciklama;Tutar\n26.11.2026;Kas"),
      Buffer.from([0x81]),
      Buffer.from("m;-1,00\n"),
    ]);
    expect(refused(latin)).toMatch(/^Line 2, column 15 \(byte \d+\): neither UTF-8 nor Windows-1254/);
    expect(refused(Buffer.from("hello,world\n1,2\n"))).toContain("Not a statement format this sandbox reads");
    expect(refused(Buffer.from("<html><body>no</body></html>"))).toContain("not a camt.053 statement");
    // An entity that expands without end (billion laughs) is refused before any parsing, at once.
    const laughs = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Ntry><Amt Ccy="TRY">1.00</Amt>
<CdtDbtInd>DBIT</CdtDbtInd><ValDt><Dt>2026-11-26</Dt></ValDt><AddtlNtryInf>&b;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>`;
    expect(refused(Buffer.from(laughs))).toContain("declares a document type or entities");
    // Not well-formed XML: said so, near its line.
    expect(
      refused(Buffer.from('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>')),
    ).toContain("not well-formed XML");
  });

  it("points at the byte: a camt.053 fault by line and column, a bad field by its element path too, an MT940 by column", () => {
    const camt = fixture("camt053.v8.genkgo.xml").toString("utf8");
    // A mismatched closing tag (the example), where the validator first sees it.
    const broken = camt.replace("</Amt>", "</Amnt>");
    const faultLine = broken.slice(0, broken.indexOf("</Amnt>")).split("\n").length;
    expect(refused(Buffer.from(broken))).toMatch(
      new RegExp(`^The camt\\.053 file is not well-formed XML: the first fault is at line ${faultLine}, column \\d+`),
    );
    // An amount written the German way: the entry, its element path, its line and column; never the value.
    const german = camt.replace(/(<Ntry>[\s\S]*?<Amt[^>]*>)([^<]+)(<\/Amt>)/, "$11.110,00$3");
    const amtOffset = german.indexOf("1.110,00");
    const before = german.slice(0, amtOffset);
    const amtLine = before.split("\n").length;
    const amtColumn = before.slice(before.lastIndexOf("<Amt")).length;
    const message = refused(Buffer.from(german));
    expect(message).toContain(`Entry 1 (amount, Stmt/Ntry[1]/Amt, line ${amtLine}, column `);
    expect(message).not.toContain("1.110,00");
    expect(amtColumn).toBeGreaterThan(0);
    // A broken :61: names the line and the column where it stops being one.
    const mt940 = (line: string) =>
      Buffer.from(`:20:X\r\n:25:1\r\n:28C:1\r\n:60F:C230101TRY10,00\r\n:61:${line}\r\n-\r\n`);
    expect(refused(mt940("2301010101X1,00NTRFREF"))).toBe(
      "Line 5, column 15 (:61:): not an MT940 statement line: the debit or credit mark (C, D, RC or RD) expected there (value date YYMMDD, an optional entry date, C or D, the amount, the transaction type).",
    );
    expect(refused(mt940("230101D,5NTRFREF"))).toContain("Line 5, column 12 (:61:)");
    // A CSV cell by its header and its column, as a spreadsheet shows it.
    expect(refused(Buffer.from("reference,amount_minor,currency,value_date\nINV-1,12.50,TRY,2026-11-27\n"))).toMatch(
      /^Line 2 \(amount_minor, column 2\): must be a whole number of minor units/,
    );
    // A currency no code: where the opening balance wrote it.
    expect(
      refused(Buffer.from(":20:X\r\n:25:1\r\n:28C:1\r\n:60F:C230101T1Y10,00\r\n:61:230101D1,00NTRFREF\r\n-\r\n")),
    ).toContain("statement lines (:61:) without an opening balance");
  });
});
