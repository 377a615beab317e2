import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type RunningSandbox, startSandbox, VERIFY_API_KEY } from "@payspec/sandbox";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { verifyFilesOfficially } from "../src/pact/broker-verification.js";
import { loadPacts } from "../src/pact/pact-file.js";
import { RunSecrets } from "../src/secrets.js";
import { CLI } from "./support/built-cli.js";

/*
 * A pact per implementation style, as each writes one (test/fixtures/implementation-pacts): pact-js 9
 * and pact-python 1.x (V2: eachLike as {min} without match, a body with no Content-Type, a regex
 * that matches only in part), pact-jvm 4 (V3: states with params, rules by category, query as a map of
 * arrays, ProviderState generators, the paging state), pact-rust as pact-js 12, pact-go 2 and
 * pact-python 2 write it (V4: typed interactions, bodies as content, comments). Each interaction's
 * verdict is asserted, and the same files go through the official Pact verifier (pact-cli) against
 * the same sandbox: both must agree on every interaction's replay.
 */
const FIXTURES = fileURLToPath(new URL("./fixtures/implementation-pacts/", import.meta.url));
const run = promisify(execFile);

const VERDICTS: Record<string, Record<string, "passed" | "failed">> = {
  "pact-js-9.json": {
    "a request for the accounts": "passed",
    "a request for a payment that does not exist": "passed",
    "a new payment of minus five kuruş": "failed",
  },
  "pact-python-1.json": {
    "a request for a payment that is missing": "passed",
    "a request for the accounts, declared as bare application/json": "failed",
  },
  "pact-jvm-4.json": {
    "a pending payment of 49.90": "passed",
    "the second page of the payments, two a page": "passed",
    "a pending payment with its risk score": "failed",
  },
  "pact-rust.json": {
    "a request for the accounts": "passed",
    "a cancelled payment cancelled again": "failed",
    "the accounts hold a USD one, in any place": "passed",
    "every account in one of the three currencies": "passed",
    "a pending payment's field names, snake case": "passed",
    "the accounts hold a GBP one": "failed",
  },
};

interface Judged {
  readonly title: string;
  readonly status: string;
  readonly violations: { expected: string; actual: string }[];
}

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe.each(Object.keys(VERDICTS))("a pact as %s writes it", (file) => {
  it("gets each interaction's verdict, and the official Pact verifier agrees on every replay", async () => {
    const dir = await mkdtemp(join(tmpdir(), "payspec-impl-pact-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const json = join(dir, "report.json");
    const path = join(FIXTURES, file);
    await run(process.execPath, [CLI, "pact", path, "--target", sandbox.url, "--json", json], {
      env: { ...process.env, PACT_DO_NOT_TRACK: "true" },
    }).catch((e) => e);
    const ours = (JSON.parse(await readFile(json, "utf8")) as { results: Judged[] }).results;
    expect(Object.fromEntries(ours.map((r) => [r.title, r.status]))).toEqual(VERDICTS[file]);

    const official = await verifyFilesOfficially(await loadPacts([path]), {
      paymentsUrl: sandbox.url,
      gatewayUrl: sandbox.url,
      apiKey: VERIFY_API_KEY,
      gatewayKey: "unused",
      gatewaySecret: "unused",
      timeoutMs: 10_000,
      secrets: new RunSecrets(),
    });
    // The official verifier replays only: it agrees with payspec's replay (a spec finding is payspec's alone).
    const replayOk = (r: Judged) =>
      r.status !== "error" && r.violations.every((v) => v.expected === "an interaction the spec allows");
    expect(Object.fromEntries(official.results.map((r) => [r.title, r.status === "passed"]))).toEqual(
      Object.fromEntries(ours.map((r) => [r.title, replayOk(r)])),
    );
  });
});
