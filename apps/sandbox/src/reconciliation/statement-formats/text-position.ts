import { t } from "../../infrastructure/i18n/locale.js";

/** "line 110, column 11" for an offset into a text, in the reader's language. */
export function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  const column = offset - lineStart + 1;
  return t(`line ${line}, column ${column}`, `${line}. satır, ${column}. sütun`);
}

/**
 * Where each element of an XML document starts, by its path with every step numbered among its
 * siblings of the same name (`Document[1]/BkToCstmrStmt[1]/Stmt[1]/Ntry[2]/Amt[1]`), namespace
 * prefixes dropped. Read only when an error needs a position: a 10 MB statement pays nothing for it.
 */
export function xmlElementOffsets(xml: string): Map<string, number> {
  const offsets = new Map<string, number>();
  const stack: { path: string; counts: Map<string, number> }[] = [{ path: "", counts: new Map() }];
  const token =
    /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<!\w[^>]*>|<(\/?)(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(?:"[^"]*"|'[^']*'|[^'">])*?(\/?)>/g;
  for (let m = token.exec(xml); m; m = token.exec(xml)) {
    const [, closing, name, selfClosing] = m;
    if (name === undefined) continue;
    if (closing) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const parent = stack[stack.length - 1] as { path: string; counts: Map<string, number> };
    const n = (parent.counts.get(name) ?? 0) + 1;
    parent.counts.set(name, n);
    const path = `${parent.path}${parent.path ? "/" : ""}${name}[${n}]`;
    offsets.set(path, m.index);
    if (!selfClosing) stack.push({ path, counts: new Map() });
  }
  return offsets;
}
