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

/**
 * How many pieces of work are writing in a language now. On Node 20 an AsyncLocalStorage in use
 * turns on promise hooks for the whole process, and every await of every API request then costs
 * about three times as much; so the storage is turned off whenever nothing holds a language (Node 22
 * and later keep the context without hooks, and the storage costs nothing there).
 */
let holders = 0;

function release(): void {
  holders -= 1;
  if (holders === 0) current.disable();
}

/**
 * Keeps languages in effect until the returned function is called (at most once counts): for work
 * whose end is an event, such as a dashboard request whose response closes. Enter the language
 * itself with runInLocale.
 */
export function holdLocale(): () => void {
  holders += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}

/** Runs `write` with `locale` as the language of everything it starts, inside a holdLocale. */
export function runInLocale<T>(locale: Locale, write: () => T): T {
  return current.run(locale, write);
}

/** How many pieces of work hold a language now: zero when no page or letter is being written. */
export function localeHolders(): number {
  return holders;
}

export function activeLocale(): Locale {
  return current.getStore() ?? DEFAULT_LOCALE;
}

/**
 * Runs `write` with `locale` as the language of everything it writes (and everything it awaits),
 * until the promise it returns settles.
 */
export function inLocale<T>(locale: Locale, write: () => T): T {
  const done = holdLocale();
  let written: T;
  try {
    written = current.run(locale, write);
  } catch (error) {
    done();
    throw error;
  }
  if (written instanceof Promise) written.then(done, done);
  else done();
  return written;
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
