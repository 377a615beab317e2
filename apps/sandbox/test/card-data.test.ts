import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startupBanner } from "../src/app/startup-banner.js";
import { configFromEnv } from "../src/infrastructure/config/config.js";
import { cardPayment, type Harness, harness } from "./support/harness.js";
import { loggedText } from "./support/log-lines.js";

let h: Harness;
let token: string;
const logLines: string[] = [];
const PAN = "4543590000000006";

beforeAll(async () => {
  h = await harness({ logRequests: true, log: (line) => logLines.push(line) });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.sandbox.reset();
  token = await h.login();
});
afterEach(() => {
  expect(h.problems.splice(0)).toEqual([]);
});

const pay = (body: unknown) => h.call("POST", "/api/v1/payments/card", { token, json: body });
const raw = (path: string, body: string) =>
  h.call("POST", path, { token, raw: body, headers: { "content-type": "application/json" } });

describe("a referenceId is one payment whatever its case", () => {
  it("replays a retry sent with the reference in upper case instead of charging again", async () => {
    const first = await pay(cardPayment({ referenceId: "3f1c9a52-7b4e-4d2a-9c61-2e8f5b7a1d04" }));
    const upper = await pay(cardPayment({ referenceId: "3F1C9A52-7B4E-4D2A-9C61-2E8F5B7A1D04" }));
    expect(first.status).toBe(200);
    expect(upper.status).toBe(200);
    expect(upper.body.response.id).toBe(first.body.response.id);
    expect(upper.body.response.referenceId).toBe("3f1c9a52-7b4e-4d2a-9c61-2e8f5b7a1d04");
  });

  it("finds a payment by its reference in any case, and reports it once", async () => {
    const referenceId = crypto.randomUUID();
    await pay(cardPayment({ referenceId: referenceId.toUpperCase() }));
    const found = await h.call("GET", `/api/v1/payments/reference/${referenceId.toUpperCase()}`, { token });
    expect(found.status).toBe(200);
    expect(found.body.response.referenceId).toBe(referenceId);
    const lower = await h.call("GET", `/api/v1/payments/reference/${referenceId}`, { token });
    expect(lower.body.response.id).toBe(found.body.response.id);
  });
});

describe("the duplicate fingerprint", () => {
  it("tells apart two cards that share the first six and last four digits", async () => {
    const referenceId = crypto.randomUUID();
    expect((await pay(cardPayment({ referenceId }, { cardNumber: "4543590000000006" }))).status).toBe(200);
    const other = await pay(cardPayment({ referenceId }, { cardNumber: "4543591111110006" }));
    expect(other.status).toBe(400);
    expect(other.body.code).toBe(6002);
  });

  it("does not depend on the key order of additionalParams or of the body", async () => {
    const referenceId = crypto.randomUUID();
    const first = await pay(cardPayment({ referenceId, additionalParams: { a: "1", b: "2" } }));
    const base = cardPayment({ referenceId, additionalParams: { b: "2", a: "1" } });
    const reordered = Object.fromEntries(Object.entries(base).reverse());
    const retry = await pay(reordered);
    expect(retry.status).toBe(200);
    expect(retry.body.response.id).toBe(first.body.response.id);
  });
});

describe("no answer quotes the request body", () => {
  it.each([
    ['{"card": {"cvc": \'123\'}}', "1", "18"],
    [`{"numbers": [${PAN},]}`, "1", "31"],
    ['{\n  "amount": 1,\n  "cvc": "987"\n  "x": 1\n}', "4", "3"],
  ])("says where the JSON broke in %s, not what it held", async (body, line, column) => {
    for (const path of ["/api/v1/payments/card", "/v1/payments"]) {
      const reply =
        path === "/v1/payments"
          ? await h.call("POST", path, {
              key: "sk_sandbox_demo_1",
              raw: body,
              headers: { "content-type": "application/json" },
            })
          : await raw(path, body);
      expect(reply.status).toBe(400);
      expect(reply.body.message).toContain(`line ${line}, column ${column}`);
      for (const secret of ["123", "987", PAN, "454359"]) expect(reply.bytes.toString()).not.toContain(secret);
    }
  });
});

describe("a card number in a URL", () => {
  it.each([
    [`/api/v1/payments/reference/${PAN}`, 404],
    [`/api/v1/payments/reference/${[...PAN].map((d) => `%3${d}`).join("")}`, 404],
    [`/api/v1/nowhere/${PAN}`, 404],
    [`/v1/payments/pay_${PAN}`, 404],
  ])("is masked in the answer and the request log: %s", async (path, status) => {
    logLines.length = 0;
    const reply = await h.call("GET", path, path.startsWith("/v1") ? { key: "sk_sandbox_demo_1" } : { token });
    expect(reply.status).toBe(status);
    expect(reply.bytes.toString()).not.toMatch(/\d{13}/);
    expect(reply.bytes.toString()).not.toMatch(/(%3\d){13}/i);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loggedText(logLines)).toContain("454359******0006");
    expect(loggedText(logLines)).not.toMatch(/\d{13}|(%3\d){7}/i);
  });
});

describe("the start banner", () => {
  it("shows the demo keys and login, masks other keys and never prints a secret of one's own or a Basic header", () => {
    const demo = startupBanner(configFromEnv({}), "http://127.0.0.1:4010");
    expect(demo).toContain("sk_sandbox_demo_1");
    // The documented demo login, so a newcomer can log in without looking it up; and where to go next.
    expect(demo).toContain("demo login gw_demo_key / gw_demo_secret");
    expect(demo).toContain("Dashboard: http://127.0.0.1:4010/_sandbox/dashboard");
    expect(demo).toContain("Control API /_sandbox: on");
    expect(demo).toContain("pnpm build:docs");
    const ownSecret = startupBanner(
      configFromEnv({ PAYSPEC_GATEWAY_SECRET: "mine-not-the-demo" }),
      "http://127.0.0.1:4010",
    );
    expect(ownSecret).not.toContain("mine-not-the-demo");
    expect(ownSecret).not.toContain("gw_demo_secret");
    const off = startupBanner(configFromEnv({ PAYSPEC_SANDBOX_CONTROL: "off" }), "http://127.0.0.1:4010");
    expect(off).toContain("Dashboard and control API /_sandbox: off");
    const own = startupBanner(
      configFromEnv({
        PAYSPEC_API_KEYS: "sk_live_9f8e7d6c5b4aa1b2",
        PAYSPEC_GATEWAY_KEY: "gw_key_0123456789",
        PAYSPEC_GATEWAY_SECRET: "very-secret-value",
      }),
      "http://127.0.0.1:4010",
    );
    expect(own).toContain("sk_live_…a1b2");
    expect(own).not.toContain("sk_live_9f8e7d6c5b4aa1b2");
    expect(own).not.toContain("very-secret-value");
    expect(own).not.toContain("gw_key_0123456789");
    expect(own).not.toMatch(/Basic [A-Za-z0-9+/=]{8,}/);
  });
});
