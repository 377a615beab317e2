import { html, type SafeHtml } from "./html.js";

/** Characters kept at a cut token's end: what tells `FTR-2026-000123` from `FTR-2026-000125`. */
const TAIL = 6;

/**
 * An identifier or reference on one line, never broken inside (`FTR-2026-000125` is one thing). When
 * its column is too narrow it is cut in the middle, keeping its end (`FTR-20…000125`): references of
 * one series differ at their end, so an end cut made them all read alike. The whole value is in its
 * title on hover and shown whole while its row has the keyboard's focus or a finger's tap.
 */
export function token(value: string, shownOn?: "wide-only" | "narrow-only"): SafeHtml {
  const chars = Array.from(value);
  const split = chars.length > TAIL * 2;
  const head = split ? chars.slice(0, -TAIL).join("") : value;
  const tail = split ? chars.slice(-TAIL).join("") : "";
  const classes = `token${shownOn ? ` ${shownOn}` : ""}`;
  if (!split) return html`<span class="${classes}" title="${value}"><span class="token-head">${value}</span></span>`;
  // Read as one word: two boxes side by side are read with a space between them (`FTR-2026- 000125`),
  // so assistive technology reads a copy of the whole value instead.
  return html`<span class="${classes}" title="${value}"><span class="token-head" aria-hidden="true">${head}</span><span class="token-tail" aria-hidden="true">${tail}</span><span class="visually-hidden">${value}</span></span>`;
}
