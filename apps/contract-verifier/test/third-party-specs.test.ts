import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FaultProxy, type FaultRule, startFaultProxy } from "@payspec/fault-proxy";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { parseOptions, runVerification, type VerificationReport } from "../src/index.js";
import { progressLine, summary } from "../src/reporters/console-reporter.js";
import { writeJson, writeJunit } from "../src/reporters/file-reporters.js";
import { startPrismOf } from "./prism-of-spec.js";
import {
  type Provider,
  startPetstoreProvider,
  startStarTrekProvider,
  startTrainTravelProvider,
} from "./support/third-party-providers.js";

/*
 * The proof that --spec knows nothing of payments: public specs nobody on payspec wrote, from
 * ReadMe's @readme/oas-examples (MIT), of three styles:
 * - OpenAPI Petstore, 3.0: request bodies as $refs to components/requestBodies, apiKey in a header
 *   and a cookie, OAuth2;
 * - Train Travel API (Bump.sh), 3.1: OAuth2, allOf everywhere, application/problem+json errors;
 * - STAPI, the Star Trek API, 3.0: 120 operations, no operationIds, a server path.
 */
const require = createRequire(import.meta.url);
const example = (name: string) => require.resolve(`@readme/oas-examples/${name}`);
const PETSTORE = example("3.0/json/petstore.json");
const TRAIN_TRAVEL = example("3.1/json/train-travel.json");
const STAR_TREK = example("3.0/json/star-trek.json");
const WEBHOOKS_ONLY = example("3.1/json/webhooks.json");

const API_KEY = "pk_live_petstore_7f3a9c21";
const TOKEN = "oauth-token-4b8e2d7f91";

const failed = (report: VerificationReport) =>
  Object.fromEntries(
    report.results
      .filter((r) => r.status === "failed" || r.status === "error")
      .map((r) => [r.id, r.violations.map((v) => `${v.expected} | ${v.actual}`).join("\n") || r.note]),
  );
const verify = (args: string[]) => runVerification(parseOptions(args));

describe("--spec on third-party specs: correct providers pass clean", () => {
  it("OpenAPI Petstore (3.0, $ref request bodies, apiKey) on Prism's mock of it", async () => {
    const prism = await startPrismOf(PETSTORE);
    try {
      // Prism serves the paths at its root (not under the spec's /v2), and checks that credentials
      // are present, never whether they are right: auth.invalid cannot pass on any Prism mock.
      const report = await verify([
        ...["--spec", PETSTORE, "--target", prism.url, "--base-path", "/"],
        ...["--header", `api_key: ${API_KEY}`, "--header", `Authorization: Bearer ${TOKEN}`],
        ...["--exclude-checks", "auth.invalid"],
      ]);
      expect(failed(report)).toEqual({});
      // The $ref'd request body is sent, and every constraint of the schema is broken, each once.
      const addPet = report.results.find((r) => r.id === "negative.addPet");
      expect(addPet?.status).toBe("passed");
      const coverage = report.coverage?.operations.find((o) => o.operation === "POST /pet");
      expect(coverage?.constraintsFound).toBeGreaterThan(10);
      expect(coverage?.constraintsExercised).toBe(coverage?.constraintsFound);
      // The spec declares no 401 and no success for POST /pet: findings about the spec, not failures.
      expect(report.warnings).toContain(
        "4 operations (POST /pet, GET /pet/findByStatus, GET /pet/findByTags and 1 more): 401 for missing credentials is not declared; the spec should declare 401 or 403.",
      );
      expect(report.warnings?.join("\n")).toContain("POST /pet: no success status is declared (only 405)");
      // Prism's stateless mock creates nothing, so what would change or delete a pet, an order or a
      // user is left alone, and said so: a shared server's data is never at stake.
      expect(report.warnings?.join("\n")).toContain(
        "1 operation never called, as they act on what exists whatever the run makes (PUT /pet); 6 skipped, as the run created no thing of the kind they act on (POST /pet/{petId}, DELETE /pet/{petId}",
      );
    } finally {
      await prism.close();
    }
  });

  it("OpenAPI Petstore on a hand-written provider: wrong credentials too", async () => {
    const provider = await startPetstoreProvider(API_KEY);
    try {
      const report = await verify([
        ...["--spec", PETSTORE, "--target", provider.url, "--header", `api_key: ${API_KEY}`],
        ...["--include-checks", "*.getPetById,*.getInventory,*.placeOrder,*.getUserByName,sensitive"],
      ]);
      expect(failed(report)).toEqual({});
      const ids = report.results.map((r) => r.id);
      expect(ids).toContain("auth.invalid.getInventory");
      expect(ids).toContain("sensitive.credentials");
      expect(ids).not.toContain("positive.addPet");
    } finally {
      await provider.close();
    }
  });

  it("Train Travel (3.1, OAuth2, allOf, problem+json) on Prism's mock and on a hand-written provider", async () => {
    const prism = await startPrismOf(TRAIN_TRAVEL);
    const provider = await startTrainTravelProvider(TOKEN);
    try {
      // The spec's own response example for a card payment shows the card's `cvc` (declared
      // writeOnly): Prism serves it, and sensitive.card-data rightly reports it. That is a flaw of
      // the example, so the Prism run leaves the check out; the hand-written provider runs it.
      const onPrism = await verify([
        ...["--spec", TRAIN_TRAVEL, "--target", prism.url, "--header", `Authorization: Bearer ${TOKEN}`],
        ...["--exclude-checks", "auth.invalid,sensitive.card-data"],
      ]);
      expect(failed(onPrism)).toEqual({});
      expect(onPrism.results.filter((r) => r.status === "passed").length).toBeGreaterThan(20);
      const onProvider = await verify([
        ...["--spec", TRAIN_TRAVEL, "--target", provider.url, "--header", `Authorization: Bearer ${TOKEN}`],
        ...["--include-checks", "*.get-stations,*.create-booking,*.get-booking,sensitive"],
      ]);
      expect(failed(onProvider)).toEqual({});
      expect(onProvider.results.find((r) => r.id === "auth.invalid.create-booking")?.status).toBe("passed");
      expect(onProvider.results.find((r) => r.id === "negative.create-booking")?.status).toBe("passed");
    } finally {
      await prism.close();
      await provider.close();
    }
  });

  it("STAPI (3.0, 120 operations without operationIds) on Prism's mock, and under its server path", async () => {
    const prism = await startPrismOf(STAR_TREK);
    const provider = await startStarTrekProvider();
    try {
      const onPrism = await verify(["--spec", STAR_TREK, "--target", prism.url, "--base-path", "/"]);
      expect(failed(onPrism)).toEqual({});
      const positives = onPrism.results.filter((r) => r.id.startsWith("positive."));
      expect(positives.length).toBe(120);
      expect(positives.map((r) => r.id)).toContain("positive.GET /animal");
      // The provider lives under the spec's server path, /api/v1/rest: --target is just the host.
      const onProvider = await verify([
        ...["--spec", STAR_TREK, "--target", provider.url],
        ...["--include-checks", "*.GET /animal,*.GET /book,sensitive"],
      ]);
      expect(failed(onProvider)).toEqual({});
      expect(onProvider.target.openapi).toBe(`${provider.url}/api/v1/rest`);
    } finally {
      await prism.close();
      await provider.close();
    }
  });
});

