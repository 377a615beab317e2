import { dateTime } from "../i18n/formats.js";
import { t } from "../i18n/locale.js";
import { html, type SafeHtml } from "./html.js";

/**
 * A moment as the users read it: Europe/Istanbul wall-clock time in their language's format, the UTC instant on hover and in
 * the `datetime` attribute (for scripts and tests). Anything that is not a time is shown as it is.
 */
export function localTime(at: string | number | undefined, id?: string): SafeHtml | string {
  if (at === undefined || at === "") return "";
  const ms = typeof at === "number" ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return String(at);
  const iso = new Date(ms).toISOString();
  return html`<time ${id ? html`id="${id}"` : ""} datetime="${iso}" title="${iso} (UTC)">${dateTime(ms)}</time>`;
}

/**
 * Which clock a time was read from: a workspace's sandbox clock (payments, keys, schedules, exports,
 * reconciliation runs: it can be moved), the card gateway's own (also movable), or the real one (the
 * request log, the Outbox).
 */
export type Clock = "sandbox" | "gateway" | "real";

const CLOCK_NOTES: Record<Clock, readonly [en: string, tr: string]> = {
  sandbox: ["Istanbul, sandbox clock", "İstanbul, sandbox saati"],
  gateway: ["Istanbul, gateway clock", "İstanbul, ödeme geçidi saati"],
  real: ["Istanbul, real time", "İstanbul, gerçek zaman"],
};

/** What a time says beside it: its zone and its clock. */
export function clockNote(clock: Clock): string {
  return t(...CLOCK_NOTES[clock]);
}

/** A column or field of times, named with its clock: "Created (Istanbul, sandbox clock)". */
export function timeHeading(en: string, tr: string, clock: Clock): string {
  return `${t(en, tr)} (${clockNote(clock)})`;
}
