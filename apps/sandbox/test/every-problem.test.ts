import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { cardPayment, type Harness, harness, KEY } from "./support/harness.js";

/** A caller learns every problem of a request at once, not one per retry. */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
afterEach(() => expect(h.problems.splice(0)).toEqual([]));

it("lists every invalid field of a payment, in the message and in errors, param naming the first", async () => {
  const answer = await h.call("POST", "/v1/payments", {
    key: KEY,
    json: { amount: 0, currency: "try", method: "cheque", from_account: "acc_x", to_account: "acc_y" },
  });
  expect(answer.status).toBe(400);
  expect(answer.body.errors.map((e: { field: string }) => e.field)).toEqual(["amount", "currency", "method"]);
  for (const field of ["amount", "currency", "method"]) expect(answer.body.message).toContain(`${field}: `);
  expect(answer.body.param).toBe("amount");
  expect(answer.body.message).not.toMatch(/more problem/);
  // One field, one entry: the list is there too, so a client can always read it.
  const one = await h.call("GET", "/v1/payments?limit=0", { key: KEY });
  expect(one.body.errors).toEqual([{ field: "limit", message: expect.any(String) }]);
});

it("lists them per entry in a batch", async () => {
  const answer = await h.call("POST", "/v1/payments/batch", {
    key: KEY,
    json: { payments: [{ amount: -1, currency: "TRY", method: "eft", from_account: "a", to_account: "b", extra: 1 }] },
  });
  const fields = answer.body.results[0].error.errors.map((e: { field: string }) => e.field);
  expect(fields).toEqual(expect.arrayContaining(["amount", "extra", "from_account", "to_account"]));
});

it("names every invalid field in the gateway's message, keeping {code, message}", async () => {
  const token = await h.login();
  const answer = await h.call("POST", "/api/v1/payments/card", {
    token,
    json: cardPayment({ installment: 0, currency: "JPY" }, { expireMonth: "13" }),
  });
  expect(answer.status).toBe(400);
  expect(Object.keys(answer.body).sort()).toEqual(["code", "message"]);
  for (const field of ["installment", "currency", "card.expireMonth"]) expect(answer.body.message).toContain(field);
});

it("cites the spec's own bound for a number past every integer, masking nothing that is not a card number", async () => {
  const token = await h.login();
  const answer = await h.call("POST", "/api/v1/payments/card", {
    token,
    json: cardPayment({ installment: 2 ** 53 + 2 }),
  });
  expect(answer.status).toBe(400);
  expect(answer.body.message).toContain("installment: Too big: expected number to be <=36");
  expect(answer.body.message).not.toContain("*");
});
