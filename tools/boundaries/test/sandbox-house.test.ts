import { expect, it } from "vitest";
import { drawHouse, drawnInReadme } from "../src/sandbox-house.js";

it("the sandbox README's house is the one the code draws today", async () => {
  const drawn = await drawHouse();
  // Every feature is a room; the ground floor and the roof are where they belong.
  expect(drawn).toMatch(/^floor \d+ {2}app /);
  expect(drawn).toMatch(/\nground {3}infrastructure /);
  // Its rooms counted with it: the modules and tests in payments/creation/, listing/, … are payments'.
  expect(drawn).toMatch(/ payments +\d+ modules in [2-9] rooms, \d+ test files, \d+ migrations +→ /);
  expect(drawnInReadme(), "apps/sandbox/README.md's house is stale: run `pnpm house` and commit the README").toBe(
    drawn,
  );
});
