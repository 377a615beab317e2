import { describe, expect, it } from "vitest";
import { SANDBOX_FEATURES } from "../../src/app/sandbox-features.js";
import {
  composeFeatures,
  FeatureCompositionError,
  type FeatureDeclaration,
  inBuildOrder,
} from "../../src/infrastructure/features/feature-declaration.js";

/** A declaration that provides its own name and records when it was built. */
function declared(
  name: string,
  needs: FeatureDeclaration<string>[] = [],
  built: string[] = [],
): FeatureDeclaration<string> {
  return {
    name,
    needs,
    build: ({ use }) => {
      built.push(`${name}(${needs.map((need) => use(need)).join(",")})`);
      return { provides: name, feature: { name } };
    },
  };
}

const base = {} as never;

describe("features composed from what they declare", () => {
  it("builds each after the features it needs, in the list's order where the needs allow", async () => {
    const built: string[] = [];
    const clock = declared("clock", [], built);
    const payments = declared("payments", [clock], built);
    const settings = declared("settings", [clock], built);
    const api = declared("api", [payments, clock], built);
    const composed = await composeFeatures([api, settings, payments, clock], base);
    expect(built).toEqual(["clock()", "settings(clock)", "payments(clock)", "api(payments,clock)"]);
    expect(composed.features.map((f) => f.name)).toEqual(["clock", "settings", "payments", "api"]);
    expect(composed.use(payments)).toBe("payments");
  });

  it("fails at start on a cycle, naming it", () => {
    const a: FeatureDeclaration<string> = { name: "a", needs: [], build: () => ({ provides: "a" }) };
    const b = declared("b", [a]);
    (a.needs as FeatureDeclaration[]).push(b);
    expect(() => inBuildOrder([a, b])).toThrow(FeatureCompositionError);
    expect(() => inBuildOrder([declared("c"), a, b])).toThrow('The features "a" → "b" → "a" need each other');
  });

  it("fails at start on a need the list does not hold, or on two features of one name", () => {
    const clock = declared("clock");
    expect(() => inBuildOrder([declared("payments", [clock])])).toThrow(
      'The feature "payments" needs "clock", which the sandbox does not include',
    );
    expect(() => inBuildOrder([clock, declared("clock")])).toThrow('Two features are named "clock"');
  });

  it("lets a feature use only what it declared", async () => {
    const clock = declared("clock");
    const sneaky: FeatureDeclaration<undefined> = {
      name: "sneaky",
      needs: [],
      build: ({ use }) => ({ provides: use(clock) as never }),
    };
    await expect(composeFeatures([clock, sneaky], base)).rejects.toThrow(
      'The feature "sneaky" uses "clock" without declaring it',
    );
  });

  it("holds for the sandbox's own list: every need listed, no cycle, the APIs and operations among them", () => {
    const order = inBuildOrder(SANDBOX_FEATURES).map((d) => d.name);
    expect(order[0]).toBe("clock");
    expect(order).toEqual(expect.arrayContaining(["payments-api", "gateway-api", "operations", "clock"]));
    for (const declaration of SANDBOX_FEATURES)
      for (const need of declaration.needs)
        expect(order.indexOf(need.name)).toBeLessThan(order.indexOf(declaration.name));
  });
});
