import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/** A Pact matching rule, as V2 (`{match: "type"}`) and V3/V4 (`{matchers: [...]}`) write them. */
export interface Matcher {
  readonly match: string;
  readonly min?: number;
  readonly max?: number;
  readonly regex?: string;
  readonly value?: unknown;
  /** V3/V4: how the matchers of one path combine; "OR" passes when any of them does. */
  readonly combine?: "AND" | "OR";
  /** `statusCode`: a class (`success`, `clientError`, …) or a list of statuses. */
  readonly status?: string | readonly number[];
  /** `eachKey` / `eachValue`: the matchers every key, or every value, is held to. */
  readonly rules?: readonly Matcher[];
  /** `arrayContains`: for each expected item (by index), the rules an answer's item must meet. */
  readonly variants?: readonly { readonly index: number; readonly rules: Rules }[];
}

/** Rules by JSON path (`$.items[*].id`), for one part of a message (body, header). */
export type Rules = ReadonlyMap<string, readonly Matcher[]>;

export interface ProviderState {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface PactRequest {
  readonly method: string;
  readonly path: string;
  /** The query as sent: `status=pending&limit=10`. */
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly contentType?: string;
  /** Values to fill in from the provider state's parameters (`ProviderState` generators): where, and the expression. */
  readonly fromProviderState: readonly {
    readonly part: "path" | "header" | "query" | "body";
    readonly at: string;
    readonly expression: string;
  }[];
}

export interface PactResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly rules: { readonly body: Rules; readonly header: Rules; readonly status?: readonly Matcher[] };
}

/** One HTTP interaction, whatever the Pact version that wrote it. */
export interface PactInteraction {
  readonly description: string;
  readonly providerStates: readonly ProviderState[];
  readonly request: PactRequest;
  readonly response: PactResponse;
}

export interface Pact {
  readonly file: string;
  readonly consumer: string;
  readonly provider: string;
  readonly specVersion: string;
  readonly interactions: readonly PactInteraction[];
  /** Interactions this tool does not check (messages, plugins): named, never silently dropped. */
  readonly skipped: readonly string[];
}

/** The file is not a Pact it can read: the message says which file and what is wrong. */
export class UnreadablePact extends Error {}

/** An interaction's result id: `pact.<consumer>.<n>`, numbered per consumer across its pacts, so ids never repeat. */
export const interactionId = (consumer: string, number: number) =>
  `pact.${consumer.replace(/[^A-Za-z0-9_-]+/g, "-")}.${number}`;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Header values as one string each (V4 writes lists). */
function headersOf(raw: unknown): Record<string, string> {
  if (!isObject(raw)) return {};
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String).join(", ") : String(value);
  }
  return headers;
}

/** The query as a string: V2 writes one, V3 and V4 an object of lists. */
function queryOf(raw: unknown): string {
  if (typeof raw === "string") return raw;
  if (!isObject(raw)) return "";
  const params = new URLSearchParams();
  for (const [name, values] of Object.entries(raw)) {
    for (const value of Array.isArray(values) ? values : [values]) params.append(name, String(value));
  }
  return params.toString();
}

/**
 * A body and its content type: V4 wraps it (`{content, contentType, encoded}`), earlier versions do not.
 * A response's `null` body is kept: it expects an empty body, where no body at all expects nothing.
 */
function bodyOf(
  message: Json,
  headers: Record<string, string>,
  v4: boolean,
  part: "request" | "response",
): { body?: unknown; contentType?: string } {
  const raw = message.body;
  if (raw === null && part === "response") return { body: null };
  if (raw === undefined || raw === null) return {};
  if (v4 && isObject(raw) && "content" in raw) {
    const contentType = typeof raw.contentType === "string" ? raw.contentType : headers["content-type"];
    let content = raw.content;
    if (typeof content === "string" && raw.encoded === "json") content = JSON.parse(content);
    return { body: content, ...(contentType ? { contentType } : {}) };
  }
  return { body: raw, ...(headers["content-type"] ? { contentType: headers["content-type"] } : {}) };
}

