import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { spectralFindings } from "../src/lint-spec.js";
import { specFiles } from "../src/spec-files.js";

type Spec = Record<string, any>;

const [paymentsFile, gatewayFile] = specFiles as [string, string];

/** Lints a mutated copy of a real spec and returns the rule codes that fired. */
async function rulesFiredAfter(file: string, mutate: (spec: Spec) => void): Promise<string[]> {
  const spec = parse(readFileSync(file, "utf8")) as Spec;
  mutate(spec);
  const findings = await spectralFindings(file, stringify(spec));
  return findings.map((f) => f.rule);
}

describe("the payspec Spectral ruleset", () => {
  it("passes both real specs with zero findings", async () => {
    expect(await spectralFindings(paymentsFile)).toEqual([]);
    expect(await spectralFindings(gatewayFile)).toEqual([]);
  });

  it("requires a summary on every operation", async () => {
    const fired = await rulesFiredAfter(paymentsFile, (s) => {
      delete s.paths["/v1/accounts"].get.summary;
    });
    expect(fired).toContain("payspec-operation-summary");
  });

  it("requires an example on every JSON response", async () => {
    const fired = await rulesFiredAfter(paymentsFile, (s) => {
      delete s.paths["/v1/accounts"].get.responses["200"].content["application/json"].examples;
    });
    expect(fired).toContain("payspec-response-example");
  });

  it("requires an example on every JSON request body", async () => {
    const fired = await rulesFiredAfter(gatewayFile, (s) => {
      delete s.paths["/api/v1/payments/card"].post.requestBody.content["application/json"].examples;
    });
    expect(fired).toContain("payspec-request-example");
  });

  it("rejects an error response that does not use the API's Error schema", async () => {
    const fired = await rulesFiredAfter(gatewayFile, (s) => {
      s.paths["/auth/login"].post.responses["401"] = {
        description: "problem+json instead of {code, message}",
        content: {
          "application/problem+json": {
            schema: { type: "object", properties: { title: { type: "string" } } },
            examples: { p: { value: { title: "Unauthorized" } } },
          },
        },
      };
    });
    expect(fired).toContain("payspec-error-schema");
  });

  it("requires each decided seed gap to be marked", async () => {
    const fired = await rulesFiredAfter(paymentsFile, (s) => {
      delete s.components.schemas.Error["x-payspec-assumed"];
    });
    expect(fired).toContain("payspec-decisions-marked");
  });

  it("requires one-line assumption reasons", async () => {
    const fired = await rulesFiredAfter(gatewayFile, (s) => {
      s.components.schemas.Error["x-payspec-assumed"] = "first line\nsecond line";
    });
    expect(fired).toContain("payspec-assumption-reason");
  });

  it("rejects unused components", async () => {
    const fired = await rulesFiredAfter(paymentsFile, (s) => {
      s.components.schemas.Orphan = { type: "string", description: "nobody refers to me" };
    });
    expect(fired).toContain("oas3-unused-component");
  });
});
