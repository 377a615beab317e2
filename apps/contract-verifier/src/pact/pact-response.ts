import type { PactResponse } from "./pact-file.js";
import { bodyMismatches, headerMismatches, statusMismatch } from "./pact-matching.js";

/** A provider's answer as the replay read it. */
export interface ProviderAnswer {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON when the answer says it is JSON, else undefined. */
  readonly body: unknown;
  /** The body as text ("" when there is none). */
  readonly text: string;
}

/**
 * Whether an answer is the response a pact expects, as the Pact specification's own test cases
 * (pact-foundation/pact-specification, testcases/response, V2 to V4) hold it: the status, each
 * expected header, then the body. A body is JSON, matched by its rules; text (a `text/plain` body, or
 * a string with no content type) is matched whole, or by the rule at `$`; `null` or "" expects an
 * empty body; no body in the pact expects nothing. One line per mismatch, without the provider's values.
 */
export function responseMismatches(response: PactResponse, answer: ProviderAnswer): string[] {
  const wrongStatus = statusMismatch(response.status, answer.status, response.rules.status);
  if (wrongStatus) return [`expected ${wrongStatus}`];
  const problems = headerMismatches(response.headers, answer.headers, response.rules.header);
  const expected = response.body;
  if (expected === undefined) return problems;
  if (expected === null || expected === "") {
    if (answer.text !== "" && answer.body !== null && answer.body !== "")
      problems.push("body: expected an empty body, got one");
    return problems;
  }
  // A body with no Content-Type (pact-python 1.x writes them) is JSON when it is an object or a list,
  // as the official verifier detects it.
  const declared = response.headers["content-type"] ?? response.contentType;
  const json = declared === undefined ? typeof expected !== "string" : declared.includes("json");
  if (json) {
    if (answer.body === undefined) problems.push("body: expected a JSON body, got none");
    else problems.push(...bodyMismatches(expected, answer.body, response.rules.body).map((p) => `body ${p}`));
    return problems;
  }
  if (answer.text === "") problems.push("body: expected a body, got none");
  else problems.push(...bodyMismatches(String(expected), answer.text, response.rules.body).map((p) => `body ${p}`));
  return problems;
}