/** V2 keeps every rule in one map keyed `$.body.x` / `$.headers.X`; V3 and V4 split them by part. */
/**
 * A matcher as the official verifier reads it: old implementations (pact-js 9, pact-python 1.x)
 * write `eachLike` as `{"min": 1}` with no `match`, which Pact reads as a type match with a minimum.
 */
function normalisedMatcher(raw: Json): Matcher {
  const matcher = {
    ...(raw as unknown as Matcher),
    ...(Array.isArray(raw.rules) ? { rules: (raw.rules.filter(isObject) as Json[]).map(normalisedMatcher) } : {}),
    ...(Array.isArray(raw.variants)
      ? {
          variants: (raw.variants.filter(isObject) as Json[]).map((v) => ({
            index: Number(v.index ?? 0),
            rules: splitRules(v.rules),
          })),
        }
      : {}),
  } as Matcher;
  if (matcher.match === undefined && (raw.min !== undefined || raw.max !== undefined))
    return { ...matcher, match: "type" };
  if (matcher.match === undefined && typeof raw.regex === "string") return { ...matcher, match: "regex" };
  return matcher;
}

/** Rules by path as V3 and V4 write one part of them: `{path: {matchers: [...], combine}}`. */
function splitRules(raw: unknown, lowerCase = false): Map<string, Matcher[]> {
  const rules = new Map<string, Matcher[]>();
  if (!isObject(raw)) return rules;
  for (const [path, rule] of Object.entries(raw)) {
    const combine = isObject(rule) && rule.combine === "OR" ? { combine: "OR" as const } : {};
    const matchers =
      isObject(rule) && Array.isArray(rule.matchers)
        ? (rule.matchers.filter(isObject) as Json[]).map((m) => ({ ...normalisedMatcher(m), ...combine }))
        : [];
    rules.set(lowerCase ? path.toLowerCase() : path, matchers);
  }
  return rules;
}

function rulesOf(raw: unknown, part: "body" | "header"): Map<string, Matcher[]> {
  const rules = new Map<string, Matcher[]>();
  if (!isObject(raw)) return rules;
  const v2Prefix = part === "body" ? "$.body" : "$.headers.";
  const split = raw[part];
  if (isObject(split)) return splitRules(split, part === "header");
  for (const [path, rule] of Object.entries(raw)) {
    if (!path.startsWith(v2Prefix) || !isObject(rule)) continue;
    const at = part === "body" ? `$${path.slice(v2Prefix.length)}` : path.slice(v2Prefix.length).toLowerCase();
    rules.set(at, [normalisedMatcher(rule)]);
  }
  return rules;
}

function providerStatesOf(interaction: Json): ProviderState[] {
  if (Array.isArray(interaction.providerStates)) {
    return interaction.providerStates.filter(isObject).map((s) => ({
      name: String(s.name ?? ""),
      params: isObject(s.params) ? s.params : {},
    }));
  }
  const single = interaction.providerState ?? interaction.provider_state;
  return typeof single === "string" && single ? [{ name: single, params: {} }] : [];
}

function providerStateGenerators(request: Json): PactRequest["fromProviderState"] {
  const generators = request.generators;
  if (!isObject(generators)) return [];
  const found: PactRequest["fromProviderState"][number][] = [];
  for (const part of ["path", "header", "query", "body"] as const) {
    const entries = generators[part];
    if (!isObject(entries)) continue;
    // `path` holds one generator itself; the other parts hold one per location.
    const located: [string, unknown][] =
      part === "path" && "type" in entries ? [["", entries]] : Object.entries(entries);
    for (const [at, generator] of located) {
      if (isObject(generator) && generator.type === "ProviderState" && typeof generator.expression === "string") {
        found.push({ part, at: part === "header" ? at.toLowerCase() : at, expression: generator.expression });
      }
    }
  }
  return found;
}

