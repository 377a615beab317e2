import { dateTime } from "../i18n/formats.js";
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
