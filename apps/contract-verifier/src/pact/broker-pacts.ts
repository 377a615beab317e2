import { basicAuthorization } from "../basic-auth.js";
import { CannotRun } from "../cannot-run.js";
import { type Pact, parsePact, UnreadablePact } from "./pact-file.js";

/** A pact the broker chose for verification: the pact itself, and the consumer version that published it. */
export interface BrokerPact {
  readonly pact: Pact;
  readonly consumerVersion?: string;
}

/** The broker credentials of the environment, as the Pact CLI takes them: a token, or a user and password. */
export function brokerAuthorization(env: NodeJS.ProcessEnv): string | undefined {
  if (env.PACT_BROKER_TOKEN) return `Bearer ${env.PACT_BROKER_TOKEN}`;
  if (env.PACT_BROKER_USERNAME)
    return basicAuthorization(`${env.PACT_BROKER_USERNAME}:${env.PACT_BROKER_PASSWORD ?? ""}`);
  return undefined;
}

/**
 * The pacts the official verifier is about to verify, asked of the broker with the same selectors
 * (`POST /pacts/provider/{provider}/for-verification`), in the same order: what lets payspec name each
 * interaction's own consumer and version, count the pacts, and know which interactions expect their
 * own credentials to be refused.
 */
export async function pactsForVerification(
  brokerUrl: string,
  provider: string,
  selectors: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<BrokerPact[]> {
  const authorization = brokerAuthorization(env);
  const headers: Record<string, string> = {
    accept: "application/hal+json, application/json",
    ...(authorization ? { authorization } : {}),
  };
  const ask = async (url: string, init: RequestInit = {}) => {
    let reply: Response;
    try {
      reply = await fetch(url, {
        ...init,
        headers: { ...headers, ...init.headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new CannotRun(
        `the Pact Broker at ${brokerUrl} does not answer: check --broker-url and that it is running.`,
      );
    }
    if (reply.status === 401 || reply.status === 403)
      throw new CannotRun(
        `the Pact Broker at ${brokerUrl} refused the credentials (${reply.status}): set PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD.`,
      );
    if (!reply.ok)
      throw new CannotRun(
        `the Pact Broker at ${brokerUrl} answered ${reply.status} to ${new URL(url).pathname}: check --broker-url and --provider.`,
      );
    return (await reply.json()) as Record<string, unknown>;
  };
  const base = brokerUrl.replace(/\/+$/, "");
  const listed = await ask(`${base}/pacts/provider/${encodeURIComponent(provider)}/for-verification`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ consumerVersionSelectors: selectors.map((s) => JSON.parse(s)) }),
  });
  const entries =
    (listed._embedded as { pacts?: { _links?: { self?: { href?: string; name?: string } } }[] } | undefined)?.pacts ??
    [];
  const pacts: BrokerPact[] = [];
  for (const entry of entries) {
    const self = entry._links?.self;
    if (!self?.href) continue;
    const content = await ask(self.href);
    let pact: Pact;
    try {
      pact = parsePact(JSON.stringify(content), self.href);
    } catch (error) {
      if (error instanceof UnreadablePact)
        throw new CannotRun(`the Pact Broker's pact at ${self.href} is unreadable: ${error.message}`);
      throw error;
    }
    // A broker names each pact "Pact between <consumer> (<version>) and <provider>".
    const version = /^Pact between .+ \(([^)]+)\) and /.exec(self.name ?? "")?.[1];
    pacts.push({ pact, ...(version ? { consumerVersion: version } : {}) });
  }
  return pacts;
}

/**
 * Whether a request should keep the credentials it came with: every interaction with its method, path
 * and exact Authorization expects them refused (401 or 403), as a pact about a wrong key does.
 */
export function keepsOwnCredentials(
  pacts: readonly BrokerPact[],
  request: { method: string; path: string; authorization: string | undefined },
): boolean {
  if (request.authorization === undefined) return false;
  const same = pacts
    .flatMap((p) => p.pact.interactions)
    .filter(
      (i) =>
        i.request.method.toUpperCase() === request.method.toUpperCase() &&
        i.request.path === (request.path.split("?")[0] ?? request.path) &&
        Object.entries(i.request.headers).some(
          ([name, value]) => name.toLowerCase() === "authorization" && value === request.authorization,
        ),
    );
  return same.length > 0 && same.every((i) => i.response.status === 401 || i.response.status === 403);
}
