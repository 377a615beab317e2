import { cardGatewaySpec, createResponseChecker, paymentsAccountsSpec } from "@payspec/specs";

const checkers = {
  payments: createResponseChecker(paymentsAccountsSpec),
  gateway: createResponseChecker(cardGatewaySpec),
};

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** Every `currency` field in a body, wherever it is nested. */
function* currencies(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) for (const item of value) yield* currencies(item);
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "currency") yield item;
      else yield* currencies(item);
    }
  }
}

export interface GeneratedAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/**
 * Whether schema-generated data is something the spec allows, and plausible: the spec's own checks
 * (types, bounds, patterns, closed objects) plus real ISO 4217 currencies, which a `^[A-Z]{3}$`
 * pattern alone lets json-schema-faker invent ("QXZ").
 */
export function isAcceptableAnswer(api: "payments" | "gateway", answer: GeneratedAnswer): boolean {
  const problems = checkers[api].check({
    method: answer.method,
    path: answer.path,
    status: answer.status,
    contentType: answer.headers["content-type"] ?? null,
    headers: answer.headers,
    body: answer.body,
  });
  if (problems.length > 0) return false;
  for (const currency of currencies(answer.body)) {
    if (typeof currency === "string" && !ISO_CURRENCIES.has(currency)) return false;
  }
  return true;
}
