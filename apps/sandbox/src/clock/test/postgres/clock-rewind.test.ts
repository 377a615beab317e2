import { expect, it } from "vitest";
import { KEY } from "../../../../test/support/harness.js";
import { twoInstancesOnOneDatabase } from "../../../../test/support/test-stores.js";
import type { RunningSandbox } from "../../../index.js";

const instances = twoInstancesOnOneDatabase();

const move = async (sandbox: RunningSandbox, way: "advance" | "rewind", seconds: number) => {
  const answer = await fetch(`${sandbox.url}/_sandbox/clock/${way}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ seconds }),
  });
  return { status: answer.status, body: (await answer.json()) as { now?: string; message?: string } };
};

it("puts a shared clock back by what was moved on either instance, never before real time", async () => {
  const [a, b] = instances();
  await move(a, "advance", 500);
  await move(b, "advance", 500);
  const back = await move(b, "rewind", 700);
  expect(back.status).toBe(200);
  const ahead = Date.parse(back.body.now ?? "") - Date.now();
  expect(ahead).toBeGreaterThan(290_000);
  expect(ahead).toBeLessThan(310_000);
  const tooFar = await move(a, "rewind", 301);
  expect(tooFar.status).toBe(400);
  expect(tooFar.body.message).toContain("cannot move back further than real time");
  expect((await move(a, "rewind", 300)).status).toBe(200);
});
