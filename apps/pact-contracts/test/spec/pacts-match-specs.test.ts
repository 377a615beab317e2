import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cardGatewaySpec, paymentsAccountsSpec } from "@payspec/specs";
import { describe, expect, it } from "vitest";
import { crossCheckPact, type PactFile, type PactInteraction, pactsDir } from "../../src/index.js";

const specFor: Record<string, object> = {
  "payments-accounts-api": paymentsAccountsSpec,
  "card-gateway-api": cardGatewaySpec,
};

const pacts = readdirSync(pactsDir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(pactsDir, f), "utf8")) as PactFile);

const paymentsPact = pacts.find((p) => p.provider.name === "payments-accounts-api") as PactFile;
const withInteraction = (description: string, change: (i: PactInteraction) => PactInteraction): PactFile => {
  const base = paymentsPact.interactions.find((i) => i.description === description) as PactInteraction;
  return { ...paymentsPact, interactions: [change(structuredClone(base))] };
};

describe("every pact agrees with the OpenAPI specs", () => {
  it("covers both consumers", () => {
    expect(pacts.map((p) => p.provider.name).sort()).toEqual(["card-gateway-api", "payments-accounts-api"]);
  });

  it.each(pacts.map((p) => [`${p.consumer.name} -> ${p.provider.name}`, p] as const))("%s", (_name, pact) => {
    expect(crossCheckPact(pact, specFor[pact.provider.name] as object)).toEqual([]);
  });
});

describe("the cross-check catches an interaction that disagrees with the spec", () => {
  it("a status the spec does not declare", () => {
    const pact = withInteraction("a request for a payment that does not exist", (i) => ({
      ...i,
      response: { ...i.response, status: 410 },
    }));
    expect(crossCheckPact(pact, paymentsAccountsSpec).join()).toContain("status 410 is not declared");
  });

  it("a response body missing a required field", () => {
    const pact = withInteraction("a new TRY payment between two of its accounts", (i) => {
      const content = { ...(i.response.body?.content as Record<string, unknown>) };
      delete content.created_at;
      return { ...i, response: { ...i.response, body: { ...i.response.body, content } } };
    });
    expect(crossCheckPact(pact, paymentsAccountsSpec).join()).toContain("must have required property 'created_at'");
  });

  it("a request body outside a bound, when the interaction expects success", () => {
    const pact = withInteraction("a new TRY payment between two of its accounts", (i) => ({
      ...i,
      request: {
        ...i.request,
        body: {
          ...i.request.body,
          content: { ...(i.request.body?.content as object), amount: 1.5, method: "direct_debit" },
        },
      },
    }));
    const problems = crossCheckPact(pact, paymentsAccountsSpec).join();
    expect(problems).toContain("request body /amount must be integer");
    expect(problems).toContain("request body /method must be equal to one of the allowed values");
  });

  it("an operation the spec does not have", () => {
    const pact = withInteraction("a request for the workspace's accounts", (i) => ({
      ...i,
      request: { ...i.request, path: "/v1/wallets" },
    }));
    expect(crossCheckPact(pact, paymentsAccountsSpec)).toEqual([
      'payspec-payments-client -> payments-accounts-api: "a request for the workspace\'s accounts": GET /v1/wallets is not an operation of the spec',
    ]);
  });
});
