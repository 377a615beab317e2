import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FaultProxy, startFaultProxy } from "@payspec/fault-proxy";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseOptions, runVerification, type VerificationReport } from "../src/index.js";
import { reasonOf } from "../src/reporters/console-reporter.js";
import { startPrismOf } from "./prism-of-spec.js";
import { type Provider, startPetstoreProvider, startTrainTravelProvider } from "./support/third-party-providers.js";

/*
 * What a team needs to point the verifier at a shared server it does not own (issue: the verifier on
 * real production APIs): exact reruns, read-only runs, operation filters, one credential per security
 * scheme, rate limits, a server that hangs up, and no false positive for a declared refusal.
 * Providers: Stoplight Prism's mock of the public Train Travel spec, and a hand-written Petstore,
 * each behind the fault proxy, whose log is what the server really received.
 */
const require = createRequire(import.meta.url);
const TRAIN_TRAVEL = require.resolve("@readme/oas-examples/3.1/json/train-travel.json");
const PETSTORE = require.resolve("@readme/oas-examples/3.0/json/petstore.json");
const TOKEN = "oauth-token-4b8e2d7f91";
const API_KEY = "pk_live_petstore_7f3a9c21";

let prism: { url: string; close(): Promise<void> };
let proxy: FaultProxy;
let petstore: Provider;
let petstoreProxy: FaultProxy;
let dir: string;

beforeAll(async () => {
  prism = await startPrismOf(TRAIN_TRAVEL);
  proxy = await startFaultProxy(prism.url);
  petstore = await startPetstoreProvider(API_KEY);
  petstoreProxy = await startFaultProxy(petstore.url);
  dir = await mkdtemp(join(tmpdir(), "payspec-manners-"));
});
afterAll(async () => {
  await proxy.close();
  await prism.close();
  await petstoreProxy.close();
  await petstore.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  proxy.clear();
  proxy.seen.length = 0;
  petstoreProxy.clear();
  petstoreProxy.seen.length = 0;
});

const train = (...more: string[]) => [
  ...["--spec", TRAIN_TRAVEL, "--target", proxy.url, "--header", `Authorization: Bearer ${TOKEN}`],
  ...["--exclude-checks", "auth.invalid,sensitive.card-data"],
  ...more,
];
const verify = (args: string[]) => runVerification(parseOptions(args));
const failed = (report: VerificationReport) =>
  report.results.filter((r) => r.status === "failed" || r.status === "error").map((r) => `${r.id}: ${reasonOf(r)}`);

describe("exact reruns", () => {
  it("sends the same requests, byte for byte, for each check run alone as in the full run", async () => {
    const cassette = join(dir, "full.jsonl");
    const full = await verify(train("--seed", "11", "--record", cassette));
    expect(failed(full)).toEqual([]);
    const lines = (await readFile(cassette, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { check: string; method: string; path: string; body?: string });
    const ids = [...new Set(lines.map((l) => l.check))].filter((id) => /^(generated|negative|positive)\./.test(id));
    expect(ids.length).toBeGreaterThan(10);
    const sent = (file: string, id: string) =>
      readFile(file, "utf8").then((text) =>
        text
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as { check: string })
          .filter((l) => l.check === id)
          .map((l) => JSON.stringify(l)),
      );
    for (const id of ids) {
      const alone = join(dir, `${id.replace(/\W+/g, "_")}.jsonl`);
      const report = await verify(train("--seed", "11", "--only", id, "--record", alone));
      expect(report.results.find((r) => r.id === id)?.status, id).toBe("passed");
      // Method, path, headers and body of every request, in order: what the full run sent for the check.
      expect(await sent(alone, id), id).toEqual(await sent(cassette, id));
    }
  });

  it("records a cassette with every request, credentials masked", async () => {
    const cassette = join(dir, "masked.jsonl");
    await verify(train("--record", cassette, "--include-checks", "*.get-stations"));
    const text = await readFile(cassette, "utf8");
    expect(text).toContain('"method":"GET"');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain("Bearer ***");
  });
});

