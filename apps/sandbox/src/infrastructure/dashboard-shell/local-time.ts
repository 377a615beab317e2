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
 * reconciliation runs: it can be moved) or the real one (the request log, the Outbox).
 */
export type Clock = "sandbox" | "real";

/** What a time says beside it: its zone and its clock. */
export function clockNote(clock: Clock): string {
  return clock === "sandbox"
    ? t("Istanbul, sandbox clock", "İstanbul, sandbox saati")
    : t("Istanbul, real time", "İstanbul, gerçek zaman");
}

/** A column or field of times, named with its clock: "Created (Istanbul, sandbox clock)". */
export function timeHeading(en: string, tr: string, clock: Clock): string {
  return `${t(en, tr)} (${clockNote(clock)})`;
}
