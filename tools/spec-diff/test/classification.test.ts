import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PayspecDiffer } from "../src/index.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const differ = new PayspecDiffer();
const breakingOf = async (name: string) =>
  (await differ.compare(fixture("base.yaml"), fixture(`${name}/after.yaml`))).filter((c) => c.severity === "breaking");

describe("every spec change is classified", () => {
  it.each([
    ["response-field-removed", "note"],
    ["required-request-field-added", "quantity"],
    ["enum-narrowed", "blue"],
    ["endpoint-removed", "/items/{id}"],
    ["bound-tightened", "(was 100, now 50)"],
  ])("%s is breaking", async (name, mentioned) => {
    const breaking = await breakingOf(name);
    expect(breaking.length).toBeGreaterThan(0);
    expect(breaking.map((c) => `${c.where} ${c.message}`).join("\n")).toContain(mentioned);
  });

  it("a safe addition is safe, and reported as a change", async () => {
    const changes = await differ.compare(fixture("base.yaml"), fixture("safe-addition/after.yaml"));
    expect(changes.filter((c) => c.severity === "breaking")).toEqual([]);
    expect(changes.some((c) => c.severity === "safe" && c.where.includes("createdAt"))).toBe(true);
  });

  it("loosening a request bound is safe", async () => {
    const changes = await differ.compare(fixture("bound-tightened/after.yaml"), fixture("base.yaml"));
    expect(changes.filter((c) => c.severity === "breaking")).toEqual([]);
  });
});