describe("safe on a shared server", () => {
  it("--read-only sends only GET, HEAD and OPTIONS, and says which checks it left out", async () => {
    const report = await verify(train("--read-only"));
    expect(failed(report)).toEqual([]);
    const methods = new Set(proxy.seen.map((r) => r.method));
    expect([...methods].sort()).toEqual(["GET"]);
    expect(report.results.some((r) => r.id === "positive.create-booking")).toBe(false);
    expect(report.results.filter((r) => r.status === "passed").length).toBeGreaterThan(5);
  });

  it("--include-operations and --exclude-operations by operationId, method and path glob", async () => {
    const byId = await verify(train("--include-operations", "get-stations"));
    expect(
      new Set(byId.results.filter((r) => !r.id.startsWith("sensitive.")).map((r) => r.id.split(".").pop())),
    ).toEqual(new Set(["get-stations"]));
    proxy.seen.length = 0;
    const noDeletes = await verify(train("--exclude-operations", "DELETE,POST /bookings/*"));
    expect(proxy.seen.some((r) => r.method === "DELETE")).toBe(false);
    expect(proxy.seen.some((r) => r.method === "POST" && /^\/bookings\/[^/?]+/.test(r.url))).toBe(false);
    expect(noDeletes.results.length).toBeGreaterThan(5);
    const byPath = await verify(train("--include-operations", "GET /trips"));
    expect(byPath.results.filter((r) => !r.id.startsWith("sensitive.")).every((r) => r.id.endsWith("get-trips"))).toBe(
      true,
    );
  });
});

describe("what the server does that is not a failure", () => {
  it("waits out a 429 with Retry-After and judges the answer that follows; --rate-limit paces the run", async () => {
    proxy.inject({
      when: (r) => r.url.startsWith("/stations"),
      fault: { kind: "respond", status: 429, headers: { "retry-after": "1" }, body: { title: "slow down" } },
      times: 2,
    });
    const started = Date.now();
    const report = await verify(train("--include-operations", "get-stations", "--rate-limit", "20/s"));
    expect(failed(report)).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    // Twenty a second at most: the log's requests are spread out.
    const count = proxy.seen.length;
    expect(Date.now() - started).toBeGreaterThanOrEqual(((count - 1) / 20) * 1000);
  });

  it("never judges a request the server kept refusing with 429: the check is skipped, saying why", async () => {
    proxy.inject({
      when: (r) => r.url.startsWith("/stations"),
      fault: { kind: "respond", status: 429, headers: { "retry-after": "0" }, body: { title: "slow down" } },
    });
    const report = await verify(
      train("--include-operations", "get-stations", "--include-checks", "positive,generated"),
    );
    const checks = report.results.filter((r) => !r.id.startsWith("sensitive."));
    expect(checks.length).toBeGreaterThan(0);
    for (const r of checks) {
      expect(r.status, r.id).toBe("skipped");
      expect(r.note).toContain("429");
    }
  });

  it("does not wait for a Retry-After longer than --retry-after-max: that request draws no verdict, at once", async () => {
    proxy.inject({
      when: (r) => r.url.startsWith("/stations"),
      fault: { kind: "respond", status: 429, headers: { "retry-after": "48" }, body: { title: "slow down" } },
    });
    const started = Date.now();
    const report = await verify(
      train("--include-operations", "get-stations", "--include-checks", "positive", "--retry-after-max", "5"),
    );
    expect(Date.now() - started).toBeLessThan(48_000);
    // Once by the run's id discovery, once by the check: neither asked again.
    expect(proxy.seen.filter((r) => r.url.startsWith("/stations")).length).toBe(2);
    const result = report.results.find((r) => r.id === "positive.get-stations");
    expect(result?.status).toBe("skipped");
    expect(result?.note).toContain("--retry-after-max");
    expect(() => parseOptions(train("--retry-after-max", "soon"))).toThrow(/whole number of seconds/);
  });

  it("sends an idempotent request again once when the server hangs up, and names a hang-up as such", async () => {
    proxy.inject({
      when: (r) => r.method === "GET" && r.url.startsWith("/stations"),
      fault: { kind: "cut", afterBytes: 0 },
      times: 1,
    });
    const retried = await verify(train("--include-operations", "get-stations", "--include-checks", "positive"));
    expect(failed(retried)).toEqual([]);
    proxy.inject({
      when: (r) => r.method === "POST" && r.url.startsWith("/bookings"),
      fault: { kind: "cut", afterBytes: 0 },
    });
    const report = await verify(train("--include-operations", "create-booking", "--include-checks", "positive"));
    const result = report.results.find((r) => r.id === "positive.create-booking");
    expect(result?.status).toBe("failed");
    expect(result?.violations[0]?.actual).toBe("the server closed the connection before answering");
    expect(result?.violations[0]?.expected).not.toContain("timeout");
  });

  it("counts a declared 4xx to a valid request and explains it, and --strict-acceptance fails it", async () => {
    // The server refuses every booking for a business rule, with a 409 the spec declares.
    const conflict = {
      when: (r: { method: string; url: string }) => r.method === "POST" && r.url === "/bookings",
      fault: {
        kind: "respond" as const,
        status: 409,
        headers: { "content-type": "application/problem+json" },
        body: {
          type: "https://example.com/errors/conflict",
          title: "Conflict",
          detail: "That seat is already booked.",
        },
      },
    };
    proxy.inject(conflict);
    const lenient = await verify(train("--include-operations", "create-booking", "--include-checks", "positive"));
    expect(lenient.results.find((r) => r.id === "positive.create-booking")?.status).toBe("passed");
    expect(lenient.warnings?.join("\n")).toContain(
      'POST /bookings: every valid request got a declared 409 ("That seat is already booked.")',
    );
    proxy.clear();
    proxy.inject(conflict);
    const strict = await verify(
      train("--include-operations", "create-booking", "--include-checks", "positive", "--strict-acceptance"),
    );
    expect(strict.results.find((r) => r.id === "positive.create-booking")?.status).toBe("failed");
  });
});

