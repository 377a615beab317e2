import { describe, expect, it } from "vitest";
import {
  cardGatewaySpec,
  createSpecValidator,
  paymentsAccountsSpec,
  pointerOf,
  resolveRef,
  specExamples,
} from "../src/index.js";

type Node = Record<string, any>;

describe.each([
  ["payments-accounts", paymentsAccountsSpec as Node],
  ["card-gateway", cardGatewaySpec as Node],
])("%s spec examples", (_name, spec) => {
  const validator = createSpecValidator(spec);
  const examples = specExamples(spec);
  const schemaExamples = Object.entries<Node>(spec.components.schemas).flatMap(([name, schema]) =>
    (schema.examples ?? []).map((value: unknown) => ({
      name: `schema ${name}`,
      pointer: pointerOf("components", "schemas", name),
      value,
    })),
  );

  it.each(examples.map((e) => [e.name, e] as const))("%s validates against its schema", (_label, example) => {
    expect(validator.validate(example.schemaPointer, example.value).errors).toEqual([]);
  });

  it.each(schemaExamples.map((e) => [e.name, e] as const))("%s example validates", (_label, example) => {
    expect(validator.validate(example.pointer, example.value).errors).toEqual([]);
  });

  it("declares an example on every JSON request body and response of every operation", () => {
    for (const [path, item] of Object.entries<Node>(spec.paths)) {
      for (const op of Object.values<Node>(item).filter((o) => o.operationId)) {
        const bodies: [string, Node][] = [];
        if (op.requestBody) bodies.push(["request", op.requestBody]);
        for (const [status, raw] of Object.entries<Node>(op.responses))
          bodies.push([status, resolveRef(spec, raw, [])[0]]);
        for (const [part, body] of bodies) {
          for (const mediaType of Object.keys(body.content ?? {}).filter((m) => m.includes("json"))) {
            const declared = examples.filter((e) => e.path === path && e.part === part && e.mediaType === mediaType);
            expect(declared.length, `${op.operationId} ${part} ${mediaType}`).toBeGreaterThan(0);
          }
        }
      }
    }
  });
});
