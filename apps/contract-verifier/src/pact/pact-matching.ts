import { redactCardData } from "@payspec/server-kit";
import type { Matcher, Rules } from "./pact-file.js";

const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text);
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const COLLECTION_MATCHERS = new Set(["eachKey", "eachValue", "values", "arrayContains"]);
/** Everything matched by type, from the root down: how `values` holds each value to the expected one. */
const TYPE_ONLY: Rules = new Map([["$", [{ match: "type" }]]]);

/**
 * Pact's response matching, for the rules pact libraries write: a provider's answer matches when it
 * has everything the consumer expects (extra fields are fine), by value, or by the matcher found for
 * that path. A `type` matcher, as Pact says, carries down to everything under it unless a closer
 * rule says otherwise; `min`/`max` bound an array whose items are matched against the first
 * expected one. Returns one line per mismatch, with its JSON path; values only where a regex failed
 * (masked and clipped), since "matches only in part" is what the consumer needs to see there.
 */
export function bodyMismatches(expected: unknown, actual: unknown, rules: Rules): string[] {
  const problems: string[] = [];
  compare(["$"], expected, actual, rules, false, problems);
  return problems;
}

const kindOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? "number" : typeof value;

const render = (path: readonly string[]) =>
  path.map((segment, i) => (i === 0 ? segment : /^\[/.test(segment) ? segment : `.${segment}`)).join("");

/** Whether a rule's path (`$.items[*].id`, `$.*`) names this path. */
function pathMatches(pattern: string, path: readonly string[]): boolean {
  const tokens = pattern.match(/\$|\[\*\]|\[\d+\]|\['[^']*'\]|\.\*|\.[^.[]+/g) ?? [];
  if (tokens.length !== path.length) return false;
  return tokens.every((token, i) => {
    const segment = path[i] as string;
    if (token === "$") return segment === "$";
    if (token === "[*]") return /^\[\d+\]$/.test(segment);
    if (token === ".*") return true;
    if (token.startsWith("['")) return segment === token.slice(2, -2);
    if (token.startsWith("[")) return segment === token;
    return segment === token.slice(1);
  });
}

/** The closest rule for a path: exact indices beat `[*]`, which beats `.*`. */
function ruleFor(rules: Rules, path: readonly string[]): readonly Matcher[] | undefined {
  let best: { weight: number; matchers: readonly Matcher[] } | undefined;
  for (const [pattern, matchers] of rules) {
    if (!pathMatches(pattern, path)) continue;
    const weight = -(pattern.split("*").length - 1);
    if (!best || weight > best.weight) best = { weight, matchers };
  }
  return best?.matchers;
}

function checkMatcher(matcher: Matcher, expected: unknown, actual: unknown): string | undefined {
  const kind = kindOf(actual);
  switch (matcher.match) {
    case "type":
      if (kindOf(expected) !== kind) return `a ${kindOf(expected)}, got a ${kind}`;
      if (Array.isArray(actual)) {
        if (matcher.min !== undefined && actual.length < matcher.min)
          return `at least ${matcher.min} items, got ${actual.length}`;
        if (matcher.max !== undefined && actual.length > matcher.max)
          return `at most ${matcher.max} items, got ${actual.length}`;
      }
      return undefined;
    case "regex":
      if (typeof actual !== "string" && typeof actual !== "number")
        return `text matching /${matcher.regex}/, got a ${kind}`;
      if (new RegExp(`^(?:${matcher.regex ?? ""})$`).test(String(actual))) return undefined;
      // The old pact-js habit, term({matcher: "application/json"}) against "application/json; charset=utf-8":
      // a regex must match the whole value, as the official verifier holds it. The value is shown,
      // card numbers masked and clipped, so the consumer sees what the provider sent.
      return `text matching /${matcher.regex}/ as a whole (a Pact regex must match the entire value), got ${JSON.stringify(clip(redactCardData(String(actual))))}${new RegExp(matcher.regex ?? "").test(String(actual)) ? ", which it matches only in part" : ""}`;
    case "integer":
      return Number.isInteger(actual) ? undefined : `an integer, got a ${kind}`;
    case "decimal":
    case "number":
      return typeof actual === "number" ? undefined : `a number, got a ${kind}`;
    case "boolean":
      return typeof actual === "boolean" ? undefined : `a boolean, got a ${kind}`;
    case "null":
      return actual === null ? undefined : `null, got a ${kind}`;
    case "include":
      return typeof actual === "string" && actual.includes(String(matcher.value ?? ""))
        ? undefined
        : `text including the expected part, got ${kind === "string" ? "text without it" : `a ${kind}`}`;
    case "equality":
      return JSON.stringify(actual) === JSON.stringify(expected)
        ? undefined
        : "the expected value exactly, got another";
    case "notEmpty":
      return actual !== "" && actual !== null && !(Array.isArray(actual) && actual.length === 0)
        ? undefined
        : "a value that is not empty";
    case "semver":
      return typeof actual === "string" && SEMVER.test(actual)
        ? undefined
        : `a semantic version, got ${kind === "string" ? "text that is not one" : `a ${kind}`}`;
    case "eachKey":
      if (kindOf(actual) !== "object") return `an object, got a ${kind}`;
      for (const key of Object.keys(actual as object)) {
        for (const rule of matcher.rules ?? []) {
          const problem = checkMatcher(rule, Object.keys((expected as object) ?? {})[0] ?? key, key);
          if (problem) return `every key to be ${problem}`;
        }
      }
      return undefined;
    case "eachValue":
    case "values": {
      if (kindOf(actual) !== "object" && !Array.isArray(actual)) return `an object, got a ${kind}`;
      const template = Object.values((expected as object) ?? {})[0];
      for (const [key, value] of Object.entries(actual as object)) {
        if (matcher.match === "values" || (matcher.rules ?? []).length === 0) {
          const problems = bodyMismatches(template, value, TYPE_ONLY);
          if (problems.length > 0) return `every value like the expected one, got at ${key}: ${problems[0]}`;
        }
        for (const rule of matcher.rules ?? []) {
          const problem = checkMatcher(rule, template, value);
          if (problem) return `every value to be ${problem}, not at ${key}`;
        }
      }
      return undefined;
    }
    case "arrayContains": {
      if (!Array.isArray(actual)) return `an array, got a ${kind}`;
      const wanted = Array.isArray(expected) ? expected : [];
      for (const variant of matcher.variants ?? []) {
        const want = wanted[variant.index];
        if (!actual.some((item) => bodyMismatches(want, item, variant.rules).length === 0))
          return `an array holding an item like its item ${variant.index}, got none that is`;
      }
      return undefined;
    }
    case "date":
    case "time":
    case "timestamp":
    case "datetime":
      return typeof actual === "string" ? undefined : `a ${matcher.match} as text, got a ${kind}`;
    default:
      // A matcher this tool does not know (plugins, semver, arrayContains): the type must still agree.
      return kindOf(expected) === kind ? undefined : `a ${kindOf(expected)}, got a ${kind}`;
  }
}

function compare(
  path: string[],
  expected: unknown,
  actual: unknown,
  rules: Rules,
  byType: boolean,
  problems: string[],
): void {
  const matchers = ruleFor(rules, path);
  let typeMode = byType;
  if (matchers && matchers.length > 0) {
    const found = matchers.map((matcher) => checkMatcher(matcher, expected, actual));
    // combine "OR" (V3/V4): one matcher agreeing is enough; otherwise each must.
    const problem =
      matchers[0]?.combine === "OR" && found.some((p) => p === undefined) ? undefined : found.find(Boolean);
    if (problem) {
      problems.push(`${render(path)}: expected ${problem}`);
      return;
    }
    typeMode = matchers.some((m) => m.match === "type");
    // A value matcher decides the value, and so does a matcher of a whole collection (its keys, its
    // values, an item it must contain); other containers go on to their children.
    if (!isContainer(expected) || matchers.some((m) => COLLECTION_MATCHERS.has(m.match))) return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      problems.push(`${render(path)}: expected an array, got a ${kindOf(actual)}`);
      return;
    }
    const sized = matchers?.some((m) => m.match === "type" && (m.min !== undefined || m.max !== undefined));
    if (!sized && !typeMode && actual.length !== expected.length) {
      problems.push(`${render(path)}: expected ${expected.length} items, got ${actual.length}`);
      return;
    }
    // Matched by type (eachLike): every item is held to the first expected one.
    const items =
      sized || typeMode
        ? actual.map((item, i) => [expected[Math.min(i, expected.length - 1)], item])
        : expected.map((item, i) => [item, actual[i]]);
    items.forEach(([want, got], i) => {
      compare([...path, `[${i}]`], want, got, rules, typeMode, problems);
    });
    return;
  }
  if (isContainer(expected)) {
    if (kindOf(actual) !== "object") {
      problems.push(`${render(path)}: expected an object, got a ${kindOf(actual)}`);
      return;
    }
    for (const [key, want] of Object.entries(expected as Record<string, unknown>)) {
      const got = (actual as Record<string, unknown>)[key];
      if (got === undefined) {
        problems.push(`${render([...path, key])}: expected a field the answer does not have`);
        continue;
      }
      compare([...path, key], want, got, rules, typeMode, problems);
    }
    return;
  }
  if (typeMode) {
    if (kindOf(expected) !== kindOf(actual))
      problems.push(`${render(path)}: expected a ${kindOf(expected)}, got a ${kindOf(actual)}`);
    return;
  }
  if (JSON.stringify(expected) !== JSON.stringify(actual)) {
    problems.push(`${render(path)}: expected the value the pact records, got another`);
  }
}

function isContainer(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}

/**
 * Each header the consumer expects, with its value or matching its rule. Names are case-insensitive,
 * values are not, and the space after a comma does not count, as the Pact specification's test cases
 * hold it; a media type (Content-Type, Accept: `type/subtype`) is compared by its type and by each
 * parameter the pact names, in any order, a charset in any case.
 */
export function headerMismatches(
  expected: Readonly<Record<string, string>>,
  actual: Readonly<Record<string, string>>,
  rules: Rules,
): string[] {
  const problems: string[] = [];
  for (const [name, want] of Object.entries(expected)) {
    const got = actual[name];
    if (got === undefined) {
      problems.push(`header ${name}: expected it, the answer has none`);
      continue;
    }
    const matchers = rules.get(name);
    if (matchers?.length) {
      for (const matcher of matchers) {
        const problem = checkMatcher(matcher, want, got);
        if (problem) problems.push(`header ${name}: expected ${problem}`);
      }
      continue;
    }
    const same =
      MEDIA_TYPE_HEADERS.has(name) && want.includes("/")
        ? sameMediaTypes(want, got)
        : commaList(got) === commaList(want);
    if (!same) problems.push(`header ${name}: expected "${want}", got "${got}"`);
  }
  return problems;
}

const MEDIA_TYPE_HEADERS = new Set(["content-type", "accept"]);
const commaList = (value: string) =>
  value
    .split(",")
    .map((part) => part.trim())
    .join(",");

/** `type/subtype; name=value`: the type in lower case, the parameters by name (a charset's value in lower case). */
function mediaType(value: string): { type: string; parameters: Map<string, string> } {
  const [type = "", ...parameters] = value.split(";").map((part) => part.trim());
  const byName = new Map<string, string>();
  for (const parameter of parameters) {
    const at = parameter.indexOf("=");
    if (at < 0) continue;
    const name = parameter.slice(0, at).trim().toLowerCase();
    const raw = parameter.slice(at + 1).trim();
    byName.set(name, name === "charset" ? raw.toLowerCase() : raw);
  }
  return { type: type.toLowerCase(), parameters: byName };
}

/** Each media type of the list the same, in order, with every parameter the pact names. */
function sameMediaTypes(want: string, got: string): boolean {
  const wanted = want.split(",").map(mediaType);
  const found = got.split(",").map(mediaType);
  return (
    wanted.length === found.length &&
    wanted.every((w, i) => {
      const f = found[i];
      return f?.type === w.type && [...w.parameters].every(([name, value]) => f.parameters.get(name) === value);
    })
  );
}

/** The classes V4's `statusCode` matcher names, as the official verifier reads them. */
const STATUS_CLASSES: Record<string, (status: number) => boolean> = {
  information: (n) => n >= 100 && n < 200,
  success: (n) => n >= 200 && n < 300,
  redirect: (n) => n >= 300 && n < 400,
  clientError: (n) => n >= 400 && n < 500,
  serverError: (n) => n >= 500 && n < 600,
  nonError: (n) => n < 400,
  error: (n) => n >= 400,
};

/** Whether a status is the one the pact expects: exactly, or as its `statusCode` matcher allows. */
export function statusMismatch(
  expected: number,
  actual: number,
  matchers: readonly Matcher[] | undefined,
): string | undefined {
  const byCode = matchers?.find((m) => m.match === "statusCode");
  if (!byCode) return actual === expected ? undefined : `status ${expected}, got ${actual}`;
  const allowed = byCode.status;
  const ok = Array.isArray(allowed)
    ? allowed.map(Number).includes(actual)
    : typeof allowed === "string" && (STATUS_CLASSES[allowed]?.(actual) ?? false);
  return ok
    ? undefined
    : `a status that is ${Array.isArray(allowed) ? allowed.join(" or ") : String(allowed)}, got ${actual}`;
}
