import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, harness, KEY } from "../../../../test/support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await harness({ samplePayments: true, completeAfterSeconds: 30 });
});
afterAll(() => h.close());

it("starts a workspace with sample payments in every state a payment reaches by itself", async () => {
  const { data } = (await h.call("GET", "/v1/payments?limit=100", { key: KEY })).body;
  const count = (status: string) => data.filter((p: { status: string }) => p.status === status).length;
  // The quickstart lists completed payments: a fresh sandbox must have one, however late in the day it starts.
  expect([count("settled"), count("completed"), count("pending")]).toEqual([2, 1, 2]);
  for (const p of data.filter((p: { status: string }) => p.status === "settled"))
    expect(p.settled_at).toBeTypeOf("string");
});