describe("--spec on third-party specs: each fault is caught by a named check", () => {
  let provider: Provider;
  let proxy: FaultProxy;
  beforeAll(async () => {
    provider = await startPetstoreProvider(API_KEY);
    proxy = await startFaultProxy(provider.url);
  });
  afterAll(async () => {
    await proxy.close();
    await provider.close();
  });

  const isPet = (url: string) => /^\/v2\/pet\/\d+/.test(url);
  const isOrder = (url: string) => url === "/v2/store/order";
  let orders = 0;
  const table: { fault: string; rule: FaultRule; caughtBy: string; says: string; extra?: string[] }[] = [
    {
      fault: "a dropped required field",
      rule: { when: (r) => isPet(r.url), fault: { kind: "rewrite", rewrite: ({ name: _n, ...pet }) => pet } },
      caughtBy: "positive.getPetById",
      says: "must have required property 'name'",
    },
    {
      fault: "a wrong type",
      rule: { when: (r) => isPet(r.url), fault: { kind: "rewrite", rewrite: (pet) => ({ ...pet, name: 42 }) } },
      caughtBy: "positive.getPetById",
      says: "/name must be string",
    },
    {
      fault: "a value outside an enum",
      rule: { when: (r) => isPet(r.url), fault: { kind: "rewrite", rewrite: (pet) => ({ ...pet, status: "lost" }) } },
      caughtBy: "positive.getPetById",
      says: "/status must be equal to one of the allowed values",
    },
    {
      fault: "sporadic 500s",
      rule: {
        when: (r) => isOrder(r.url) && ++orders % 4 === 0,
        fault: { kind: "respond", status: 500, body: { message: "boom" } },
      },
      caughtBy: "generated.placeOrder",
      says: "no 5xx for a request the spec allows",
    },
    {
      fault: "an invalid body accepted",
      rule: {
        when: (r) => isOrder(r.url),
        fault: { kind: "replace", replace: (a) => (a.status === 400 ? { status: 200, body: { id: 1 } } : a) },
      },
      caughtBy: "negative.placeOrder",
      says: "a declared 4xx in the API's error shape, for body",
    },
    {
      fault: "a wrong content type",
      rule: {
        when: (r) => r.url === "/v2/store/inventory",
        fault: { kind: "headers", headers: { "content-type": "text/plain" } },
      },
      caughtBy: "positive.getInventory",
      says: 'content type "text/plain" is not declared for 200',
    },
    {
      fault: "an empty body",
      rule: { when: (r) => isPet(r.url) && r.headers.api_key === API_KEY, fault: { kind: "respond", status: 200 } },
      caughtBy: "positive.getPetById",
      says: "200 body (root) must be object",
    },
    {
      fault: "an undeclared status",
      rule: {
        when: (r) => isOrder(r.url),
        fault: { kind: "replace", replace: (a) => ({ ...a, status: a.status === 200 ? 202 : a.status }) },
      },
      caughtBy: "positive.placeOrder",
      says: "status 202 is not declared (declared: 200, 400)",
    },
    {
      fault: "ignored auth",
      rule: {
        when: (r) => r.url === "/v2/store/inventory" && r.headers.api_key !== API_KEY,
        fault: { kind: "respond", status: 200, body: { available: 3 } },
      },
      caughtBy: "auth.missing.getInventory",
      says: "401 or 403 in the API's error shape, for missing credentials",
    },
    {
      fault: "an echoed credential",
      rule: {
        when: (r) => r.url === "/v2/store/inventory",
        fault: { kind: "rewrite", rewrite: (body, request) => ({ ...body, [String(request.headers.api_key)]: 1 }) },
      },
      caughtBy: "sensitive.credentials",
      says: "a credential the run sent came back in the body (request made by positive.getInventory)",
    },
    {
      // A declared 4xx may be a business rule the run cannot know: a failure only when asked for.
      fault: "every valid request refused with a declared 4xx (--strict-acceptance)",
      rule: { when: (r) => isOrder(r.url), fault: { kind: "respond", status: 400 } },
      caughtBy: "positive.placeOrder",
      says: "every valid request was refused: 400",
      extra: ["--strict-acceptance"],
    },
    {
      fault: "every valid request refused with an undeclared 4xx",
      rule: { when: (r) => isOrder(r.url), fault: { kind: "respond", status: 422 } },
      caughtBy: "positive.placeOrder",
      says: "every valid request was refused: 422",
    },
  ];

  it.each(table)("$fault → $caughtBy", async ({ rule, caughtBy, says, extra = [] }) => {
    proxy.inject(rule);
    try {
      const report = await verify([
        ...["--spec", PETSTORE, "--target", proxy.url, "--header", `api_key: ${API_KEY}`],
        ...["--include-checks", "*.getPetById,*.getInventory,*.placeOrder,sensitive"],
        ...extra,
      ]);
      const failures = failed(report);
      expect(Object.keys(failures)).toContain(caughtBy);
      expect(failures[caughtBy]).toContain(says);
    } finally {
      proxy.clear();
    }
  });

  it("keeps every credential out of the console, the JSON and JUnit reports and the curl lines", async () => {
    proxy.inject(table.find((t) => t.fault === "an echoed credential")?.rule as FaultRule);
    try {
      const options = parseOptions([
        ...["--spec", PETSTORE, "--target", proxy.url, "--header", `api_key: ${API_KEY}`],
        ...["--header", `Authorization: Bearer ${TOKEN}`, "--include-checks", "*.getInventory,sensitive"],
      ]);
      const lines: string[] = [];
      const report = await runVerification(options, (r, i, n) => lines.push(progressLine(r, i, n, false)));
      const dir = await mkdtemp(join(tmpdir(), "payspec-leak-"));
      onTestFinished(() => rm(dir, { recursive: true, force: true }));
      await writeJson(report, join(dir, "report.json"));
      await writeJunit(report, join(dir, "junit.xml"));
      const everything = [
        ...lines,
        summary(report),
        await readFile(join(dir, "report.json"), "utf8"),
        await readFile(join(dir, "junit.xml"), "utf8"),
      ].join("\n");
      expect(everything).not.toContain(API_KEY);
      expect(everything).not.toContain(TOKEN);
      const echo = report.results.find((r) => r.id === "sensitive.credentials")?.violations[0];
      expect(echo?.reproduce).toContain('-H "api_key: $API_KEY"');
      // One variable, one meaning: $AUTHORIZATION holds the whole header value, as the rerun line gives it.
      expect(echo?.reproduce).toContain('-H "authorization: $AUTHORIZATION"');
      expect(echo?.rerun).toContain(`--spec ${PETSTORE} --target ${proxy.url}/v2`);
      expect(echo?.rerun).toContain('--header "api_key: $API_KEY" --header "authorization: $AUTHORIZATION"');
      expect(echo?.rerun).toContain("--seed 1 --only positive.getInventory");
    } finally {
      proxy.clear();
    }
  });
});

describe("--spec: a spec that cannot be verified says so (exit 2)", () => {
  it("a 3.1 document with webhooks and no paths", async () => {
    await expect(verify(["--spec", WEBHOOKS_ONLY, "--target", "http://127.0.0.1:9"])).rejects.toThrow(
      /has no paths, so there is nothing to verify against --target \(its 1 webhook is a request the provider sends, not answers\)/,
    );
  });
});
