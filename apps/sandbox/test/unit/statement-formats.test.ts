import { readFileSync } from "node:fs";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { referenceKeys } from "../../src/reconciliation/match-statement.js";
import { readStatement } from "../../src/reconciliation/statement-file.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/${name}`, import.meta.url));
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
});
