import { expect, it } from "vitest";
import { STYLESHEET, statusBadge } from "../../src/infrastructure/dashboard-shell/layout.js";
import { STATES, stateTone } from "../../src/infrastructure/i18n/status-words.js";

it("gives every state the dashboard words a badge coloured by its tone, each tone styled", () => {
  for (const state of STATES) {
    const tone = stateTone(state);
    expect(String(statusBadge(state)), state).toContain(`tone-${tone}`);
    expect(STYLESHEET, tone).toMatch(new RegExp(`\\.tone-${tone} \\{ background: #[0-9a-f]{6}; color: #[0-9a-f]{6}`));
  }
  expect(new Set(STATES.map(stateTone))).toEqual(new Set(["good", "waiting", "bad"]));
  // A state nobody named never reads as good.
  expect(stateTone("something_new")).toBe("waiting");
});
