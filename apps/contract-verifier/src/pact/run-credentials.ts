import { apiOf } from "@payspec/server-kit";
import { basicAuthorization } from "../basic-auth.js";

export interface RunCredentials {
  readonly apiKey: string;
  readonly gatewayKey: string;
  readonly gatewaySecret: string;
  /** A gateway token this run logged in for. */
  gatewayToken(): Promise<string>;
}

/**
 * A pact records the consumer's own credentials, which the provider under test does not know: the
 * run's take their place, by API and scheme (payments: its API key; the gateway's login: Basic with
 * its key and secret; the gateway's other calls: a token it issued). A request without credentials
 * keeps none: that interaction is about the 401.
 */
export async function withRunCredentials(
  path: string,
  authorization: string | undefined,
  credentials: RunCredentials,
): Promise<string | undefined> {
  if (authorization === undefined) return undefined;
  if (apiOf(path) !== "gateway") return `Bearer ${credentials.apiKey}`;
  if (authorization.split(" ")[0]?.toLowerCase() === "basic") {
    return basicAuthorization(`${credentials.gatewayKey}:${credentials.gatewaySecret}`);
  }
  return `Bearer ${await credentials.gatewayToken()}`;
}
