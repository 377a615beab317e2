import { createPaymentsClient } from "@payspec/payments-client";
import { startSandbox } from "@payspec/sandbox";
import { cardGatewaySpec, createResponseChecker, paymentsAccountsSpec } from "@payspec/specs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../src/index.js";

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());

const KEY = "Bearer sk_any";
const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${mock.url}${path}`, { ...init, headers: { authorization: KEY, ...init.headers } });
const entry = (amount: number) => ({
  amount,
  currency: "TRY",
  method: "eft",
  from_account: "acc_a",
  to_account: "acc_b",
});

describe("the mock answers as the API would", () => {
  it("answers a batch with exactly one result per entry, in order", async () => {
    const payments = [entry(1), { ...entry(2), currency: "tl" }, entry(3), entry(4)];
    const reply = await call("/v1/payments/batch", {
      method: "POST",
      body: JSON.stringify({ payments }),
      headers: { "content-type": "application/json" },
    });
    const body = (await reply.json()) as any;
    expect(body.results.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3]);
    expect(body.results.map((r: { outcome: string }) => r.outcome)).toEqual([
      "created",
      "failed",
      "created",
      "created",
    ]);
    expect(body.results[2].payment.amount).toBe(3);
    expect(body).toMatchObject({ created: 3, failed: 1 });
    expect(body.results[1].error).toMatchObject({ code: "invalid_request", param: "currency" });
  });

  it("names a missing required query parameter", async () => {
    const reply = await call("/api/v1/general/reports/sales/daily-transactions");
    expect(reply.status).toBe(400);
    const body = (await reply.json()) as any;
    expect(body.code).toBe(6001);
    expect(body.message).toMatch(/^date: /);
  });

  it("lets a client walk the static listing to its end", async () => {
    const client = createPaymentsClient({ baseUrl: mock.url, apiKey: "sk_any", retry: false });
    const ids: string[] = [];
    for await (const payment of client.payments({ limit: 2 })) ids.push(payment.id);
    expect(ids).toHaveLength(3);
    const last = await call("/v1/payments", { headers: { prefer: "example=lastPage" } });
    expect(((await last.json()) as any).pagination.has_more).toBe(false);
  });

  it("never quotes a malformed body, and answers a wrong method with 405 and Allow", async () => {
    const reply = await call("/api/v1/payments/card", {
      method: "POST",
      body: '{"card": {"cvc": 987, "cardNumber": 4543590000000006,,}}',
      headers: { "content-type": "application/json" },
    });
    const text = await reply.text();
    expect(reply.status).toBe(400);
    expect(text).toContain("line 1");
    expect(text).not.toContain("987");
    expect(text).not.toContain("4543590000000006");
    const wrong = await call("/v1/accounts", { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("Prefer: dynamic=true", () => {
  const checkers = {
    payments: createResponseChecker(paymentsAccountsSpec),
    gateway: createResponseChecker(cardGatewaySpec),
  };
  const iso = new Set(Intl.supportedValuesOf("currency"));

  it("never produces data its own spec forbids, nor invented currencies", async () => {
    const gets = ["/v1/accounts", "/v1/payments", "/v1/payments/pay_abc"];
    for (let round = 0; round < 15; round++) {
      for (const path of gets) {
        const reply = await call(path, { headers: { prefer: "dynamic=true" } });
        const body = (await reply.json()) as any;
        const problems = checkers.payments.check({
          method: "GET",
          path,
          status: reply.status,
          contentType: reply.headers.get("content-type"),
          headers: Object.fromEntries(reply.headers),
          body,
        });
        expect(problems, path).toEqual([]);
        for (const currency of JSON.stringify(body).match(/"currency":"([^"]*)"/g) ?? []) {
          expect(iso.has(currency.slice(12, -1)), currency).toBe(true);
        }
      }
    }
  });
});

describe("the mock and the sandbox agree on HTTP details", () => {
  it("answers repeated query parameters and HEAD as the sandbox does", async () => {
    const sandbox = await startSandbox();
    try {
      const against = async (base: string, path: string, method = "GET") => {
        const reply = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: "Bearer sk_sandbox_demo_1" },
        });
        const text = await reply.text();
        return { status: reply.status, empty: text === "", param: text ? JSON.parse(text).param : undefined };
      };
      for (const [path, method] of [
        ["/v1/payments?status=pending&status=completed", "GET"],
        ["/v1/payments?limit=1&limit=2", "GET"],
        ["/v1/accounts", "HEAD"],
        ["/v1/payments", "HEAD"],
      ] as const) {
        expect(await against(mock.url, path, method), `${method} ${path}`).toEqual(
          await against(sandbox.url, path, method),
        );
      }
    } finally {
      await sandbox.close();
    }
  });
});
