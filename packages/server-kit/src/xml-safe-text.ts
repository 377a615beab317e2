/**
 * Characters XML 1.0 forbids (C0 controls but tab, LF and CR; U+FFFE, U+FFFF) and lone UTF-16
 * surrogates. One of them in a cell makes a whole .xlsx unreadable, so gateway text carrying one
 * is refused at the API and never reaches a report.
 */
const XML_FORBIDDEN = new RegExp(
  "[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]" +
    "|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]",
);

export function isXmlSafe(text: string): boolean {
  return !XML_FORBIDDEN.test(text);
}

/** The dotted path of the first key or string in `value` that XML 1.0 cannot hold, if any. */
export function firstXmlUnsafeField(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return isXmlSafe(value) ? undefined : path || "body";
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstXmlUnsafeField(item, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (!isXmlSafe(key)) return path || "body";
      const found = firstXmlUnsafeField(item, field);
      if (found) return found;
    }
  }
  return undefined;
}

/** Replaces what XML 1.0 cannot hold with U+FFFD, so a report cell is always valid. */
export function xmlSafeText(text: string): string {
  return isXmlSafe(text) ? text : text.replace(new RegExp(XML_FORBIDDEN.source, "g"), "\uFFFD");
}
