import { FAULT_DEFAULTS, FAULT_LIMITS, FAULT_NAMES, type FaultStrike, isFaultName } from "@payspec/server-kit";

/** The Prefer preferences that shape a fault; the rest of the header goes on to Prism. */
const FAULT_PREFERENCES = new Set(["fault", "latency", "retry-after", "results"]);

export type PreferredFault =
  | { readonly ok: true; readonly strike: FaultStrike | undefined; readonly rest: string }
  | { readonly ok: false; readonly error: string };

function wholeNumber(text: string, max: number): number | undefined {
  if (!/^\d{1,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= max ? value : undefined;
}

/** `latency=500` or `latency=200-800` (a range, drawn from per request). */
function latencyOf(text: string): number | undefined {
  const [low = "", high, ...more] = text.split("-");
  if (more.length > 0) return undefined;
  const min = wholeNumber(low, FAULT_LIMITS.latencyMs);
  const max = high === undefined ? min : wholeNumber(high, FAULT_LIMITS.latencyMs);
  if (min === undefined || max === undefined || min > max) return undefined;
  return Math.round(min + Math.random() * (max - min));
}

/**
 * Reads a fault from `Prefer: fault=reset-after-commit` (with `latency=…`, `retry-after=…`,
 * `results=…` where they apply), the mock's per-request form of the sandbox's declared faults.
 * The mock keeps no state, so a fault strikes the one request that asks for it. Errors name the
 * preference and what it accepts, never what was sent.
 */
export function preferredFault(header: string): PreferredFault {
  const values = new Map<string, string>();
  const rest: string[] = [];
  for (const part of header.split(",")) {
    const [rawName = "", ...value] = part.split("=");
    const name = rawName.trim().toLowerCase();
    if (!FAULT_PREFERENCES.has(name)) {
      if (part.trim()) rest.push(part.trim());
      continue;
    }
    values.set(
      name,
      value
        .join("=")
        .trim()
        .replace(/^"(.*)"$/, "$1"),
    );
  }
  const fault = values.get("fault");
  if (fault === undefined) {
    const stray = [...values.keys()][0];
    return stray === undefined
      ? { ok: true, strike: undefined, rest: header }
      : { ok: false, error: `Prefer ${stray} applies with Prefer fault=… only; add fault=<name> or drop it.` };
  }
  if (!isFaultName(fault)) return { ok: false, error: `Prefer fault must be one of ${FAULT_NAMES.join(", ")}.` };

  const latencyText = values.get("latency");
  const latencyMs = latencyText === undefined ? FAULT_DEFAULTS.latencyMs : latencyOf(latencyText);
  if (latencyMs === undefined) {
    return {
      ok: false,
      error: `Prefer latency must be whole milliseconds from 0 to ${FAULT_LIMITS.latencyMs}, or a range such as 200-800.`,
    };
  }
  const retryText = values.get("retry-after");
  const retryAfterSeconds =
    retryText === undefined ? FAULT_DEFAULTS.retryAfterSeconds : wholeNumber(retryText, FAULT_LIMITS.retryAfterSeconds);
  if (retryAfterSeconds === undefined) {
    return {
      ok: false,
      error: `Prefer retry-after must be whole seconds from 0 to ${FAULT_LIMITS.retryAfterSeconds}.`,
    };
  }
  const resultsText = values.get("results");
  const results =
    resultsText === undefined ? FAULT_DEFAULTS.batchResults : wholeNumber(resultsText, FAULT_LIMITS.batchResults);
  if (results === undefined) {
    return { ok: false, error: `Prefer results must be a whole number from 0 to ${FAULT_LIMITS.batchResults}.` };
  }
  return { ok: true, strike: { fault, latencyMs, retryAfterSeconds, results }, rest: rest.join(", ") };
}
