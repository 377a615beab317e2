import { describe, expect, it } from "vitest";
import { cardGatewaySpec, createSpecValidator, paymentsAccountsSpec, pointerOf } from "../src/index.js";

type Node = Record<string, any>;

interface ExampleCase {
  readonly name: string;
  readonly schemaPointer: string;
  readonly value: unknown;
}

const METHODS = ["get", "put", "post", "delete", "patch"];

function deref(spec: Node, node: Node): Node {
  if (typeof node?.$ref !== "string") return node;
  return node.$ref
    .slice(2)
    .split("/")
    .reduce((n: Node, k: string) => n[k.replaceAll("~1", "/").replaceAll("~0", "~")], spec);
}

/** Every example in the spec: media-type examples of bodies and responses, and parameter examples. */
function examplesOf(spec: Node): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const fromContent = (where: string, content: Node | undefined, base: (string | number)[]) => {
    for (const [mediaType, media] of Object.entries(content ?? {})) {
      if (!mediaType.includes("json")) continue;
      for (const [exampleName, example] of Object.entries<Node>(media.examples ?? {})) {
        cases.push({
          name: `${where} ${mediaType} example "${exampleName}"`,
          schemaPointer: pointerOf(...base, "content", mediaType, "schema"),
          value: example.value,
        });
      }
    }
  };
  for (const [path, item] of Object.entries<Node>(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (op.requestBody)
        fromContent(`${where} request`, op.requestBody.content, ["paths", path, method, "requestBody"]);
      for (const [status, raw] of Object.entries<Node>(op.responses)) {
        const base =
          typeof raw.$ref === "string"
            ? raw.$ref
                .slice(2)
                .split("/")
                .map((k: string) => k.replaceAll("~1", "/"))
            : ["paths", path, method, "responses", status];
        fromContent(`${where} ${status}`, deref(spec, raw).content, base);
      }
      (op.parameters ?? []).forEach((param: Node, i: number) => {
        if (param.example !== undefined) {
          cases.push({
            name: `${where} parameter ${param.name}`,
            schemaPointer: pointerOf("paths", path, method, "parameters", i, "schema"),
            value: param.example,
          });
        }
      });
    }
  }
  for (const [name, schema] of Object.entries<Node>(spec.components.schemas)) {
    (schema.examples ?? []).forEach((value: unknown, i: number) => {
      cases.push({
        name: `schema ${name} example ${i}`,
        schemaPointer: pointerOf("components", "schemas", name),
        value,
      });
    });
  }
  return cases;
}

describe.each([
  ["payments-accounts", paymentsAccountsSpec as Node],
  ["card-gateway", cardGatewaySpec as Node],
])("%s spec examples", (_name, spec) => {
  const validator = createSpecValidator(spec);
  const cases = examplesOf(spec);

  it("has examples to check", () => {
    expect(cases.length).toBeGreaterThan(10);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s validates against its schema", (_label, c) => {
    expect(validator.validate(c.schemaPointer, c.value).errors).toEqual([]);
  });

  it("declares an example on every JSON request body and response", () => {
    for (const [path, item] of Object.entries<Node>(spec.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const bodies = [op.requestBody, ...Object.values<Node>(op.responses).map((r) => deref(spec, r))];
        for (const body of bodies.filter(Boolean)) {
          for (const [mediaType, media] of Object.entries<Node>(body.content ?? {})) {
            if (mediaType.includes("json")) {
              expect(Object.keys(media.examples ?? {}), `${method} ${path} ${mediaType}`).not.toHaveLength(0);
            }
          }
        }
      }
    }
  });
});
