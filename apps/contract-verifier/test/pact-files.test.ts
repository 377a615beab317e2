import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { crossCheckPact, parsePact } from "../src/index.js";
import type { Rules } from "../src/pact/pact-file.js";
import { bodyMismatches, headerMismatches, statusMismatch } from "../src/pact/pact-matching.js";

// The shapes pact libraries write, by specification version (the same interaction in each).
const v2 = {
  consumer: { name: "shop" },
  provider: { name: "payments" },
  interactions: [
    {
      description: "a pending payment",
      providerState: "a pending payment exists",
      request: {
        method: "GET",
        path: "/v1/payments/pay_1",
        query: "expand=none",
        headers: { Authorization: "Bearer x" },
      },
      response: {
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: { id: "pay_1", status: "pending", amount: 100 },
        matchingRules: { "$.body.id": { match: "regex", regex: "pay_\\w+" }, "$.body.amount": { match: "type" } },
      },
    },
  ],
  metadata: { pactSpecification: { version: "2.0.0" } },
};
const v3 = {
  ...v2,
  interactions: [
    {
      description: "a pending payment",
      providerStates: [{ name: "a pending payment exists", params: { amount: 100 } }],
      request: {
        method: "GET",
        path: "/v1/payments/pay_1",
        query: { expand: ["none"] },
        headers: { Authorization: "Bearer x" },
        generators: { path: { type: "ProviderState", expression: "/v1/payments/${id}" } },
      },
      response: {
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: { id: "pay_1", status: "pending", amount: 100 },
        matchingRules: {
          body: {
            "$.id": { matchers: [{ match: "regex", regex: "pay_\\w+" }], combine: "AND" },
            "$.amount": { matchers: [{ match: "type" }] },
          },
        },
      },
    },
  ],
  metadata: { pactSpecification: { version: "3.0.0" } },
};
const v4 = {
  ...v3,
  interactions: [
    {
      ...v3.interactions[0],
      type: "Synchronous/HTTP",
      request: { ...v3.interactions[0]?.request, headers: { Authorization: ["Bearer x"] } },
      response: {
        ...v3.interactions[0]?.response,
        headers: { "Content-Type": ["application/json"] },
        body: {
          content: { id: "pay_1", status: "pending", amount: 100 },
          contentType: "application/json",
          encoded: false,
        },
      },
    },
    { type: "Asynchronous/Messages", description: "a payment event", contents: {} },
  ],
  metadata: { pactSpecification: { version: "4.0" } },
};

