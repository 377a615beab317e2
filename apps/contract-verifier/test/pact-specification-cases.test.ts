import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePact } from "../src/pact/pact-file.js";
import { type ProviderAnswer, responseMismatches } from "../src/pact/pact-response.js";

/**
 * The Pact specification's own response test cases (V2, V3 and V4: see fixtures/pact-specification),
 * nobody here wrote them: each says whether an expected response and an actual one match. The
 * expected one goes in as a pact file of its version, the actual one as the bytes a provider would
 * send, and the replay's verdict must be the specification's.
 */
interface SpecCase {
  readonly version: "2" | "3" | "4";
  readonly case: string;
  readonly match: boolean;
  readonly comment: string;
  readonly expected: Record<string, unknown>;
  readonly actual: { status?: number; headers?: Record<string, string>; body?: unknown };
}

const CASES = JSON.parse(
  readFileSync(new URL("./fixtures/pact-specification/response-cases.json", import.meta.url), "utf8"),
) as SpecCase[];

/** The expected response as a pact of the case's version would carry it. */
function pactOf({ version, expected }: SpecCase) {
  const interaction = {
    description: "the case",
    ...(version === "4" ? { type: "Synchronous/HTTP", key: "case" } : {}),
    request: { method: "GET", path: "/" },
    response: { status: 200, ...expected },
  };
  const pact = {
    consumer: { name: "spec" },
    provider: { name: "provider" },
    interactions: [interaction],
    metadata: { pactSpecification: { version: { "2": "2.0.0", "3": "3.0.0", "4": "4.0" }[version] } },
  };
  const [parsed] = parsePact(JSON.stringify(pact), `${version}/${expected}`).interactions;
  if (!parsed) throw new Error("The case's pact has no interaction.");
  return parsed.response;
}

/** The actual response as its bytes would reach the replay: JSON parsed only when its type says JSON. */
function answerOf({ version, actual }: SpecCase): ProviderAnswer {
  const headers = Object.fromEntries(Object.entries(actual.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  let content = actual.body;
  // V4 wraps a body as {content, contentType}.
  if (version === "4" && typeof content === "object" && content !== null && "content" in content) {
    const wrapped = content as { content: unknown; contentType?: string };
    if (wrapped.contentType && !headers["content-type"]) headers["content-type"] = wrapped.contentType;
    content = wrapped.content;
  }
  const type = headers["content-type"];
  const json = type === undefined ? typeof content !== "string" : type.includes("json");
  const text = content === undefined || content === "" ? "" : json ? JSON.stringify(content) : String(content);
  return {
    status: actual.status ?? 200,
    headers,
    body: json && text !== "" ? JSON.parse(text) : undefined,
    text,
  };
}

describe("the Pact specification's response test cases", () => {
  it("holds every case the specification's versions 2, 3 and 4 publish (XML bodies aside)", () => {
    expect(CASES.length).toBe(192);
    expect(new Set(CASES.map((c) => c.version))).toEqual(new Set(["2", "3", "4"]));
  });

  it.each(CASES.map((c) => [`V${c.version} ${c.case}`, c] as const))("%s", (_, specCase) => {
    const problems = responseMismatches(pactOf(specCase), answerOf(specCase));
    if (specCase.match) expect(problems, specCase.comment).toEqual([]);
    else expect(problems.length, `${specCase.comment}: no mismatch was found`).toBeGreaterThan(0);
  });
});
