import type { ReportCadence } from "./schedule-store.js";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Europe/Istanbul has kept UTC+03:00 all year since 2016 (see istanbul-time.ts). */
const ISTANBUL_OFFSET_MS = 3 * 3_600_000;

/** The first due time strictly after `after`, on the cadence's Istanbul wall clock. */
export function nextDueAfter(cadence: ReportCadence, after: number): number {
  const [hours, minutes] = cadence.time.split(":").map(Number) as [number, number];
  const local = after + ISTANBUL_OFFSET_MS;
  const dayStart = Math.floor(local / DAY_MS) * DAY_MS;
  let due = dayStart + (hours * 60 + minutes) * MINUTE_MS;
  if (due <= local) due += DAY_MS;
  if (cadence.every === "week") {
    // 1970-01-01 was a Thursday (ISO 4).
    const weekday = (day: number) => ((Math.floor(day / DAY_MS) + 3) % 7) + 1;
    while (weekday(due) !== cadence.weekday) due += DAY_MS;
  }
  return due - ISTANBUL_OFFSET_MS;
}

/** The period a due time reports: the day or week that just ended. */
export function periodBefore(cadence: ReportCadence, dueAt: number): { from: number; to: number } {
  return { from: dueAt - (cadence.every === "week" ? 7 : 1) * DAY_MS, to: dueAt };
}