function interactionOf(raw: Json, v4: boolean): PactInteraction {
  const request = isObject(raw.request) ? raw.request : {};
  const response = isObject(raw.response) ? raw.response : {};
  const requestHeaders = headersOf(request.headers);
  const responseHeaders = headersOf(response.headers);
  return {
    description: String(raw.description ?? "(no description)"),
    providerStates: providerStatesOf(raw),
    request: {
      method: String(request.method ?? "GET").toUpperCase(),
      path: String(request.path ?? "/"),
      query: queryOf(request.query),
      headers: requestHeaders,
      ...bodyOf(request, requestHeaders, v4, "request"),
      fromProviderState: providerStateGenerators(request),
    },
    response: {
      status: Number(response.status ?? 200),
      headers: responseHeaders,
      ...bodyOf(response, responseHeaders, v4, "response"),
      rules: {
        body: rulesOf(response.matchingRules, "body"),
        header: rulesOf(response.matchingRules, "header"),
        // V4's status matcher (`statusCode`): a class of statuses, or a list, instead of one.
        ...(isObject(response.matchingRules) && isObject(response.matchingRules.status)
          ? { status: [...splitRules(response.matchingRules.status).values()].flat() }
          : {}),
      },
    },
  };
}

/** Reads one Pact file (V2, V3 or V4) into its HTTP interactions. */
export function parsePact(text: string, file: string): Pact {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UnreadablePact(`${file} is not JSON: give a Pact file (V2 to V4) as a pact library writes it.`);
  }
  // A V3 message pact keeps its messages under "messages" and has no interactions: named, not refused.
  const messagesOnly = isObject(raw) && !Array.isArray(raw.interactions) && Array.isArray(raw.messages);
  if (!isObject(raw) || (!Array.isArray(raw.interactions) && !messagesOnly)) {
    throw new UnreadablePact(
      `${file} has no "interactions" list (nor a message pact's "messages"): it is not a Pact file (V2 to V4).`,
    );
  }
  const metadata = isObject(raw.metadata) ? raw.metadata : {};
  const versionOf = (key: string) => {
    const entry = metadata[key];
    return isObject(entry) && typeof entry.version === "string" ? entry.version : undefined;
  };
  const specVersion = versionOf("pactSpecification") ?? versionOf("pact-specification") ?? "2.0.0";
  const v4 = specVersion.startsWith("4");
  const interactions: PactInteraction[] = [];
  const skipped: string[] = [];
  if (messagesOnly) {
    for (const message of raw.messages as unknown[]) {
      const description = isObject(message) ? String(message.description ?? "") : "";
      skipped.push(`"${description}" is a message (a V3 message pact): only HTTP interactions are checked`);
    }
  }
  for (const entry of Array.isArray(raw.interactions) ? raw.interactions : []) {
    if (!isObject(entry)) continue;
    const type = typeof entry.type === "string" ? entry.type : "Synchronous/HTTP";
    if (type !== "Synchronous/HTTP") {
      skipped.push(`"${String(entry.description ?? "")}" is a ${type} interaction: only HTTP interactions are checked`);
      continue;
    }
    interactions.push(interactionOf(entry, v4));
  }
  const name = (part: unknown) => (isObject(part) && typeof part.name === "string" ? part.name : "unnamed");
  return { file, consumer: name(raw.consumer), provider: name(raw.provider), specVersion, interactions, skipped };
}

/** Every `.json` file named, or inside a directory named (not recursing), read as Pacts, in name order. */
export async function loadPacts(paths: readonly string[]): Promise<Pact[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UnreadablePact(`${path} does not exist: give Pact files or a directory of them.`);
    if (info.isDirectory()) {
      const names = (await readdir(path)).filter((n) => n.endsWith(".json")).sort();
      if (names.length === 0)
        throw new UnreadablePact(`${path} holds no .json file: give Pact files or a directory of them.`);
      files.push(...names.map((n) => join(path, n)));
    } else {
      files.push(path);
    }
  }
  return Promise.all(files.map(async (file) => parsePact(await readFile(file, "utf8"), file)));
}
