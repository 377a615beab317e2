import { XMLParser, XMLValidator } from "fast-xml-parser";
import { t } from "../../infrastructure/i18n/locale.js";
import type { RawEntry } from "./entry-fields.js";
import { statementProblem } from "./entry-fields.js";
import { lineAndColumn, xmlElementOffsets } from "./text-position.js";

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  // Elements that may repeat are always lists, so one statement or one entry reads like many.
  isArray: (name) => ["Stmt", "Ntry", "TxDtls", "Ustrd", "Bal"].includes(name),
  // Only XML's five predefined entities: a statement defines none of its own.
  processEntities: true,
  htmlEntities: false,
});

const text = (value: unknown): string => {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return String((value as Node)["#text"] ?? "");
  return String(value);
};
const child = (node: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((at, key) => (at && typeof at === "object" ? (at as Node)[key] : undefined), node);
const list = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : value ? [value as Node] : []);

/** A date element (`<Dt>` or `<DtTm>`) as yyyy-MM-dd. */
function dateOf(node: unknown): string {
  const date = text(child(node, "Dt")) || text(child(node, "DtTm")).slice(0, 10);
  return date;
}

/** Whether the text is an ISO 20022 bank-to-customer statement (camt.053), any version. */
export function isCamt053(head: string): boolean {
  return /<(\w+:)?BkToCstmrStmt[\s>]/.test(head) || /camt\.053\.001\.\d\d/.test(head);
}

/** A file the parser may read: no document type or entities, well-formed (its first fault named by place). */
function refuseMalformed(xml: string): void {
  // Banks send no document type: one here could only define entities that expand without end.
  if (/<!(DOCTYPE|ENTITY)/i.test(xml)) {
    throw statementProblem(
      t(
        "The camt.053 file declares a document type or entities; send the statement as the bank produced it, without them.",
        "camt.053 dosyası bir belge türü ya da varlık (entity) tanımlıyor; ekstreyi bankanın ürettiği gibi, bunlar olmadan gönderin.",
      ),
    );
  }
  // The validator names the line and column of the first fault (its message would quote the file).
  const fault = XMLValidator.validate(xml);
  if (fault !== true) {
    const { line, col } = fault.err;
    throw statementProblem(
      t(
        `The camt.053 file is not well-formed XML: the first fault is at line ${line}, column ${col} (a tag not closed, or closed by another name); send the file as the bank produced it.`,
        `camt.053 dosyası düzgün biçimli bir XML değil: ilk hata ${line}. satır, ${col}. sütunda (kapanmamış ya da başka adla kapanmış bir etiket); dosyayı bankanın ürettiği gibi gönderin.`,
      ),
    );
  }
}

/** The file's statements (BkToCstmrStmt/Stmt): at least one, or the file is not a statement at all. */
function statementsOf(document: Node): Node[] {
  const statement = child(document, "Document", "BkToCstmrStmt");
  if (!statement)
    throw statementProblem(
      t(
        "The XML file is not a camt.053 statement (Document/BkToCstmrStmt).",
        "XML dosyası bir camt.053 ekstresi değil (Document/BkToCstmrStmt).",
      ),
    );
  const statements = list(child(statement, "Stmt"));
  // A statement with no entries is a day with no movement; a file with no statement is not one at all.
  if (statements.length === 0)
    throw statementProblem(
      t(
        "The camt.053 file holds no statement (BkToCstmrStmt/Stmt); send the file the bank produced for the day.",
        "camt.053 dosyasında hiç ekstre yok (BkToCstmrStmt/Stmt); bankanın o gün için ürettiği dosyayı gönderin.",
      ),
    );
  return statements;
}

/**
 * The entries of an ISO 20022 camt.053 statement (BankToCustomerStatement; V02 and V08 share these
 * paths): each `Ntry` with its amount and currency, debit or credit, value date (booking date when
 * there is none), references (EndToEndId, the creditor's structured reference) and narrative
 * (unstructured remittance information and the entry's additional information). A batch booking with
 * its transactions' own amounts becomes one entry per transaction.
 */
export function readCamt053(xml: string): RawEntry[] {
  refuseMalformed(xml);
  const document = parser.parse(xml) as Node;
  let offsets: Map<string, number> | undefined;
  /** An element's path as people read it (`Stmt/Ntry[2]/Amt`) and where it starts in the file. */
  const placed = (path: string, shown: string) => {
    offsets ??= xmlElementOffsets(xml);
    const offset = offsets.get(path);
    return offset === undefined ? shown : `${shown}, ${lineAndColumn(xml, offset)}`;
  };
  const statements = statementsOf(document);
  const entries: RawEntry[] = [];
  for (const [s, stmt] of statements.entries()) {
    for (const [k, ntry] of list(child(stmt, "Ntry")).entries()) {
      const direction = text(child(ntry, "CdtDbtInd")) === "DBIT" ? "debit" : "credit";
      const valueDate = dateOf(child(ntry, "ValDt")) || dateOf(child(ntry, "BookgDt"));
      const transactions = list(child(ntry, "NtryDtls", "TxDtls"));
      const additional = text(child(ntry, "AddtlNtryInf"));
      // V02 writes <Sts>BOOK</Sts>, V08 <Sts><Cd>BOOK</Cd></Sts>; an entry with none is booked.
      const status = (text(child(ntry, "Sts", "Cd")) || text(child(ntry, "Sts"))).trim().toUpperCase();
      const parts =
        transactions.length > 1 && transactions.every((tx) => child(tx, "Amt") !== undefined)
          ? transactions
          : [undefined];
      for (const [x, tx] of parts.entries()) {
        const details = tx ?? transactions[0];
        const stmtStep = statements.length > 1 ? `Stmt[${s + 1}]` : "Stmt";
        const entryPath = `Document[1]/BkToCstmrStmt[1]/Stmt[${s + 1}]/Ntry[${k + 1}]`;
        const amountPath = tx ? `${entryPath}/NtryDtls[1]/TxDtls[${x + 1}]/Amt[1]` : `${entryPath}/Amt[1]`;
        const amountShown = `${stmtStep}/Ntry[${k + 1}]${tx ? `/NtryDtls/TxDtls[${x + 1}]` : ""}/Amt`;
        const datePath = child(ntry, "ValDt") ? `${entryPath}/ValDt[1]` : `${entryPath}/BookgDt[1]`;
        const dateShown = `${stmtStep}/Ntry[${k + 1}]/${child(ntry, "ValDt") ? "ValDt" : "BookgDt"}`;
        const amountNode = tx ? child(tx, "Amt") : child(ntry, "Amt");
        const n = entries.length + 1;
        entries.push({
          where: t(`Entry ${n}`, `${n}. kayıt`),
          line: n,
          amount: text(amountNode),
          currency: String(child(amountNode, "@Ccy") ?? ""),
          direction,
          valueDate,
          references: [
            text(child(details, "Refs", "EndToEndId")),
            text(child(details, "RmtInf", "Strd", "CdtrRefInf", "Ref")),
          ],
          narrative: [
            ...list(child(details, "RmtInf", "Ustrd")).map(text),
            text(child(details, "AddtlTxInf")),
            additional,
          ]
            .filter(Boolean)
            .join(" "),
          ...(status && status !== "BOOK" ? { bankStatus: status } : {}),
          at: (field) =>
            field === "valueDate"
              ? placed(datePath, dateShown)
              : placed(amountPath, field === "currency" ? `${amountShown}/@Ccy` : amountShown),
        });
      }
    }
  }
  return entries;
}
