import { firstStringField } from "./string-fields.js";

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
  return firstStringField(value, (text) => !isXmlSafe(text), path);
}

/** Replaces what XML 1.0 cannot hold with U+FFFD, so a report cell is always valid. */
export function xmlSafeText(text: string): string {
  return isXmlSafe(text) ? text : text.replace(new RegExp(XML_FORBIDDEN.source, "g"), "\uFFFD");
}