describe("real ids", () => {
  it("fills a path parameter with an id the server's list answered, and says which operations got one", async () => {
    const report = await verify(train("--include-operations", "get-bookings,get-booking"));
    expect(failed(report)).toEqual([]);
    // The list's first booking id, as the server (Prism, from the spec's own example) answered it.
    const list = proxy.seen.find((r) => r.method === "GET" && r.url === "/bookings");
    expect(list).toBeDefined();
    const byId = proxy.seen.filter((r) => r.method === "GET" && /^\/bookings\/[^/?]+$/.test(r.url));
    expect(byId.length).toBeGreaterThan(0);
    const listed = await (
      await fetch(`${prism.url}/bookings`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json();
    const firstId = (listed as { data: { id: string }[] }).data[0]?.id;
    expect(byId.filter((r) => r.url === `/bookings/${firstId}`).length).toBeGreaterThan(0);
    // Without the list operation, the id is a generated one.
    proxy.seen.length = 0;
    const alone = await verify(train("--include-operations", "get-booking"));
    expect(proxy.seen.some((r) => r.url === `/bookings/${firstId}`)).toBe(false);
    expect(alone.warnings?.join("\n")).toContain("path parameters: 0 of 1 by-id operations");
    expect(report.warnings?.join("\n")).toContain(
      "path parameters: 1 of 1 by-id operations got ids the server returned (GET /bookings/{bookingId}), from its list operations;",
    );
  });

  it("creates the thing first when no list gives an id: the POST to its collection, or the operation the spec's links name", async () => {
    const provider = await startTrainTravelProvider(TOKEN);
    try {
      const args = [
        ...["--spec", TRAIN_TRAVEL, "--target", provider.url, "--header", `Authorization: Bearer ${TOKEN}`],
        ...["--include-operations", "create-booking,get-booking", "--include-checks", "positive.get-booking"],
      ];
      const report = await verify(args);
      expect(failed(report)).toEqual([]);
      expect(report.results.find((r) => r.id === "positive.get-booking")?.status).toBe("passed");
      expect(report.warnings?.join("\n")).toContain(
        "1 of 1 by-id operations got ids the server returned (GET /bookings/{bookingId}), from its list operations, 1 of them from creating one first",
      );
      // --read-only never creates: the id is generated, and the booking is not found.
      const readOnly = await verify([...args, "--read-only"]);
      expect(readOnly.warnings?.join("\n")).toContain("path parameters: 0 of 1 by-id operations");

      // The spec's links say where the id is: a body field the usual places would not find.
      const linked = await startLinkedProvider();
      try {
        const spec = join(dir, "linked.json");
        await writeFile(spec, JSON.stringify(LINKED_SPEC));
        const viaLinks = await verify([
          "--spec",
          spec,
          "--target",
          linked.url,
          "--include-checks",
          "positive.getWidget",
        ]);
        expect(viaLinks.results.find((r) => r.id === "positive.getWidget")?.status).toBe("passed");
        expect(linked.gets).toEqual(["/widgets/w-7"]);
      } finally {
        await linked.close();
      }
    } finally {
      await provider.close();
    }
  });
});

/** A spec whose create answer names its id `ref`, and says so in a link to getWidget. */
const LINKED_SPEC = {
  openapi: "3.1.0",
  info: { title: "linked", version: "1" },
  paths: {
    "/widgets": {
      post: {
        operationId: "makeWidget",
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        responses: {
          "201": {
            description: "made",
            content: {
              "application/json": {
                schema: { type: "object", required: ["ref"], properties: { ref: { type: "string" } } },
              },
            },
            links: { read: { operationId: "getWidget", parameters: { key: "$response.body#/ref" } } },
          },
        },
      },
    },
    "/widgets/{key}": {
      get: {
        operationId: "getWidget",
        parameters: [{ name: "key", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "one",
            content: {
              "application/json": {
                schema: { type: "object", required: ["ref"], properties: { ref: { type: "string" } } },
              },
            },
          },
          "404": { description: "none" },
        },
      },
    },
  },
};

/** Makes widget w-7 on POST; answers 200 only for a widget it made (404, declared, for any other key). */
async function startLinkedProvider(): Promise<{ url: string; gets: string[]; close(): Promise<void> }> {
  const made = new Set<string>();
  const gets: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const send = (status: number, body?: unknown) =>
        res.writeHead(status, body ? { "content-type": "application/json" } : {}).end(body ? JSON.stringify(body) : "");
      if (req.method === "POST" && req.url === "/widgets") {
        made.add("w-7");
        return send(201, { ref: "w-7" });
      }
      const key = /^\/widgets\/([^/?]+)$/.exec(req.url ?? "")?.[1];
      if (req.method === "GET" && key) {
        gets.push(req.url ?? "");
        return made.has(key) ? send(200, { ref: key }) : send(404);
      }
      send(404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, gets, close: () => new Promise((r) => server.close(() => r())) };
}

describe("one credential per security scheme", () => {
  it("--auth SCHEME=VALUE sends each operation the credential its security asks for, masked everywhere", async () => {
    const cassette = join(dir, "auth.jsonl");
    const report = await verify([
      ...["--spec", PETSTORE, "--target", petstoreProxy.url, "--auth", `api_key=${API_KEY}`],
      ...["--include-checks", "*.getPetById,*.getInventory,sensitive", "--record", cassette],
    ]);
    expect(failed(report)).toEqual([]);
    expect(report.results.find((r) => r.id === "positive.getInventory")?.status).toBe("passed");
    const keyed = petstoreProxy.seen.filter((r) => r.headers.api_key === API_KEY);
    expect(keyed.length).toBeGreaterThan(0);
    expect(await readFile(cassette, "utf8")).not.toContain(API_KEY);
    expect(JSON.stringify(report)).not.toContain(API_KEY);
  });

  it("--auth SCHEME@OPERATIONS=VALUE gives those operations their own credential under the same scheme", async () => {
    const other = "pk_live_other_group_000";
    const report = await verify([
      ...["--spec", PETSTORE, "--target", petstoreProxy.url, "--auth", `api_key=${other}`],
      ...["--auth", `api_key@/store/*=${API_KEY}`, "--include-checks", "positive.getInventory,positive.getPetById"],
    ]);
    expect(report.results.find((r) => r.id === "positive.getInventory")?.status).toBe("passed");
    const inventory = petstoreProxy.seen.filter((r) => r.url.startsWith("/v2/store/inventory"));
    const pets = petstoreProxy.seen.filter((r) => r.url.startsWith("/v2/pet/"));
    expect(inventory.length).toBeGreaterThan(0);
    expect(inventory.every((r) => r.headers.api_key === API_KEY)).toBe(true);
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.every((r) => r.headers.api_key === other)).toBe(true);
    expect(JSON.stringify(report)).not.toContain(API_KEY);
  });

  it("judges every valid request refused with an undeclared 401 as a warning about the credential, not a failure", async () => {
    // The inventory is given a key of the wrong kind; the pets, the right one: not every request of the
    // run is refused (that would be a run that verified nothing, exit 2: see reruns.test.ts).
    const report = await verify([
      ...["--spec", PETSTORE, "--target", petstoreProxy.url, "--auth", "api_key@/store/*=pk_live_wrong_kind_000"],
      ...["--auth", `api_key=${API_KEY}`, "--include-checks", "positive.getInventory,positive.getPetById"],
    ]);
    expect(failed(report)).toEqual([]);
    expect(report.warnings?.join("\n")).toContain("GET /store/inventory: every valid request got an undeclared 401");
    expect(report.warnings?.join("\n")).toContain("--auth SCHEME@OPERATIONS=VALUE");
  });

  it("ignores a credential for a scheme no operation asks for", async () => {
    const report = await verify([
      ...["--spec", PETSTORE, "--target", petstoreProxy.url, "--auth", `api_key=${API_KEY}`, "--auth", "nope=x1234567"],
      ...["--include-checks", "positive.getInventory"],
    ]);
    expect(failed(report)).toEqual([]);
  });
});
