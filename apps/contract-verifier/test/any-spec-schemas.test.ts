import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseOptions, runVerification, type VerificationReport } from "../src/index.js";
import { startPrismOf } from "./prism-of-spec.js";

/*
 * The schema features real specs use, in one small document: $refs to request bodies, parameters
 * and responses, allOf / oneOf / const / type arrays / readOnly, a recursive schema, formats
 * json-schema-faker does not know, an operation without an operationId, a schema no value fits,
 * and numbers that pass Luhn without being card numbers. Held against Prism's mock of it.
 */
const LUHN_VALID_TIMESTAMP = 1763900000003;
const SPEC = `
openapi: 3.1.0
info: { title: Schema features, version: "1" }
paths:
  /accounts:
    post:
      operationId: createAccount
      requestBody: { $ref: "#/components/requestBodies/Account" }
      responses:
        "201":
          description: created
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Account" }
              example: { id: acc_1, createdAtMs: ${LUHN_VALID_TIMESTAMP} }
        "422": { $ref: "#/components/responses/Invalid" }
  /accounts/{id}:
    parameters:
      - $ref: "#/components/parameters/Id"
    get:
      responses:
        "200":
          description: the account's card
          content:
            application/json:
              schema: { type: object, properties: { cardNumber: { type: string } } }
              example: { cardNumber: "4242424242424242" }
        "422": { $ref: "#/components/responses/Invalid" }
  /impossible:
    post:
      operationId: impossible
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: string, minLength: 5, maxLength: 2 }
      responses:
        "200": { description: never }
components:
  parameters:
    Id: { name: id, in: path, required: true, schema: { type: string, pattern: "^acc_[a-z0-9]+$" } }
  requestBodies:
    Account:
      required: true
      content:
        application/json:
          schema: { $ref: "#/components/schemas/AccountCreate" }
  responses:
    Invalid:
      description: invalid
      content:
        application/json:
          schema: { type: object, properties: { message: { type: string } } }
  schemas:
    AccountCreate:
      allOf:
        - $ref: "#/components/schemas/Named"
        - type: object
          required: [password, kind]
          properties:
            id: { type: string, readOnly: true }
            password: { type: string, format: password, minLength: 8, maxLength: 64 }
            avatar: { type: string, format: byte }
            balance: { type: string, format: int64 }
            phone: { type: string, format: phone-number }
            kind: { const: personal }
            nickname: { type: [string, "null"], maxLength: 20 }
            contact:
              oneOf:
                - { type: object, required: [email], properties: { email: { type: string, format: email } }, additionalProperties: false }
                - { type: object, required: [fax], properties: { fax: { type: integer } }, additionalProperties: false }
            parent: { $ref: "#/components/schemas/Tree" }
    Named:
      type: object
      required: [name]
      properties: { name: { type: string, minLength: 1, maxLength: 40 } }
    Tree:
      type: object
      properties:
        label: { type: string }
        children: { type: array, items: { $ref: "#/components/schemas/Tree" } }
    Account:
      type: object
      required: [id]
      properties: { id: { type: string }, createdAtMs: { type: integer } }
`;

let dir: string;
let prism: Awaited<ReturnType<typeof startPrismOf>>;
let report: VerificationReport;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "payspec-any-spec-"));
  await writeFile(join(dir, "features.yaml"), SPEC);
  prism = await startPrismOf(join(dir, "features.yaml"));
  report = await runVerification(parseOptions(["--spec", join(dir, "features.yaml"), "--target", prism.url]));
});
afterAll(async () => {
  await prism?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const result = (id: string) => report.results.find((r) => r.id === id);

describe("--spec: data for every schema, and checks that mean what they say", () => {
  it("sends $ref'd bodies made of allOf, oneOf, const, readOnly, recursion and unknown formats, and they are accepted", () => {
    expect(result("positive.createAccount")?.status).toBe("passed");
    expect(result("generated.createAccount")?.status).toBe("passed");
    expect(result("negative.createAccount")?.status).toBe("passed");
    // The schema's own constraints, not only the example's: password's bounds come from an allOf member.
    const coverage = report.coverage?.operations.find((o) => o.operation === "POST /accounts");
    expect(coverage?.constraintsFound).toBeGreaterThanOrEqual(10);
    expect(coverage?.constraintsExercised).toBe(coverage?.constraintsFound);
  });

  it("names an operation without an operationId by its method and path, parameters given as $refs included", () => {
    expect(result("positive.GET /accounts/{id}")?.status).toBe("passed");
    expect(result("generated.GET /accounts/{id}")?.status).toBe("passed");
    expect(JSON.stringify(report)).not.toContain("undefined (GET");
  });

  it("reports a schema no value fits as a spec problem, not a crash", () => {
    expect(result("positive.impossible")?.status).toBe("error");
    expect(result("positive.impossible")?.note).toMatch(/^spec problem: no valid value could be made for/);
    expect(report.results.filter((r) => r.status === "error").map((r) => r.id.split(".")[1])).toEqual(
      expect.arrayContaining(["impossible"]),
    );
    expect(report.results.filter((r) => r.status === "error" && !r.id.endsWith("impossible"))).toEqual([]);
  });

  it("flags a Luhn-valid number only where a card number would be, not a timestamp", () => {
    const cardData = result("sensitive.card-data");
    expect(cardData?.status).toBe("failed");
    expect(cardData?.violations.length).toBeGreaterThan(0);
    for (const violation of cardData?.violations ?? [])
      expect(violation.actual).toContain("a 16-digit number that passes Luhn (a full card number), at cardNumber");
    expect(cardData?.violations.every((v) => v.operation.startsWith("GET /accounts/"))).toBe(true);
    expect(JSON.stringify(cardData)).not.toContain("createdAtMs");
  });

  it("reads the same document written as JSON, a trailing comma (which YAML allows) included", async () => {
    const json = JSON.stringify(parse(SPEC), null, 2).replace(/\n}$/, ",\n}");
    expect(() => JSON.parse(json), "the file is not plain JSON").toThrow(SyntaxError);
    await writeFile(join(dir, "features.json"), json);
    await writeFile(join(dir, "features-plain.json"), JSON.stringify(parse(SPEC)));
    const outcomes = (r: VerificationReport) => r.results.map((c) => `${c.id} ${c.status}`);
    for (const file of ["features.json", "features-plain.json"]) {
      const again = await runVerification(parseOptions(["--spec", join(dir, file), "--target", prism.url]));
      expect(outcomes(again), file).toEqual(outcomes(report));
    }
  });

  it("a syntax error in a JSON spec names the line and column too", async () => {
    await writeFile(join(dir, "broken.json"), '{\n  "openapi": "3.1.0",\n  "info": {\n    "title": "x"\n\n');
    await expect(
      runVerification(parseOptions(["--spec", join(dir, "broken.json"), "--target", prism.url])),
    ).rejects.toThrow(
      /is neither valid YAML nor JSON: at line 6, column 1, Flow map .+\. Fix the file there and run again\./,
    );
  });

  it("a syntax error names the line and column", async () => {
    await writeFile(join(dir, "broken.yaml"), "openapi: 3.1.0\ninfo:\n  title: x\n   version: 1\npaths: {}\n");
    await expect(
      runVerification(parseOptions(["--spec", join(dir, "broken.yaml"), "--target", prism.url])),
    ).rejects.toThrow(
      /is neither valid YAML nor JSON: at line \d+, column \d+, Nested mappings .+\. Fix the file there and run again\./,
    );
  });
});
