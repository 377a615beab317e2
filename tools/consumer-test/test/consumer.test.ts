import { existsSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { type PostgresServer, startPostgres } from "@payspec/test-postgres";
import { node24BinDir } from "@payspec/third-party";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, startServer } from "./processes.js";
import { createScratchProject, type ScratchProject, userEnv, WORKSPACE } from "./scratch-project.js";

const NODE_20 = dirname(process.execPath);
const KEY = "sk_sandbox_demo_1";
let project: ScratchProject;
const nodeDirs: Record<string, string> = { "Node 20": NODE_20 };
let wrongServer: Server;
let wrongUrl: string;
let postgres: PostgresServer;

beforeAll(async () => {
  project = await createScratchProject(NODE_20);
  nodeDirs["Node 24"] = await node24BinDir();
  // A provider that gets everything wrong: 200 {} to every request.
  wrongServer = createServer((_, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  await new Promise<void>((resolve) => wrongServer.listen(0, "127.0.0.1", resolve));
  wrongUrl = `http://127.0.0.1:${(wrongServer.address() as AddressInfo).port}`;
  postgres = await startPostgres();
}, 900_000);
afterAll(async () => {
  await postgres?.stop();
  await new Promise<void>((resolve) => (wrongServer ? wrongServer.close(() => resolve()) : resolve()));
  if (project) await rm(project.dir, { recursive: true, force: true });
});

describe("installing the packed tarballs into a plain npm project", () => {
  it("installs with no engine warning on Node 20: every dependency supports it", () => {
    expect(project.installLog).not.toMatch(/EBADENGINE|Unsupported engine/);
  });

  it("compiles the TypeScript examples with strict tsc", async () => {
    // A bound against a hang, not a measure of speed: a loaded CI machine took over 120 s here.
    const compiled = await run("npx", ["tsc", "-p", "tsconfig.json"], {
      cwd: project.dir,
      env: userEnv(NODE_20),
      timeoutMs: 400_000,
    });
    examplesProblem =
      compiled.code === 0
        ? undefined
        : `tsc exited ${compiled.code}: ${(compiled.stdout + compiled.stderr).slice(0, 300)}`;
    expect(compiled.stdout).toBe("");
    expect(compiled.stderr).not.toContain("error");
    expect(compiled.code).toBe(0);
  }, 420_000);
});

/**
 * Why the compiled examples (dist/) are not there, if they are not: the tests that run them are then
 * skipped naming that cause, so a failed compile is one failure, not a cascade of "Cannot find module".
 */
let examplesProblem: string | undefined = "the TypeScript examples were not compiled (that test did not run)";
const needsCompiledExamples = (context: { skip: (note?: string) => void }) => {
  if (examplesProblem) context.skip(`needs the compiled examples, and ${examplesProblem}`);
};

describe.each(["Node 20", "Node 24"])("on %s", (version) => {
  const env = (extra: NodeJS.ProcessEnv = {}) => userEnv(nodeDirs[version] as string, extra);
  let sandbox: Awaited<ReturnType<typeof startServer>>;
  let sandboxUrl: string;

  beforeAll(async () => {
    const node = await run("node", ["--version"], { cwd: project.dir, env: env() });
    expect(node.stdout).toMatch(version === "Node 20" ? /^v20\./ : /^v24\./);
    sandbox = await startServer("npx", ["payspec-sandbox", "--port", "0"], {
      cwd: project.dir,
      env: env(),
      readyPath: "/v1/accounts",
      headers: { authorization: `Bearer ${KEY}` },
    });
    sandboxUrl = sandbox.url;
  }, 120_000);
  afterAll(() => sandbox?.stop());

  it("starts the sandbox with npx payspec-sandbox, printing the dashboard and the documented demo login only", () => {
    expect(sandbox.output()).toContain(`listening on ${sandboxUrl}`);
    expect(sandbox.output()).toContain(`Dashboard: ${sandboxUrl}/_sandbox/dashboard`);
    // The demo login is published in the README; nothing else secret is printed.
    expect(sandbox.output()).toContain("demo login gw_demo_key / gw_demo_secret");
    expect(sandbox.output()).not.toMatch(/Basic [A-Za-z0-9+/=]{8,}/);
  });

  it("runs the quickstart (ESM) against it and prints the sample payments", async (context) => {
    needsCompiledExamples(context);
    const result = await run("node", ["dist/quickstart-payments.js"], {
      cwd: project.dir,
      env: env({ PAYSPEC_SANDBOX_URL: sandboxUrl }),
    });
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^created pay_\w+: pending$/m);
    expect(result.stdout).toMatch(/^read pay_\w+ \(request req_[\w-]+\)$/m);
    expect(result.stdout).toMatch(/^completed pay_\w+: \d+ TRY$/m);
  }, 60_000);

  it("pays with a test card, replays a retry and refuses a reused reference", async (context) => {
    needsCompiledExamples(context);
    const result = await run("node", ["dist/card-payment.js"], {
      cwd: project.dir,
      env: env({ PAYSPEC_SANDBOX_URL: sandboxUrl }),
    });
    expect(result.stdout).toContain("SUCCESS 552879******0008");
    expect(result.stdout).toContain("retry replayed the same payment: true");
    expect(result.stdout).toContain("reference reused by another payment: 6002");
  }, 60_000);

  it("tests retries with the sandbox's faults: blind retries pay twice, the payments client once", async (context) => {
    needsCompiledExamples(context);
    const result = await run("node", ["dist/retries-with-faults.js"], {
      cwd: project.dir,
      env: env({ PAYSPEC_SANDBOX_URL: sandboxUrl }),
    });
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^plain fetch, retrying blindly: 2 payments stored for NAIVE-/m);
    expect(result.stdout).toMatch(/^payments client, looking before resending: 1 payment stored for CAREFUL-/m);
    expect(result.stdout).toMatch(/^recoverLostAnswer: answered pay_\w+, 1 payment stored for RECOVERED-/m);
  }, 60_000);

  it("exports the workspace to CSV with the dashboard's columns", async (context) => {
    needsCompiledExamples(context);
    const file = join(project.dir, `export-${version.replace(" ", "")}.csv`);
    const result = await run("node", ["dist/export-csv.js", file], {
      cwd: project.dir,
      env: env({ PAYSPEC_SANDBOX_URL: sandboxUrl }),
    });
    expect(result.stdout).toMatch(/^exported \d+ payments/);
    expect(readFileSync(file, "utf8").split("\n")[0]).toBe(
      "id,amount,currency,method,status,from_account,to_account,reference,description,created_at,settled_at",
    );
  }, 60_000);

  it("uses every documented export from CommonJS", async () => {
    const result = await run("node", ["examples/every-export.cjs"], { cwd: project.dir, env: env() });
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/every export works from require: \d+ checks passed/);
    expect(result.code).toBe(0);
  }, 120_000);

  it("runs a consumer's vitest suite with the sandbox in process", async () => {
    const result = await run("npx", ["vitest", "run", "examples/sandbox-in-tests.test.ts"], {
      cwd: project.dir,
      env: env(),
    });
    expect(result.stdout).toMatch(/1 passed/);
    expect(result.code).toBe(0);
  }, 120_000);

  it("judges a user's pact (plain pact-js and fetch) against the spec and the sandbox, one line per interaction", async () => {
    const pact = join(WORKSPACE, "apps/pact-contracts/users-pacts/webshop-payspec-payments.json");
    const result = await run("npx", ["payspec-verify", "pact", pact, "--target", sandboxUrl], {
      cwd: project.dir,
      env: env({ PACT_DO_NOT_TRACK: "true", SCARF_ANALYTICS: "false" }),
    });
    expect(result.code, result.stderr).toBe(1);
    const lines = result.stdout.split("\n").filter((line) => /^[✓✗!] pact\.webshop\.\d /.test(line));
    expect(lines.map((line) => `${line[0]} ${/"([^"]+)"/.exec(line)?.[1]}`)).toEqual([
      "✓ a new payment",
      "✗ a new payment of nothing",
      "✗ a request for a payment that is gone",
      "✗ a request for a payment with its risk score",
      "✓ a request for a pending payment",
      "! a request for a refunded payment",
      "✓ a request for the accounts",
      "✓ a request for the accounts without an API key",
    ]);
  }, 120_000);

  it("verifies the sandbox with npx payspec-verify (exit 0 and a JUnit file) and a wrong server (exit 1)", async () => {
    const junit = `reports/verify-${version.replace(" ", "")}.xml`;
    const good = await run(
      "npx",
      ["payspec-verify", "--target", sandboxUrl, "--profile", "behaviour", "--junit", junit],
      { cwd: project.dir, env: env() },
    );
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(existsSync(join(project.dir, junit))).toBe(true);
    expect(readFileSync(join(project.dir, junit), "utf8")).toContain("<testsuite");
    const wrong = await run("npx", ["payspec-verify", "--target", wrongUrl, "--profile", "behaviour"], {
      cwd: project.dir,
      env: env(),
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain("setup failed: GET /v1/accounts answered 200 without a list");
    // The model-based mode runs from the installed package too (fast-check is a dependency, not a dev one).
    const stateful = await run(
      "npx",
      ["payspec-verify", "--target", sandboxUrl, "--stateful", "--runs", "5", "--min-coverage", "1"],
      { cwd: project.dir, env: env() },
    );
    expect(stateful.code, stateful.stdout + stateful.stderr).toBe(0);
    expect(stateful.stdout).toMatch(/✓ stateful\.model/);
  }, 180_000);

  it("answers both APIs with npx payspec-mock", async () => {
    const mock = await startServer("npx", ["payspec-mock", "--port", "0"], {
      cwd: project.dir,
      env: env(),
      readyPath: "/v1/accounts",
      headers: { authorization: "Bearer sk_any" },
    });
    const { url } = mock;
    try {
      const login = await fetch(`${url}/auth/login`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from("key:secret").toString("base64")}` },
      });
      expect(login.status).toBe(200);
      expect(((await login.json()) as { accessToken: string }).accessToken.length).toBeGreaterThan(0);
    } finally {
      await mock.stop();
    }
  }, 120_000);

  it("keeps the state in PostgreSQL with PAYSPEC_DATABASE_URL: the migrations ship, a restart keeps a payment", async () => {
    const settings = env({
      PAYSPEC_DATABASE_URL: await postgres.createDatabase(),
      PAYSPEC_SANDBOX_SECRET: "consumer-test",
    });
    const auth = { authorization: `Bearer ${KEY}` };
    // Each start on a port it picks: the database, not the port, carries the payment across.
    const start = () =>
      startServer("npx", ["payspec-sandbox", "--port", "0"], {
        cwd: project.dir,
        env: settings,
        readyPath: "/v1/accounts",
        headers: auth,
      });
    const first = await start();
    let id: string;
    try {
      const accounts = (await (await fetch(`${first.url}/v1/accounts`, { headers: auth })).json()) as {
        id: string;
      }[];
      const created = await fetch(`${first.url}/v1/payments`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({
          amount: 5,
          currency: "TRY",
          method: "eft",
          from_account: accounts[0]?.id,
          to_account: accounts[1]?.id,
        }),
      });
      expect(created.status).toBe(201);
      id = ((await created.json()) as { id: string }).id;
    } finally {
      await first.stop();
    }
    const second = await start();
    try {
      expect((await fetch(`${second.url}/v1/payments/${id}`, { headers: auth })).status).toBe(200);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
