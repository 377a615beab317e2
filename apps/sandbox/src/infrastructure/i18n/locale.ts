import { AsyncLocalStorage } from "node:async_hooks";

/** The languages of the dashboard, its e-mails and its PDFs. */
export const LOCALES = ["tr", "en"] as const;
export type Locale = (typeof LOCALES)[number];

/** English where nobody asked for a language: what API clients and scripts have always read. */
export const DEFAULT_LOCALE: Locale = "en";

/** Each language named in itself, as a person looks for their own. */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = { tr: "Türkçe", en: "English" };

export const isLocale = (value: unknown): value is Locale => value === "tr" || value === "en";

/**
 * The language of what is being written now: a dashboard request's (see negotiateLocale), or the one
 * a background job writes its e-mail in. Held per async call chain, as Fastify's request context is,
 * so a page's helpers (money, times, badges) need no language argument threaded through every call.
 */
const current = new AsyncLocalStorage<Locale>();

export function activeLocale(): Locale {
  return current.getStore() ?? DEFAULT_LOCALE;
}

/** Runs `write` with `locale` as the language of everything it writes (and everything it awaits). */
export function inLocale<T>(locale: Locale, write: () => T): T {
  return current.run(locale, write);
}

/**
 * The text in the active language. Both are written side by side where the text is used, so no
 * sentence exists in one language only and a reader sees what each says.
 */
export function t(en: string, tr: string): string {
  return activeLocale() === "tr" ? tr : en;
}

/**
 * The language a browser prefers among ours, from its Accept-Language header (RFC 9110 §12.5.4):
 * the highest q-value wins, `tr-TR` counts as `tr`, and `q=0` means "not this one".
 */
export function negotiateLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  let best: { locale: Locale; q: number } | undefined;
  for (const part of acceptLanguage.split(",").slice(0, 32)) {
    const [range = "", ...params] = part.trim().split(";");
    const primary = range.trim().toLowerCase().split("-", 1)[0];
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    const locale = isLocale(primary) ? primary : undefined;
    if (locale && (best === undefined || q > best.q)) best = { locale, q };
  }
  return best?.locale ?? DEFAULT_LOCALE;
}
