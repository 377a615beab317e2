import { describe, expect, it } from "vitest";
import { nextDueAfter, periodBefore } from "../../due-times.js";

const at = (iso: string) => Date.parse(iso);

describe("a report schedule's due times (Europe/Istanbul, UTC+03:00)", () => {
  it("is due daily at its Istanbul time: later today, or tomorrow once that time has passed", () => {
    const daily = { every: "day" as const, time: "09:00" };
    // 05:00 UTC is 08:00 in Istanbul: 09:00 Istanbul (06:00 UTC) is still to come today.
    expect(new Date(nextDueAfter(daily, at("2026-11-24T05:00:00Z"))).toISOString()).toBe("2026-11-24T06:00:00.000Z");
    // Exactly at a due time: the next one is a day later (strictly after).
    expect(new Date(nextDueAfter(daily, at("2026-11-24T06:00:00Z"))).toISOString()).toBe("2026-11-25T06:00:00.000Z");
    // 22:30 UTC is already the next day in Istanbul (01:30).
    expect(new Date(nextDueAfter(daily, at("2026-11-24T22:30:00Z"))).toISOString()).toBe("2026-11-25T06:00:00.000Z");
  });

  it("is due weekly on its ISO weekday, and reports the week or day just ended", () => {
    // 2026-11-24 is a Tuesday; Monday (1) at 00:00 Istanbul is 2026-11-29T21:00Z.
    const weekly = { every: "week" as const, weekday: 1, time: "00:00" };
    const due = nextDueAfter(weekly, at("2026-11-24T12:00:00Z"));
    expect(new Date(due).toISOString()).toBe("2026-11-29T21:00:00.000Z");
    expect(nextDueAfter(weekly, due) - due).toBe(7 * 86_400_000);
    expect(periodBefore(weekly, due)).toEqual({ from: due - 7 * 86_400_000, to: due });
    expect(periodBefore({ every: "day", time: "09:00" }, due)).toEqual({ from: due - 86_400_000, to: due });
  });
});
