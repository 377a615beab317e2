import { crossCheckPact, loadPacts, type Pact, type PactInteraction } from "@payspec/contract-verifier";
import { describe, expect, it } from "vitest";
import { pactsDir } from "../../src/index.js";

const pacts = await loadPacts([pactsDir]);

const paymentsPact = pacts.find((p) => p.provider === "payments-accounts-api") as Pact;
const withInteraction = (description: string, change: (i: PactInteraction) => PactInteraction): Pact => {
  const base = paymentsPact.interactions.find((i) => i.description === description) as PactInteraction;
  return { ...paymentsPact, interactions: [change(structuredClone(base))] };
};

describe("every pact agrees with the OpenAPI specs", () => {
  it("covers both consumers", () => {
    expect(pacts.map((p) => p.provider).sort()).toEqual(["card-gateway-api", "payments-accounts-api"]);
  });

  it.each(pacts.map((p) => [`${p.consumer} -> ${p.provider}`, p] as const))("%s", (_name, pact) => {
    expect(crossCheckPact(pact)).toEqual([]);
  });
});

describe("the cross-check catches an interaction that disagrees with the spec", () => {
  it("a status the spec does not declare", () => {
    const pact = withInteraction("a request for a payment that does not exist", (i) => ({
      ...i,
      response: { ...i.response, status: 410 },
    }));
    expect(crossCheckPact(pact).join()).toContain("status 410 is not declared");
  });

  it("a response body missing a required field", () => {
    const pact = withInteraction("a new TRY payment between two of its accounts", (i) => {
      const body = { ...(i.response.body as Record<string, unknown>) };
      delete body.created_at;
      return { ...i, response: { ...i.response, body } };
    });
    expect(crossCheckPact(pact).join()).toContain("must have required property 'created_at'");
  });

  it("a request body outside a bound, when the interaction expects success", () => {
    const pact = withInteraction("a new TRY payment between two of its accounts", (i) => ({
      ...i,
      request: {
        ...i.request,
        body: { ...(i.request.body as object), amount: 1.5, method: "direct_debit" },
      },
    }));
    const problems = crossCheckPact(pact).join();
    expect(problems).toContain("request body /amount must be integer");
    expect(problems).toContain("request body /method must be equal to one of the allowed values");
  });

  it("an operation the spec does not have", () => {
    const pact = withInteraction("a request for the workspace's accounts", (i) => ({
      ...i,
      request: { ...i.request, path: "/v1/wallets" },
    }));
    expect(crossCheckPact(pact)).toEqual([
      'payspec-payments-client -> payments-accounts-api: "a request for the workspace\'s accounts": spec: GET /v1/wallets is not an operation of the spec',
    ]);
  });
});