describe("reading pacts V2, V3 and V4 into one model", () => {
  it.each([
    ["V2", v2],
    ["V3", v3],
    ["V4", v4],
  ])("%s", (_version, raw) => {
    const pact = parsePact(JSON.stringify(raw), "shop.json");
    expect(pact.consumer).toBe("shop");
    const [interaction] = pact.interactions;
    expect(interaction?.providerStates[0]?.name).toBe("a pending payment exists");
    expect(interaction?.request).toMatchObject({ method: "GET", path: "/v1/payments/pay_1", query: "expand=none" });
    expect(interaction?.request.headers.authorization).toBe("Bearer x");
    expect(interaction?.response.body).toEqual({ id: "pay_1", status: "pending", amount: 100 });
    expect(interaction?.response.rules.body.get("$.id")?.[0]).toMatchObject({ match: "regex" });
    expect(interaction?.response.rules.body.get("$.amount")?.[0]).toMatchObject({ match: "type" });
  });

  it("reads eachLike as pact-js 9 and pact-python 1.x write it: {min} with no match is a type match", () => {
    const old = {
      ...v2,
      interactions: [
        {
          description: "the accounts",
          request: { method: "GET", path: "/v1/accounts" },
          response: {
            status: 200,
            headers: { "Content-Type": "application/json" },
            body: [{ id: "acc_1", currency: "TRY", balance: 1 }],
            matchingRules: { "$.body": { min: 1 }, "$.body[*].*": { match: "type" } },
          },
        },
      ],
    };
    const [interaction] = parsePact(JSON.stringify(old), "shop.json").interactions;
    const rules = interaction?.response.rules.body as Rules;
    expect(rules.get("$")?.[0]).toMatchObject({ match: "type", min: 1 });
    const six = Array.from({ length: 6 }, (_, i) => ({ id: `acc_${i}`, currency: "USD", balance: i * 10 }));
    expect(bodyMismatches(interaction?.response.body, six, rules)).toEqual([]);
    expect(bodyMismatches(interaction?.response.body, [], rules)).toEqual(["$: expected at least 1 items, got 0"]);
  });

  it("keeps a V3 provider state's params and generators, and names what it cannot check", () => {
    const pact = parsePact(JSON.stringify(v4), "shop.json");
    expect(pact.interactions[0]?.providerStates[0]?.params).toEqual({ amount: 100 });
    expect(pact.interactions[0]?.request.fromProviderState).toEqual([
      { part: "path", at: "", expression: "/v1/payments/${id}" },
    ]);
    expect(pact.skipped).toEqual([
      '"a payment event" is a Asynchronous/Messages interaction: only HTTP interactions are checked',
    ]);
  });

  it("reads a JSON body with no Content-Type as JSON, as the official verifier does (pact-python 1.x writes them)", () => {
    const noType = {
      ...v2,
      interactions: [
        {
          description: "an unknown payment",
          request: { method: "GET", path: "/v1/payments/pay_missing", headers: { Authorization: "Bearer x" } },
          response: { status: 404, body: { code: "not_found", message: "No payment pay_missing." } },
        },
      ],
    };
    expect(crossCheckPact(parsePact(JSON.stringify(noType), "shop.json"))).toEqual([]);
    // Still judged: a body the spec's error shape does not allow is reported.
    const wrong = structuredClone(noType);
    (wrong.interactions[0] as { response: { body: unknown } }).response.body = { error: 1 };
    expect(crossCheckPact(parsePact(JSON.stringify(wrong), "shop.json")).join()).toContain(
      "must have required property 'code'",
    );
  });

  it("names a V3 message pact's messages as not checked, as pact-jvm writes one, instead of refusing the file", () => {
    const file = fileURLToPath(
      new URL("./fixtures/implementation-pacts/pact-jvm-v3-message-pact.json", import.meta.url),
    );
    const pact = parsePact(readFileSync(file, "utf8"), "messages.json");
    expect(pact.interactions).toEqual([]);
    expect(pact.skipped).toEqual([
      '"a hello message" is a message (a V3 message pact): only HTTP interactions are checked',
    ]);
  });

  it("says what is wrong with a file that is not a pact, without quoting it", () => {
    expect(() => parsePact("{ not json", "x.json")).toThrow("x.json is not JSON");
    expect(() => parsePact('{"pets": []}', "x.json")).toThrow('x.json has no "interactions" list');
  });

  it("holds the interaction to the spec: undeclared query parameters and bounds", () => {
    const pact = parsePact(JSON.stringify(v3), "shop.json");
    expect(crossCheckPact(pact)).toEqual([
      'shop -> payments: "a pending payment": spec: query parameter expand is not declared',
      // A body the spec requires more of: today's rule, every required field in the recorded answer.
      expect.stringContaining("must have required property 'currency'"),
      expect.stringContaining("must have required property 'method'"),
      expect.stringContaining("must have required property 'created_at'"),
    ]);
  });
});

