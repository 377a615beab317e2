import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PactV4 } from "@pact-foundation/pact";
import { makeConsumerPact } from "@pact-foundation/pact-core";
import { expect, it } from "vitest";
import { answeredAndRecorded } from "./answered-and-recorded.js";

const scratch = mkdtempSync(join(tmpdir(), "answered-and-recorded-"));
const pact = () =>
  new PactV4({ consumer: "probe-consumer", provider: "probe-provider", dir: scratch, logLevel: "error" });
const ask = makeConsumerPact("probe-asker", "pact-mock-server", undefined, "warn");

it("returns only once pact's mock server has recorded the request it answered", async () => {
  let recordedWhenReturned: boolean | undefined;
  await pact()
    .addInteraction()
    .uponReceiving("a request for the İstanbul şube's ğ ı accounts")
    .withRequest("GET", "/v1/accounts")
    .willRespondWith(200, (b) => b.jsonBody([{ name: "Vadesiz TRY — İstanbul şubesi" }]))
    .executeTest(async (server) => {
      await answeredAndRecorded(async (s: typeof server) => {
        const answer = await fetch(`${s.url}/v1/accounts`);
        expect(((await answer.json()) as { name: string }[])[0]?.name).toBe("Vadesiz TRY — İstanbul şubesi");
      })(server);
      recordedWhenReturned = ask.mockServerMatchedSuccessfully(server.port);
    });
  expect(recordedWhenReturned).toBe(true);
});

it("gives up after its bound when the request never came, so executeTest reports it missing instead of hanging", async () => {
  await expect(
    pact()
      .addInteraction()
      .uponReceiving("a request the test never sends")
      .withRequest("GET", "/v1/payments/pay_never0000000")
      .willRespondWith(200)
      .executeTest(answeredAndRecorded(async () => undefined)),
  ).rejects.toThrow(/expected but not received/);
});
