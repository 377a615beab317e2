import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { catalogueTable } from "../src/index.js";

it("the README shows the catalogue as it is", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  expect(readme).toContain(catalogueTable());
});
