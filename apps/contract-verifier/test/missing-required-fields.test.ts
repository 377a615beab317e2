import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { proxiedDuringSuite } from "@payspec/fault-proxy";
import { startSandbox } from "@payspec/sandbox";
import { cardGatewaySpec, paymentsAccountsSpec, resolveRef } from "@payspec/specs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CannotRun, parseOptions, runVerification, writeJson, writeJunit } from "../src/index.js";
import { progressLine, summary } from "../src/reporters/console-reporter.js";

/**
 * A provider that leaves out a required property is a finding, never the verifier's crash: for every
 * property any response of either spec requires, a provider that leaves it out of every answer of
 * that API gets a run that ends, reports (console, JUnit, JSON) that are written, and a failure naming
 * the property. A check that read the missing field once stopped the run ("Cannot read properties of
 * undefined (reading 'replace')", exit 2, no report).
 */
const suite = proxiedDuringSuite(() => startSandbox(), { beforeAll, afterAll, beforeEach });

interface Answering {
  /** The operations whose answers lose the property: one (`GET /v1/payments/{id}`), or every one. */
  readonly operations: string;
  readonly property: string;
  readonly when: (request: { method: string; url: string }) => boolean;
}

/**
 * Every property some response of an operation requires, at any depth. The payments API, one case per
 * operation and property: a check reads one answer's field once another answer's setup went through
 * (the crash this covers: a GET by id without `status`, after a batch that had it). The gateway's card
 * payment and lookup answer the same payment, so one case per property, left out of every answer.
 */
function requiredInResponses(spec: object, perOperation: boolean): Answering[] {
  const cases: Answering[] = [];
  const paths = (spec as { paths: Record<string, Record<string, { responses?: object }>> }).paths;
  for (const [template, operations] of Object.entries(paths))
    for (const [method, operation] of Object.entries(operations))
      for (const property of requiredIn(spec, operation.responses)) {
        if (perOperation)
          cases.push({
            operations: `${method.toUpperCase()} ${template}`,
            property,
            when: asksFor(method.toUpperCase(), template),
          });
        else if (!cases.some((c) => c.property === property))
          cases.push({ operations: "every answer", property, when: () => true });
      }
  return cases;
}

function requiredIn(spec: object, responses: unknown): string[] {
  const names = new Set<string>();
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string") {
      walk(resolveRef(spec, node, [])[0]);
      return;
    }
    const { required, properties } = node as { required?: unknown; properties?: unknown };
    if (Array.isArray(required) && properties) for (const name of required) names.add(String(name));
    for (const value of Object.values(node)) walk(value);
  };
  walk(responses);
  return [...names].sort();
}

/** Whether a request the proxy sees is one of `template`'s (its path parameters matched loosely). */
function asksFor(method: string, template: string) {
  const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/?]+")}(\\?|$)`);
  return (request: { method: string; url: string }) => request.method === method && pattern.test(request.url);
}

/** The JSON answer with `name` removed from every object in it, however deep; `removed` counts them. */
function without(name: string, value: unknown, removed: { count: number }): unknown {
  if (Array.isArray(value)) return value.map((item) => without(name, item, removed));
  if (!value || typeof value !== "object") return value;
  if (name in value) removed.count++;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== name)
      .map(([key, item]) => [key, without(name, item, removed)]),
  );
}

const APIS = [
  { api: "payments", spec: paymentsAccountsSpec, perOperation: true },
  { api: "gateway", spec: cardGatewaySpec, perOperation: false },
] as const;

// A JS error's words in a report are the verifier stumbling, not a finding about the provider.
const STUMBLE = /Cannot read properties|is not a function|is not iterable|undefined \(reading|of undefined/;

describe.each(APIS)("a $api provider that leaves out a required property", ({ api, spec, perOperation }) => {
  const cases = requiredInResponses(spec, perOperation);
  it("covers every property some answer requires", () => {
    expect(new Set(cases.map((c) => c.property)).size).toBeGreaterThan(perOperation ? 20 : 35);
  });
  it.each(cases)(
    "$operations without $property: the run ends with a finding naming it, and every report is written",
    async ({ when, property: name }) => {
      const removed = { count: 0 };
      suite.proxy.inject({
        when,
        fault: { kind: "rewrite", rewrite: (body) => without(name, body, removed) },
      });
      let report: Awaited<ReturnType<typeof runVerification>>;
      try {
        report = await runVerification(
          parseOptions(["--target", suite.proxy.url, "--api", api, "--profile", "sandbox", "--seed", "7"]),
          (result, index, total) => void progressLine(result, index, total, false),
        );
      } catch (error) {
        // Without its login token the gateway cannot be checked at all: one sentence, naming the field.
        expect(error).toBeInstanceOf(CannotRun);
        expect((error as Error).message).toContain(name);
        return;
      }
      const dir = await mkdtemp(join(tmpdir(), "payspec-missing-"));
      try {
        await writeJson(report, join(dir, "report.json"));
        await writeJunit(report, join(dir, "report.xml"));
        const written = `${summary(report)}\n${await readFile(join(dir, "report.json"), "utf8")}\n${await readFile(join(dir, "report.xml"), "utf8")}`;
        expect(written).not.toMatch(STUMBLE);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      for (const result of report.results) {
        expect(result.note ?? "", result.id).not.toMatch(STUMBLE);
        for (const v of result.violations) expect(typeof v.actual, `${result.id}: ${v.expected}`).toBe("string");
      }
      // Some properties are in no answer a run gets (an error's `field` on an operation it never refuses so).
      if (removed.count === 0) return;
      const findings = report.results
        .filter((r) => r.status === "failed")
        .flatMap((r) => r.violations.map((v) => `${v.expected} ${v.actual}`));
      expect(findings.some((f) => f.includes(`'${name}'`) || f.includes(name))).toBe(true);
    },
  );
});