describe("Pact's matching rules", () => {
  const rules = (entries: Record<string, object[]>) => new Map(Object.entries(entries)) as never;

  it("matches by value where no rule applies, and allows fields the consumer does not read", () => {
    expect(bodyMismatches({ a: 1, b: "x" }, { a: 1, b: "x", extra: true }, rules({}))).toEqual([]);
    expect(bodyMismatches({ a: 1 }, { a: 2 }, rules({}))).toEqual([
      "$.a: expected the value the pact records, got another",
    ]);
    expect(bodyMismatches({ a: 1 }, {}, rules({}))).toEqual(["$.a: expected a field the answer does not have"]);
  });

  it("a type rule carries down; eachLike bounds hold every item to the first", () => {
    const like = rules({ "$.items": [{ match: "type", min: 1 }] });
    expect(
      bodyMismatches(
        { items: [{ id: "a", n: 1 }] },
        {
          items: [
            { id: "b", n: 2 },
            { id: "c", n: 3 },
          ],
        },
        like,
      ),
    ).toEqual([]);
    expect(bodyMismatches({ items: [{ id: "a", n: 1 }] }, { items: [] }, like)).toEqual([
      "$.items: expected at least 1 items, got 0",
    ]);
    expect(bodyMismatches({ items: [{ id: "a", n: 1 }] }, { items: [{ id: "b", n: "2" }] }, like)).toEqual([
      "$.items[0].n: expected a number, got a string",
    ]);
  });

  it("V4's collection matchers, combine OR, semver and statusCode, as the official verifier reads them", () => {
    const accounts = [{ currency: "TRY" }, { currency: "USD" }];
    // The variant's item is matched by value, as no rule of its own says otherwise.
    const contains = rules({ $: [{ match: "arrayContains", variants: [{ index: 0, rules: new Map() }] }] });
    expect(bodyMismatches([{ currency: "USD" }], accounts, contains)).toEqual([]);
    expect(bodyMismatches([{ currency: "GBP" }], accounts, contains)).toEqual([
      "$: expected an array holding an item like its item 0, got none that is",
    ]);
    const either = rules({
      "$[*].currency": [
        { match: "regex", regex: "TRY", combine: "OR" },
        { match: "regex", regex: "USD", combine: "OR" },
      ],
      $: [{ match: "type", min: 1 }],
    });
    expect(bodyMismatches([{ currency: "TRY" }], accounts, either)).toEqual([]);
    expect(bodyMismatches([{ currency: "TRY" }], [{ currency: "EUR" }], either)).toHaveLength(1);
    const snake = rules({ $: [{ match: "eachKey", rules: [{ match: "regex", regex: "[a-z_]+" }] }] });
    expect(bodyMismatches({ a: 1 }, { from_account: "x", amount: 1 }, snake)).toEqual([]);
    expect(bodyMismatches({ a: 1 }, { fromAccount: "x" }, snake).join()).toContain("every key to be text matching");
    const byValue = rules({ $: [{ match: "values" }] });
    expect(bodyMismatches({ x: { n: 1 } }, { a: { n: 2 }, b: { n: 3 } }, byValue)).toEqual([]);
    expect(bodyMismatches({ x: { n: 1 } }, { a: { n: "2" } }, byValue)).toHaveLength(1);
    const version = rules({ "$.v": [{ match: "semver" }] });
    expect(bodyMismatches({ v: "1.0.0" }, { v: "2.10.3-rc.1" }, version)).toEqual([]);
    expect(bodyMismatches({ v: "1.0.0" }, { v: "v2" }, version)).toHaveLength(1);
    expect(statusMismatch(200, 201, [{ match: "statusCode", status: "success" }])).toBeUndefined();
    expect(statusMismatch(400, 409, [{ match: "statusCode", status: [400, 422] }])).toBe(
      "a status that is 400 or 422, got 409",
    );
    expect(statusMismatch(200, 201, undefined)).toBe("status 200, got 201");
  });

  it("regex, integer and the closest rule win", () => {
    const r = rules({ "$.id": [{ match: "regex", regex: "pay_\\w+" }], "$.*": [{ match: "integer" }] });
    expect(bodyMismatches({ id: "pay_1", n: 1 }, { id: "pay_2", n: 5 }, r)).toEqual([]);
    expect(bodyMismatches({ id: "pay_1", n: 1 }, { id: "acc_2", n: 1.5 }, r)).toEqual([
      '$.id: expected text matching /pay_\\w+/ as a whole (a Pact regex must match the entire value), got "acc_2"',
      "$.n: expected an integer, got a number",
    ]);
    // Matching in part is not matching: the message says so, with the value (card numbers masked).
    const media = rules({ "$.type": [{ match: "regex", regex: "application/json" }] });
    expect(bodyMismatches({ type: "application/json" }, { type: "application/json; charset=utf-8" }, media)).toEqual([
      '$.type: expected text matching /application/json/ as a whole (a Pact regex must match the entire value), got "application/json; charset=utf-8", which it matches only in part',
    ]);
    const card = rules({ "$.note": [{ match: "regex", regex: "paid" }] });
    expect(bodyMismatches({ note: "paid" }, { note: "card 4111111111111111 declined" }, card).join()).toContain(
      "card 411111******1111 declined",
    );
  });

  it("headers: by name in any case, Content-Type by media type unless the pact names parameters", () => {
    expect(
      headerMismatches(
        { "content-type": "application/json" },
        { "content-type": "application/json; charset=utf-8" },
        rules({}),
      ),
    ).toEqual([]);
    expect(
      headerMismatches({ "content-type": "application/json" }, { "content-type": "text/html" }, rules({})),
    ).toEqual(['header content-type: expected "application/json", got "text/html"']);
    expect(headerMismatches({ location: "/v1/payments/x" }, {}, rules({}))).toEqual([
      "header location: expected it, the answer has none",
    ]);
  });
});
