import { type RunningMock, startMock } from "@payspec/mock";
import { DEMO_API_KEYS, type RunningSandbox, seedWorkspace, startSandbox } from "@payspec/sandbox";
import { cardGatewaySpec, createSpecValidator, paymentsAccountsSpec, pointerOf, specExamples } from "@payspec/specs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * For the same crafted values, what the spec says (its JSON Schema, read by ajv as Prism, Specmatic
 * and generated clients read it), what the sandbox does and what the mock does must agree, field by
 * field: text no report or database can hold, UUID variants, bounds.
 */
let sandbox: RunningSandbox;
let mock: RunningMock;
beforeAll(async () => {
  sandbox = await startSandbox();
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
  await sandbox.close();
});

type Verdict = "accepts" | "refuses";
const verdict = (status: number): Verdict => (status >= 200 && status < 300 ? "accepts" : "refuses");
const KEY = DEMO_API_KEYS[0];

/** A request body the cases edit by path. */
type Body = any;
const exampleOf = (spec: object, operationId: string): Body =>
  structuredClone(specExamples(spec).find((e) => e.operationId === operationId && e.part === "request")?.value);

async function gatewayToken(url: string): Promise<string> {
  const login = await fetch(`${url}/auth/login`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from("gw_demo_key:gw_demo_secret").toString("base64")}` },
  });
  return ((await login.json()) as { accessToken: string }).accessToken;
}

async function post(url: string, path: string, authorization: string, body: unknown): Promise<number> {
  const answer = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await answer.arrayBuffer();
  return answer.status;
}

const TEXT = {
  NUL: "Ay\u0000şe",
  "U+FFFE": "Ay\uFFFEşe",
  "a lone surrogate": "Ay\uD800şe",
  "a tab and Turkish letters": "Ayşe\tYılmaz İĞ",
};

describe("the card gateway: spec, sandbox and mock agree", () => {
  const validator = createSpecValidator(cardGatewaySpec);
  const pointer = pointerOf(
    "paths",
    "/api/v1/payments/card",
    "post",
    "requestBody",
    "content",
    "application/json",
    "schema",
  );
  let n = 0;
  const fresh = (): Body => {
    const body = exampleOf(cardGatewaySpec, "createCardPayment");
    // A referenceId of its own, so that no case is a replay of another.
    body.referenceId = `3f1c9a52-7b4e-4d2a-9c61-${String(++n).padStart(12, "0")}`;
    return body;
  };
  const fields: Record<string, (body: Body, value: string) => void> = {
    cardHolderName: (b, v) => {
      b.card.cardHolderName = v;
    },
    correlationId: (b, v) => {
      b.correlationId = v;
    },
    "card.cardAlias": (b, v) => {
      b.card.cardAlias = v;
    },
    walletMemberId: (b, v) => {
      b.walletMemberId = v;
    },
    "products[0].externalId": (b, v) => {
      b.products[0].externalId = v;
    },
    "additionalParams.note": (b, v) => {
      b.additionalParams = { note: v };
    },
  };

  const cases: [string, (body: Body) => void, Verdict][] = [
    ...Object.entries(fields).flatMap(([field, set]) =>
      Object.entries(TEXT).map(([what, text]): [string, (body: Body) => void, Verdict] => [
        `${field} with ${what}`,
        (b) => set(b, text),
        what === "a tab and Turkish letters" ? "accepts" : "refuses",
      ]),
    ),
    ["referenceId with version digit 0", (b) => (b.referenceId = "3f1c9a52-7b4e-0d2a-8c61-2e8f5b7a1d04"), "accepts"],
    ["referenceId with variant digit 0", (b) => (b.referenceId = "3f1c9a52-7b4e-4d2a-0c61-2e8f5b7a1d05"), "accepts"],
    ["referenceId one digit short", (b) => (b.referenceId = "3f1c9a52-7b4e-4d2a-9c61-2e8f5b7a1d0"), "refuses"],
    ["installment 36", (b) => (b.installment = 36), "accepts"],
    ["installment 37", (b) => (b.installment = 37), "refuses"],
    ["installment 2^53 + 2", (b) => (b.installment = 2 ** 53 + 2), "refuses"],
  ];

  it.each(cases)("%s", async (_, edit, expected) => {
    const body = fresh();
    edit(body);
    const spec: Verdict = validator.validate(pointer, body).valid ? "accepts" : "refuses";
    const onSandbox = verdict(
      await post(sandbox.url, "/api/v1/payments/card", `Bearer ${await gatewayToken(sandbox.url)}`, body),
    );
    const onMock = verdict(await post(mock.url, "/api/v1/payments/card", "Bearer any-token", body));
    expect({ spec, sandbox: onSandbox, mock: onMock }).toEqual({ spec: expected, sandbox: expected, mock: expected });
  });
});

describe("the payments API: spec, sandbox and mock agree", () => {
  const validator = createSpecValidator(paymentsAccountsSpec);
  const pointer = pointerOf("paths", "/v1/payments", "post", "requestBody", "content", "application/json", "schema");
  const [from, to] = seedWorkspace(KEY).accounts;
  const cases: [string, Verdict][] = Object.entries(TEXT).flatMap(([what]): [string, Verdict][] => [
    [what, what === "NUL" || what === "a lone surrogate" ? "refuses" : "accepts"],
  ]);

  it.each(cases.flatMap(([what, expected]) => (["description", "reference"] as const).map((f) => [f, what, expected])))(
    "%s with %s",
    async (field, what, expected) => {
      const body = {
        ...exampleOf(paymentsAccountsSpec, "createPayment"),
        from_account: from?.id,
        to_account: to?.id,
        currency: "TRY",
        [field]: TEXT[what as keyof typeof TEXT],
      };
      const spec: Verdict = validator.validate(pointer, body).valid ? "accepts" : "refuses";
      const onSandbox = verdict(await post(sandbox.url, "/v1/payments", `Bearer ${KEY}`, body));
      const onMock = verdict(await post(mock.url, "/v1/payments", `Bearer ${KEY}`, body));
      expect({ spec, sandbox: onSandbox, mock: onMock }).toEqual({ spec: expected, sandbox: expected, mock: expected });
    },
  );
});
