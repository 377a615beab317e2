import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Verifier } from "@pact-foundation/pact";
import { type StateSetup, setUpState } from "@payspec/contract-verifier";
import {
  DEMO_API_KEYS,
  DEMO_GATEWAY_KEY,
  DEMO_GATEWAY_SECRET,
  type RunningSandbox,
  startSandbox,
} from "@payspec/sandbox";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pactsDir } from "../../src/index.js";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const KEY = DEMO_API_KEYS[0];

async function call(method: string, path: string, body?: unknown, authorization = `Bearer ${KEY}`): Promise<any> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`provider state setup: ${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.headers.get("content-type")?.includes("json") ? response.json() : undefined;
}

async function gatewayToken(): Promise<string> {
  const basic = `Basic ${Buffer.from(`${DEMO_GATEWAY_KEY}:${DEMO_GATEWAY_SECRET}`).toString("base64")}`;
  return (await call("POST", "/auth/login", undefined, basic)).accessToken;
}

/**
 * Provider states from the catalogue `payspec-verify pact` documents for users' pacts, set up in the
 * demo workspace the consumer tests recorded: our own pacts name the same states theirs do.
 */
const setup: StateSetup = {
  call: async (method, path, body, as = "workspace") =>
    call(method, path, body, as === "gateway" ? `Bearer ${await gatewayToken()}` : `Bearer ${KEY}`),
};
const stateHandlers = Object.fromEntries(
  [
    "the workspace has its seeded accounts",
    "a pending payment exists",
    "a settled payment exists",
    "no payment pay_doesnotexist0 exists",
    "the workspace has 3 payments",
    "the gateway accepts payments",
    "a card payment exists with referenceId {referenceId}",
    "a card payment exists today",
  ].map((name) => [name, (params?: unknown) => setUpState(setup, name, (params ?? {}) as Record<string, unknown>)]),
);

it("the sandbox honours every interaction the consumers recorded", async () => {
  const pactUrls = readdirSync(pactsDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => join(pactsDir, f));
  expect(pactUrls).toHaveLength(2);
  await new Verifier({
    provider: "payspec-sandbox",
    providerBaseUrl: sandbox.url,
    pactUrls,
    stateHandlers,
    logLevel: "warn",
    // Consumers record a placeholder gateway token; the provider needs one it issued itself.
    requestFilter: async (
      req: { path: string; headers: Record<string, string | undefined> },
      _res: unknown,
      next: () => void,
    ) => {
      if (req.path.startsWith("/api/v1/") && req.headers.authorization === "Bearer consumer-test-token") {
        req.headers.authorization = `Bearer ${await gatewayToken()}`;
      }
      next();
    },
  }).verifyProvider();
});
