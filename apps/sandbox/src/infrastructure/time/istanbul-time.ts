/**
 * Europe/Istanbul has kept UTC+03:00 all year since 2016, so its days are fixed 24-hour spans: day
 * arithmetic (cut-offs, "the end of that date") needs no time-zone database.
 */
export const ISTANBUL_OFFSET_MS = 3 * 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * `yyyy-MM-dd HH:mm:ss` in Europe/Istanbul, the gateway's createdDate form: by the fixed offset, as
 * the dates below (an Intl formatter's parts cost a tenth of a dashboard page's time).
 */
export function istanbulDateTime(ms: number): string {
  return new Date(ms + ISTANBUL_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ");
}

/** `yyyy-MM-dd`, the Istanbul calendar date of `ms`. */
export function istanbulDate(ms: number): string {
  return new Date(ms + ISTANBUL_OFFSET_MS).toISOString().slice(0, 10);
}

/** The latest Istanbul midnight at or before `ms`. */
export function istanbulMidnightAtOrBefore(ms: number): number {
  return Math.floor((ms + ISTANBUL_OFFSET_MS) / DAY_MS) * DAY_MS - ISTANBUL_OFFSET_MS;
}

/** The first Istanbul midnight after `ms` (strictly). */
export function istanbulMidnightAfter(ms: number): number {
  return istanbulMidnightAtOrBefore(ms) + DAY_MS;
}

/**
 * The instant an Istanbul calendar date (`yyyy-MM-dd`) ends: its next midnight. Undefined when the
 * text is not a real date (2026-02-30).
 */
export function endOfIstanbulDate(date: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = Date.UTC(year, month - 1, day);
  if (new Date(start).toISOString().slice(0, 10) !== date) return undefined;
  return start + DAY_MS - ISTANBUL_OFFSET_MS;
}

/** The Istanbul calendar day of `ms` as a number of days since 1970-01-01 (what SQL gets by integer division). */
export function istanbulDayNumber(ms: number): number {
  return Math.floor((ms + ISTANBUL_OFFSET_MS) / DAY_MS);
}
