/**
 * Where a file stops being UTF-8: the line and column (1-based, in characters) of its first byte that
 * no UTF-8 sequence can hold, or undefined when every byte is right. Errors point there without
 * quoting the file.
 */
export function firstBadUtf8(bytes: Buffer): { line: number; column: number; byte: number } | undefined {
  const offset = firstBadOffset(bytes);
  if (offset === undefined) return undefined;
  const lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let i = 0; i < lineStart; i++) if (bytes[i] === 0x0a) line++;
  const column = bytes.toString("utf8", lineStart, offset).length + 1;
  return { line, column, byte: offset };
}

/** RFC 3629's well-formed sequences: no overlong forms, no surrogates, nothing past U+10FFFF. */
function firstBadOffset(bytes: Buffer): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return undefined;
}
