/** Where a JSON text stops being JSON, for an error message that points without quoting. */
export interface JsonErrorPosition {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in characters. */
  readonly column: number;
  /** 0-based offset in UTF-8 bytes. */
  readonly byteOffset: number;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const LITERALS = ["true", "false", "null"] as const;

/** The offset just past a string that starts at `start` (a quote), or the offset of its first fault. */
function endOfString(text: string, start: number): { end: number; ok: boolean } {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) return { end: i + 1, ok: true };
    if (c === 92) {
      const escaped = text[i + 1];
      if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i += 2;
      else if (escaped === "u" && HEX4.test(text.slice(i + 2, i + 6))) i += 6;
      else return { end: i, ok: false };
    } else if (c < 32) {
      return { end: i, ok: false };
    } else {
      i++;
    }
  }
  return { end: i, ok: false };
}

/**
 * The character offset at which `text` stops being valid JSON (RFC 8259), or undefined when it is
 * valid. Iterative, so a hostile body of a million open brackets cannot overflow the stack.
 * JSON.parse's own messages quote the text around the fault, which may be a card number or a CVC;
 * this gives the place without the content.
 */
export function jsonErrorOffset(text: string): number | undefined {
  const closers: string[] = [];
  let i = 0;
  let expect: "value" | "key" | "key-or-close" | "after-value" = "value";
  const skipSpace = () => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  for (;;) {
    skipSpace();
    const c = text[i];
    if (expect === "value") {
      if (c === "{") {
        closers.push("}");
        i++;
        expect = "key-or-close";
      } else if (c === "[") {
        i++;
        skipSpace();
        const empty = text[i] === "]";
        if (empty) i++;
        else closers.push("]");
        expect = empty ? "after-value" : "value";
      } else if (c === '"') {
        const string = endOfString(text, i);
        if (!string.ok) return string.end;
        i = string.end;
        expect = "after-value";
      } else {
        NUMBER.lastIndex = i;
        const literal = LITERALS.find((l) => text.startsWith(l, i));
        if (NUMBER.test(text)) i = NUMBER.lastIndex;
        else if (literal) i += literal.length;
        else return i;
        expect = "after-value";
      }
    } else if (expect === "key" || expect === "key-or-close") {
      if (expect === "key-or-close" && c === "}") {
        closers.pop();
        i++;
        expect = "after-value";
        continue;
      }
      if (c !== '"') return i;
      const key = endOfString(text, i);
      if (!key.ok) return key.end;
      i = key.end;
      skipSpace();
      if (text[i] !== ":") return i;
      i++;
      expect = "value";
    } else {
      const closer = closers[closers.length - 1];
      if (closer === undefined) return i < text.length ? i : undefined;
      if (c === ",") {
        i++;
        expect = closer === "}" ? "key" : "value";
      } else if (c === closer) {
        closers.pop();
        i++;
      } else {
        return i;
      }
    }
  }
}

/** Line, column and byte of a character offset in `text`, for messages that point without quoting. */
export function positionOf(text: string, offset: number): JsonErrorPosition {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf("\n");
  return {
    line: before.split("\n").length,
    column: offset - lastBreak,
    byteOffset: Buffer.byteLength(before, "utf8"),
  };
}

export function jsonErrorPosition(text: string): JsonErrorPosition | undefined {
  const offset = jsonErrorOffset(text);
  return offset === undefined ? undefined : positionOf(text, offset);
}
