import { describe, expect, it } from "vitest";
import {
  boundaryCases,
  cardGatewaySpec,
  createSpecValidator,
  schemaDisagreements,
  specExamples,
} from "../src/index.js";

describe("boundaryCases", () => {
  const validator = createSpecValidator(cardGatewaySpec);
  const request = specExamples(cardGatewaySpec).find(
    (e) => e.operationId === "createCardPayment" && e.part === "request",
  );
  if (!request) throw new Error("the card payment request example is missing");
  const cases = boundaryCases(cardGatewaySpec, request.schemaPointer, request.value);
  const verdict = (label: string) => {
    const c = cases.find((x) => x.label === label);
    if (!c) throw new Error(`no case ${label}; have ${cases.map((x) => x.label).join(", ")}`);
    return validator.validate(request.schemaPointer, c.value).valid;
  };

  it("changes only its own path: the valid value and every other case stay as they were", () => {
    const before = JSON.stringify(request.value);
    const again = boundaryCases(cardGatewaySpec, request.schemaPointer, request.value);
    expect(JSON.stringify(request.value)).toBe(before);
    expect(again.map((c) => JSON.stringify(c.value))).toEqual(cases.map((c) => JSON.stringify(c.value)));
    const card = (request.value as { card: unknown }).card;
    const amountCase = cases.find((c) => c.label === "amount: below minimum")?.value as {
      card: unknown;
      amount: number;
    };
    // What the case did not touch is shared, not copied; what it touched is its own.
    expect(amountCase.card).toBe(card);
    expect(amountCase.amount).not.toBe((request.value as { amount: number }).amount);
  });

  it("pushes each bound of the card payment to just inside and just outside", () => {
    expect(verdict("amount: minimum 0.01")).toBe(true);
    expect(verdict("amount: below minimum")).toBe(false);
    expect(verdict("walletAmount: minimum 0")).toBe(true);
    expect(verdict("walletAmount: below minimum")).toBe(false);
    expect(verdict("installment: fractional")).toBe(false);
    expect(verdict("products: fewer than 1 items")).toBe(false);
  });

  it("breaks patterns, formats, enums, required fields and closed objects", () => {
    expect(verdict('card.cvc: pattern broken (appended "x!")')).toBe(false);
    expect(verdict("clientIpAddress: bad ipv4")).toBe(false);
    expect(verdict("referenceId: bad uuid")).toBe(false);
    expect(verdict("currency: outside the enum")).toBe(false);
    expect(verdict("card: required cvc missing")).toBe(false);
    expect(verdict("(root): unknown field")).toBe(false);
  });

  it("never changes the valid value it starts from", () => {
    expect(validator.validate(request.schemaPointer, request.value).valid).toBe(true);
  });
});

describe("schemaDisagreements", () => {
  const example = specExamples(cardGatewaySpec).find(
    (e) => e.operationId === "createCardPayment" && e.part === "request",
  );
  if (!example) throw new Error("the card payment request example is missing");

  it("finds none for a validator that is the spec", () => {
    const validator = createSpecValidator(cardGatewaySpec);
    expect(
      schemaDisagreements(cardGatewaySpec, example, (v) => validator.validate(example.schemaPointer, v).valid),
    ).toEqual([]);
  });

  it("finds every case a lossy validator gets wrong", () => {
    const acceptsAnything = schemaDisagreements(cardGatewaySpec, example, () => true);
    expect(acceptsAnything.map((d) => d.label)).toContain('card.cvc: pattern broken (appended "x!")');
    expect(acceptsAnything.every((d) => d.spec === false && d.other === true)).toBe(true);
  });
});
