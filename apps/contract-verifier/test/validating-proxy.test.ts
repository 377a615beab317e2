import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FaultProxy, startFaultProxy } from "@payspec/fault-proxy";
import { type RunningSandbox, startSandbox } from "@payspec/sandbox";
import { cardGatewaySpec, specExamples } from "@payspec/specs";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { CLI } from "./support/built-cli.js";

const cardPayment = specExamples(cardGatewaySpec).find(
  (e) => e.operationId === "createCardPayment" && e.part === "request",
)?.value as { card: { cardNumber: string; cvc: string } };
const CARD = cardPayment.card.cardNumber;

let sandbox: RunningSandbox;
let faults: FaultProxy;

beforeAll(async () => {
  sandbox = await startSandbox();
  faults = await startFaultProxy(sandbox.url);
});
afterAll(async () => {
  await faults.close();
  await sandbox.close();
});

interface RunningProxy {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  /** Sends the signal and waits for the exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

async function startProxyCli(upstream: string, args: string[] = []): Promise<RunningProxy> {
  // One process, the CLI itself, so a signal reaches it alone (the tsx command relayed signals to its
  // child and SIGKILLed it when the child was slow to say it got one).
  const child = spawn(process.execPath, [CLI, "proxy", "--listen", "0", "--upstream", upstream, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    // On a loaded CI machine a start took over 20 s. A proxy that does not start in time is stopped,
    // not left running after the test.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the proxy did not start: ${output}`));
    }, 60_000);
    child.stdout?.on("data", () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
  });
  return {
    url,
    child,
    output: () => output,
    stop: (signal) =>
      new Promise((resolve) => {
        child.once("exit", (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/** Waits, at most 30 s (a loaded CI machine was seen past 5 s), for what the proxy prints as it goes. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

const auth = { authorization: "Bearer sk_sandbox_demo_1", "content-type": "application/json" };

async function raw(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

describe("payspec-verify proxy: checks live traffic and never changes it", () => {
  it("passes every answer through unchanged, malformed requests and auth failures included", async () => {
    const proxy = await startProxyCli(sandbox.url);
    try {
      const cases: [string, RequestInit][] = [
        ["/v1/accounts", { headers: auth }],
        ["/v1/payments", { method: "POST", headers: auth, body: '{"amount": 1,' }],
        ["/v1/payments", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
        ["/v1/payments/pay_doesnotexist", { headers: auth }],
        ["/auth/login", { method: "POST", headers: { authorization: "Basic bm90OnJpZ2h0" } }],
      ];
      for (const [path, init] of cases) {
        const through = await raw(`${proxy.url}${path}`, init);
        const direct = await raw(`${sandbox.url}${path}`, init);
        // Request ids count per server, so compare everything else.
        expect({ ...through, body: through.body.replace(/req_[\w-]+/g, "") }).toEqual({
          ...direct,
          body: direct.body.replace(/req_[\w-]+/g, ""),
        });
      }
      expect(await proxy.stop("SIGTERM")).toBe(0);
      expect(proxy.output()).toMatch(/SIGTERM: \d+ exchanges checked\. \d+ passed, 0 failed/);
    } finally {
      proxy.child.kill("SIGKILL");
    }
  });

  it("keeps running when the provider cuts an answer short, cuts it the same way, and reports it", async () => {
    faults.inject({
      when: (r) => r.url === "/v1/accounts",
      fault: { kind: "cut", afterBytes: 20 },
      times: 1,
    });
    const dir = await mkdtemp(join(tmpdir(), "payspec-proxy-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const proxy = await startProxyCli(faults.url, ["--json", join(dir, "report.json")]);
    try {
      const cut = await fetch(`${proxy.url}/v1/accounts`, { headers: auth })
        .then((r) => r.text())
        .catch((error: Error) => error);
      // The application sees a broken answer, never a whole one with the proxy's words appended.
      expect(cut).toBeInstanceOf(Error);
      const next = await fetch(`${proxy.url}/v1/accounts`, { headers: auth });
      expect(next.status).toBe(200);
      expect(await proxy.stop("SIGTERM")).toBe(1);
      const report = JSON.parse(await readFile(join(dir, "report.json"), "utf8"));
      const upstream = report.results.find((r: { id: string }) => r.id === "proxy.upstream");
      expect(upstream.violations[0].actual).toContain("the answer was cut short");
    } finally {
      faults.clear();
      proxy.child.kill("SIGKILL");
    }
  });

  it("prints each violation as it happens and writes the reports on SIGINT, with no card data", async () => {
    faults.inject({
      when: (r) => r.method === "POST" && r.url === "/api/v1/payments/card",
      fault: {
        kind: "rewrite",
        rewrite: (body, request) => ({
          ...body,
          response: { ...body.response, cardDetails: { cardNumber: JSON.parse(request.body).card.cardNumber } },
        }),
      },
    });
    faults.inject({
      when: (r) => r.method === "GET" && r.url === "/v1/accounts",
      fault: {
        kind: "rewrite",
        rewrite: (accounts) => accounts.map(({ currency: _c, ...a }: object & { currency: string }) => a),
      },
    });
    const dir = await mkdtemp(join(tmpdir(), "payspec-proxy-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const proxy = await startProxyCli(faults.url, [
      "--json",
      join(dir, "report.json"),
      "--junit",
      join(dir, "junit.xml"),
    ]);
    try {
      await fetch(`${proxy.url}/v1/accounts`, { headers: auth });
      await until(() => proxy.output().includes("proxy.listAccounts"));
      expect(proxy.output()).toContain("must have required property 'currency'");

      const login = (await (
        await fetch(`${proxy.url}/auth/login`, {
          method: "POST",
          headers: { authorization: `Basic ${Buffer.from("gw_demo_key:gw_demo_secret").toString("base64")}` },
        })
      ).json()) as { accessToken: string };
      const answer = await fetch(`${proxy.url}/api/v1/payments/card`, {
        method: "POST",
        headers: { authorization: `Bearer ${login.accessToken}`, "content-type": "application/json" },
        body: JSON.stringify({ ...cardPayment, referenceId: crypto.randomUUID() }),
      });
      // The application still sees what the provider answered, leak and all: the proxy reports, it does not alter.
      expect(await answer.text()).toContain(CARD);
      await until(() => proxy.output().includes("sensitive.card-data"));

      expect(await proxy.stop("SIGINT")).toBe(1);
      const report = JSON.parse(await readFile(join(dir, "report.json"), "utf8"));
      expect(report.mode).toBe("proxy");
      const failed = report.results
        .filter((r: { status: string }) => r.status === "failed")
        .map((r: { id: string }) => r.id);
      // The rewritten cardDetails also broke the answer's schema.
      expect(failed.sort()).toEqual(["proxy.createCardPayment", "proxy.listAccounts", "sensitive.card-data"]);
      const junit = await readFile(join(dir, "junit.xml"), "utf8");
      expect(junit).toContain('name="sensitive.card-data"');
      for (const text of [proxy.output(), JSON.stringify(report), junit]) {
        expect(text).not.toContain(CARD);
        expect(text).not.toMatch(new RegExp(`"cvc":\\s*"?${cardPayment.card.cvc}`));
      }
    } finally {
      faults.clear();
      proxy.child.kill("SIGKILL");
    }
  });
});
