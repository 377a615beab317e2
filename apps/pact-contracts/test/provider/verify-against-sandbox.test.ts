import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Verifier } from "@pact-foundation/pact";
import {
  DEMO_API_KEYS,
  DEMO_GATEWAY_KEY,
  DEMO_GATEWAY_SECRET,
  type RunningSandbox,
  seedWorkspace,
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
const [tryA, tryB] = seedWorkspace(KEY)
  .accounts.filter((a) => a.currency === "TRY")
  .map((a) => a.id) as [string, string];

async function call(method: string, path: string, body?: unknown, authorization = `Bearer ${KEY}`): Promise<any> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`provider state setup: ${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

const reset = () => call("POST", "/_sandbox/reset");

async function gatewayToken(): Promise<string> {
  const basic = `Basic ${Buffer.from(`${DEMO_GATEWAY_KEY}:${DEMO_GATEWAY_SECRET}`).toString("base64")}`;
  return (await call("POST", "/auth/login", undefined, basic)).accessToken;
}

async function createPayment(amount = 150075): Promise<{ id: string }> {
  return call("POST", "/v1/payments", {
    amount,
    currency: "TRY",
    method: "bank_transfer",
    from_account: tryA,
    to_account: tryB,
    reference: "FTR-2026-000123",
  });
}

async function paySuccessfully(referenceId: string) {
  const token = await gatewayToken();
  const card = {
    cardHolderName: "Ayşe Yılmaz",
    cardNumber: "5528790000000008",
    expireYear: "29",
    expireMonth: "07",
    cvc: "123",
  };
  return call(
    "POST",
    "/api/v1/payments/card",
    {
      referenceId,
      amount: 1250.5,
      finalAmount: 1250.5,
      walletAmount: 0,
      clientIpAddress: "85.105.34.12",
      currency: "TRY",
      card,
      products: [{ name: "Kablosuz Kulaklık", price: 1250.5 }],
    },
    `Bearer ${token}`,
  );
}

/** Provider states, set through the sandbox's control API and public endpoints. */
const stateHandlers = {
  "the demo workspace has its seeded accounts": async () => {
    await reset();
    return undefined;
  },
  "a pending payment exists": async (params?: unknown) => {
    await reset();
    const { id } = await createPayment((params as { amount?: number } | undefined)?.amount);
    return { id };
  },
  "a settled payment exists": async (params?: unknown) => {
    await reset();
    const { id } = await createPayment((params as { amount?: number } | undefined)?.amount);
    await call("POST", `/_sandbox/payments/${id}/status`, { status: "settled" });
    return { id };
  },
  "no payment pay_doesnotexist0 exists": async () => {
    await reset();
    return undefined;
  },
  "the demo workspace has three payments": async () => {
    await reset();
    for (let i = 0; i < 3; i++) await createPayment();
    return undefined;
  },
  "the gateway accepts payments": async () => {
    await reset();
    return undefined;
  },
  "a successful card payment exists": async (params?: unknown) => {
    await reset();
    await paySuccessfully((params as { referenceId: string }).referenceId);
    return undefined;
  },
  "a successful card payment exists today": async () => {
    await reset();
    const paid = await paySuccessfully(crypto.randomUUID());
    return { date: paid.response.createdDate.slice(0, 10) };
  },
};

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
