/**
 * How text is compared when people search it: case-insensitive by Turkish rules, where I/ı and İ/i
 * are two pairs, yet a Turkish or English user types either dot (`inv` finds `İNV-7` and `INV-7`,
 * `ışık` finds `IŞIK`), so all four fold to `i`. Accents stay: `ç` is not `c`, `ş` is not `s`.
 * The same table serves JavaScript (memory) and SQL's translate() (PostgreSQL), so both stores find
 * the same payments.
 */
export const FOLD_FROM = "ABCDEFGHIJKLMNOPQRSTUVWXYZÇĞİÖŞÜÂÎÛÄËÏÉÈÊÁÀÍÓÒÚÙÑı";
export const FOLD_TO = "abcdefghijklmnopqrstuvwxyzçğiöşüâîûäëïéèêáàíóòúùñi";

const TABLE = new Map([...FOLD_FROM].map((from, i) => [from, [...FOLD_TO][i] as string]));

/** The text as search compares it: Unicode NFC, then folded letter by letter. */
export function foldForSearch(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFC")) out += TABLE.get(ch) ?? ch;
  return out;
}
