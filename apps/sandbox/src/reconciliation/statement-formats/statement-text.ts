import iconv from "iconv-lite";
import { t } from "../../infrastructure/i18n/locale.js";
import { firstBadUtf8 } from "../first-bad-utf8.js";
import { statementProblem } from "./entry-fields.js";

/** The encodings a statement may come in: what banks in Türkiye send, and UTF-16 with its BOM. */
export type StatementEncoding = "utf-8" | "windows-1254" | "iso-8859-9" | "utf-16le" | "utf-16be";

/** Bytes Windows-1254 leaves undefined: text holding one is not Windows-1254 either. */
const UNDEFINED_IN_1254 = new Set([0x81, 0x8d, 0x8e, 0x8f, 0x90, 0x9d, 0x9e]);

/** Where a byte is, as people find it in an editor: line and column (1-based). */
function position(bytes: Buffer, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The encoding an XML declaration names, if the file starts with one. */
function declaredEncoding(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 200).toString("latin1");
  return /^<\?xml[^>]*encoding=["']([A-Za-z0-9_-]+)["']/.exec(head)?.[1]?.toLowerCase();
}

/**
 * A statement's text, whatever Turkish banks save it in: a byte order mark decides (UTF-8, UTF-16);
 * else an XML declaration's encoding; else UTF-8 when every byte is UTF-8; else Windows-1254 (the
 * Turkish code page, a superset of ISO-8859-9's letters). A byte none of them can read is reported by
 * line and column, never quoted.
 */
export function statementText(bytes: Buffer): { text: string; encoding: StatementEncoding } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return utf8(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: iconv.decode(bytes.subarray(2), "utf-16le"), encoding: "utf-16le" };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: iconv.decode(bytes.subarray(2), "utf-16be"), encoding: "utf-16be" };
  const declared = declaredEncoding(bytes);
  if (declared === "iso-8859-9" || declared === "latin5")
    return { text: iconv.decode(bytes, "iso-8859-9"), encoding: "iso-8859-9" };
  if (declared === "windows-1254" || declared === "cp1254") return turkish(bytes);
  if (declared !== undefined && declared !== "utf-8" && declared !== "utf8") {
    throw statementProblem(
      t(
        `The statement declares the encoding ${declared.slice(0, 20)}; save it as UTF-8, Windows-1254 or ISO-8859-9.`,
        `Ekstre ${declared.slice(0, 20)} kodlamasını bildiriyor; UTF-8, Windows-1254 ya da ISO-8859-9 olarak kaydedin.`,
      ),
    );
  }
  const wrong = firstBadUtf8(bytes);
  // Text already written in UTF-8 before its first bad byte (a Turkish letter took two bytes) is a
  // UTF-8 file with a broken byte, not a Windows-1254 one: the byte is reported, nothing is guessed.
  const utf8Before = wrong !== undefined && bytes.subarray(0, wrong.byte).some((b) => b >= 0x80);
  if (declared !== undefined || wrong === undefined || utf8Before) return utf8(bytes);
  return turkish(bytes);
}

function utf8(bytes: Buffer): { text: string; encoding: "utf-8" } {
  const wrong = firstBadUtf8(bytes);
  if (wrong) {
    throw statementProblem(
      t(
        `Line ${wrong.line}, column ${wrong.column} (byte ${wrong.byte}): not UTF-8 text; save the statement as UTF-8, or as the bank sent it.`,
        `${wrong.line}. satır, ${wrong.column}. sütun (${wrong.byte}. bayt): UTF-8 metin değil; ekstreyi UTF-8 olarak ya da bankanın gönderdiği gibi kaydedin.`,
      ),
    );
  }
  return { text: bytes.toString("utf8"), encoding: "utf-8" };
}

function turkish(bytes: Buffer): { text: string; encoding: "windows-1254" } {
  const offset = bytes.findIndex((b) => UNDEFINED_IN_1254.has(b));
  if (offset !== -1) {
    const at = position(bytes, offset);
    throw statementProblem(
      t(
        `Line ${at.line}, column ${at.column} (byte ${offset}): neither UTF-8 nor Windows-1254 text; save the statement as UTF-8, or as the bank sent it.`,
        `${at.line}. satır, ${at.column}. sütun (${offset}. bayt): ne UTF-8 ne Windows-1254 metin; ekstreyi UTF-8 olarak ya da bankanın gönderdiği gibi kaydedin.`,
      ),
    );
  }
  return { text: iconv.decode(bytes, "windows-1254"), encoding: "windows-1254" };
}
