import { parse } from "csv-parse/sync";
import { t } from "../../infrastructure/i18n/locale.js";
import { statementProblem } from "./entry-fields.js";

/** A CSV record and the file line it starts on (blank lines skipped), so errors name the right one. */
export interface CsvRecord {
  readonly record: string[];
  readonly info: { readonly lines: number };
}

/** A statement's CSV records (a byte order mark dropped), or a 400 near the line that broke. */
export function csvRecords(text: string, delimiter?: string): CsvRecord[] {
  try {
    return parse(text, {
      ...(delimiter ? { delimiter } : {}),
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      bom: true,
    }) as unknown as CsvRecord[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw statementProblem(
      t(
        `The statement is not valid CSV${line ? ` near line ${line}` : ""}: check its quotes.`,
        `Ekstre${line ? ` ${line}. satır civarında` : ""} geçerli bir CSV değil: tırnak işaretlerini denetleyin.`,
      ),
    );
  }
}
