/**
 * A read asks whether anything is due as of this process's last reading of the clock while it reads
 * the clock (one round trip, not two). These check that the answer is only trusted when the clock has
 * not moved since that reading.
 */
import { expect, it } from "vitest";
import { settlementOff } from "../../../../test/support/clock-moves.js";
import { KEY } from "../../../../test/support/harness.js";
import { sandboxCall } from "../../../../test/support/sandbox-call.js";
import { twoInstancesOnOneDatabase } from "../../../../test/support/test-stores.js";
import { seedWorkspace } from "../../../index.js";

const COMPLETE_AFTER_SECONDS = 60;
const instances = twoInstancesOnOneDatabase({ completeAfterSeconds: COMPLETE_AFTER_SECONDS });

it("completes a payment on the first read after another instance moved the clock past its delay", async () => {
  const [a, b] = instances();
  // Completed, not settled, whatever the time of day the clock is moved at.
  await settlementOff(a.url, KEY);
  const [from, to] = seedWorkspace(KEY)
    .accounts.filter((account) => account.currency === "TRY")
    .map((account) => account.id);
  const created = await sandboxCall(a.url, "POST", "/v1/payments", {
    amount: 100,
    currency: "TRY",
    method: "eft",
    from_account: from,
    to_account: to,
  });
  expect(created.status).toBe(201);
  // A reads the clock (and keeps that reading): nothing is due yet.
  expect((await sandboxCall(a.url, "GET", `/v1/payments/${created.body.id}`)).body.status).toBe("pending");
  expect(
    (await sandboxCall(b.url, "POST", "/_sandbox/clock/advance", { seconds: 2 * COMPLETE_AFTER_SECONDS })).status,
  ).toBe(200);
  // A's last reading says nothing is due; the clock it reads in the same step says otherwise.
  const read = await sandboxCall(a.url, "GET", `/v1/payments/${created.body.id}`);
  expect(read.body.status).toBe("completed");
});
