import { apiOf } from "@payspec/server-kit";
import { basicAuthorization } from "../basic-auth.js";
import { exchange, NoAnswer, type RequestSpec, type SentRequest } from "../exchange.js";
import type { RunSecrets } from "../secrets.js";
import type { PactInteraction } from "./pact-file.js";
import { responseMismatches } from "./pact-response.js";
import { withRunCredentials } from "./run-credentials.js";
import { type StateSetup, setUpState } from "./sandbox-provider-states.js";

export interface ReplayTarget {
  readonly paymentsUrl: string;
  readonly gatewayUrl: string;
  readonly apiKey: string;
  readonly gatewayKey: string;
  readonly gatewaySecret: string;
  readonly timeoutMs: number;
  readonly secrets: RunSecrets;
}

export interface Replayed {
  readonly problems: string[];
  /** The request as sent (credentials masked), for the report and its curl line. */
  readonly request?: SentRequest;
  readonly baseUrl: string;
}

/** `${id}` in an expression, from what the provider states returned. */
function fill(expression: string, values: Readonly<Record<string, unknown>>): string {
  return expression.replace(/\$\{([^}]+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
}

/** Sets `value` at a JSON path (`$.a.b`, `$.items[0].id`) of a copy of `body`. */
function setAt(body: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const keys = [...path.replace(/^\$\.?/, "").matchAll(/[^.[\]]+/g)].map((m) => m[0]);
  let node: Record<string, unknown> | undefined = copy;
  for (const key of keys.slice(0, -1)) node = node?.[key] as Record<string, unknown> | undefined;
  const last = keys.at(-1);
  if (node && typeof node === "object" && last !== undefined) node[last] = value;
  return copy;
}

/** Talks to the target for provider states: as the verification workspace, or as the gateway with a token it logged in for. */
export function stateSetup(target: ReplayTarget): StateSetup & { gatewayToken(): Promise<string> } {
  let token: string | undefined;
  const basic = basicAuthorization(`${target.gatewayKey}:${target.gatewaySecret}`);
  const gatewayToken = async () => {
    if (token) return token;
    const answer = await fetch(`${target.gatewayUrl}/auth/login`, {
      method: "POST",
      headers: { authorization: basic },
    });
    if (!answer.ok)
      throw new Error(`the gateway refused the login (${answer.status}): check --gateway-key and --gateway-secret`);
    token = ((await answer.json()) as { accessToken: string }).accessToken;
    return token;
  };
  return {
    gatewayToken,
    async call(method, path, body, as = "workspace") {
      const base = as === "gateway" ? target.gatewayUrl : target.paymentsUrl;
      const authorization = as === "gateway" ? `Bearer ${await gatewayToken()}` : `Bearer ${target.apiKey}`;
      const answer = await fetch(`${base}${path}`, {
        method,
        headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        signal: AbortSignal.timeout(target.timeoutMs),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}`);
      return answer.headers.get("content-type")?.includes("json") ? answer.json() : undefined;
    },
  };
}

/**
 * Sets up the interaction's provider states, sends its request to the target with the run's own
 * credentials (unless the interaction expects the 401 a wrong credential earns), and holds the answer
 * to what the pact expects: the status, each expected header, and the body by Pact's matching rules.
 */
export async function replay(
  interaction: PactInteraction,
  target: ReplayTarget,
  setup: ReturnType<typeof stateSetup>,
): Promise<Replayed> {
  const { request, response } = interaction;
  const gateway = apiOf(request.path) === "gateway";
  const baseUrl = gateway ? target.gatewayUrl : target.paymentsUrl;
  let values: Record<string, unknown> = {};
  for (const state of interaction.providerStates) {
    values = { ...values, ...(await setUpState(setup, state.name, state.params)) };
  }

  let path = request.path;
  let query = request.query;
  const headers: Record<string, string> = { ...request.headers };
  let body = request.body;
  for (const generator of request.fromProviderState) {
    const value = fill(generator.expression, values);
    if (generator.part === "path") path = value;
    else if (generator.part === "header") headers[generator.at] = value;
    else if (generator.part === "query") {
      const params = new URLSearchParams(query);
      params.set(generator.at.replace(/^\$\.?/, ""), value);
      query = params.toString();
    } else body = setAt(body, generator.at, /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value);
  }
  // An interaction that expects the 401 a wrong credential earns keeps its own.
  if (response.status !== 401) {
    const swapped = await withRunCredentials(path, headers.authorization, {
      ...target,
      gatewayToken: setup.gatewayToken,
    });
    if (swapped !== undefined) headers.authorization = swapped;
  }
  const json = body !== undefined && (request.contentType ?? "application/json").includes("json");
  const spec: RequestSpec = {
    method: request.method,
    path: query ? `${path}?${query}` : path,
    headers,
    ...(body === undefined ? {} : json ? { json: body } : { raw: String(body) }),
  };
  let answer: Awaited<ReturnType<typeof exchange>>;
  try {
    answer = await exchange(baseUrl, spec, target.timeoutMs, target.secrets);
  } catch (error) {
    if (error instanceof NoAnswer) return { problems: [`provider: ${error.message}`], request: error.request, baseUrl };
    throw error;
  }
  const problems = responseMismatches(response, {
    status: answer.status,
    headers: answer.headers,
    body: answer.body,
    text: answer.bytes.toString("utf8"),
  }).map((p) => `provider: ${p}`);
  return { problems, request: answer.request, baseUrl };
}
