import fc from "fast-check";
import { expect, it } from "vitest";
import { istanbulDate, istanbulDateTime, istanbulMidnightAfter } from "../../src/infrastructure/time/istanbul-time.js";

/** What the time-zone database says Istanbul's wall clock read at `ms`. */
const fromZoneDatabase = (ms: number) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: "Europe/Istanbul",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
};

// Turkey has kept UTC+03:00 all year since 7 September 2016; the sandbox's clocks never go back
// before real time, and at most ten years ahead of it.
const SINCE = Date.UTC(2016, 8, 8);
const UNTIL = Date.UTC(2046, 0, 1);

it("reads Istanbul's wall clock by the fixed offset exactly as the time-zone database does", () => {
  fc.assert(
    fc.property(fc.integer({ min: SINCE, max: UNTIL }), (ms) => {
      expect(istanbulDateTime(ms)).toBe(fromZoneDatabase(ms));
      expect(istanbulDate(ms)).toBe(fromZoneDatabase(ms).slice(0, 10));
    }),
    { numRuns: 2_000 },
  );
});

it("turns the day at 21:00 UTC: the Istanbul date, its time and the next midnight", () => {
  const beforeMidnight = Date.UTC(2026, 10, 29, 20, 59, 59);
  expect(istanbulDateTime(beforeMidnight)).toBe("2026-11-29 23:59:59");
  expect(istanbulDateTime(beforeMidnight + 1000)).toBe("2026-11-30 00:00:00");
  expect(istanbulMidnightAfter(beforeMidnight)).toBe(beforeMidnight + 1000);
});
