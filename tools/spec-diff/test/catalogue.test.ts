import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CHANGE_CATALOGUE, PayspecDiffer, type SpecName } from "../src/index.js";

const specFile = (name: SpecName) => fileURLToPath(new URL(`../../../specs/${name}.openapi.yaml`, import.meta.url));
const differ = new PayspecDiffer();

/** Every (class, spec) pair the catalogue has an edit for. */
const cases = CHANGE_CATALOGUE.flatMap((cls) =>
  (Object.entries(cls.edits) as [SpecName, (spec: unknown) => void][]).map(([spec, edit]) => ({ cls, spec, edit })),
);

describe("the change catalogue, applied to the real specs", () => {
  it("covers every class the gate must know, each with an edit on at least one spec", () => {
    const ids = CHANGE_CATALOGUE.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const cls of CHANGE_CATALOGUE) expect(Object.keys(cls.edits).length, cls.id).toBeGreaterThan(0);
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it.each(cases.map((c) => [c.cls.id, c.spec, c]))("%s on %s gets its verdict", (_, __, { cls, spec, edit }) => {
    const before = parse(readFileSync(specFile(spec), "utf8"));
    const after = structuredClone(before);
    edit(after);
    const changes = differ.compareDocs(before, after);
    const breaking = changes.filter((c) => c.severity === "breaking");
    if (cls.severity === "breaking") {
      const found = breaking.find((c) => c.rule === cls.id);
      expect(found, `no ${cls.id} among ${JSON.stringify(changes.map((c) => c.rule))}`).toBeDefined();
      expect(found?.pointer).toMatch(/^\//);
      expect(found?.affects).toBe(cls.affects);
    } else {
      expect(breaking.map((c) => `${c.rule} ${c.where}`)).toEqual([]);
      if (cls.id !== "description.edited") expect(changes.some((c) => c.rule === cls.id)).toBe(true);
    }
  });

  it("finds nothing at all when nothing changed", () => {
    for (const spec of ["payments-accounts", "card-gateway"] as const) {
      const doc = parse(readFileSync(specFile(spec), "utf8"));
      expect(differ.compareDocs(doc, structuredClone(doc))).toEqual([]);
    }
  });

  it("reports the reproduction from the issue (reference removed from a strict body) as breaking, with values", () => {
    const before = parse(readFileSync(specFile("payments-accounts"), "utf8"));
    const after = structuredClone(before);
    delete after.components.schemas.PaymentCreate.properties.reference;
    const [finding] = differ.compareDocs(before, after).filter((c) => c.rule === "request.property.removed-strict");
    expect(finding?.where).toBe("POST /v1/payments request body: reference");
    expect(finding?.pointer).toBe(
      "/paths/~1v1~1payments/post/requestBody/content/application~1json/schema/properties/reference",
    );
    expect(finding?.affects).toBe("both");
  });
});
