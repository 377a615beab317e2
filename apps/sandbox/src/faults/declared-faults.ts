import {
  ApiFailure,
  FAULT_DEFAULTS,
  FAULT_LIMITS,
  FAULT_NAMES,
  FAULTS,
  type FaultName,
  type FaultStrike,
  isFaultName,
  seededRandom,
} from "@payspec/server-kit";
import { t } from "../infrastructure/i18n/locale.js";
import { type OperationNames, operationNames } from "./operation-names.js";

/** A declaration's fields: the control API's body, and the dashboard form's boxes. */
export const DECLARATION_FIELDS = [
  "operation",
  "fault",
  "next",
  "probability",
  "seed",
  "max",
  "latencyMs",
  "retryAfterSeconds",
  "results",
] as const;

/** A declared fault as GET /_sandbox/faults lists it. */
export interface FaultView {
  readonly id: string;
  readonly operations: readonly string[];
  readonly fault: FaultName;
  readonly when: "before" | "after";
  readonly clientSees: string;
  readonly sandboxDid: string;
  /** `next`: strikes the next N matching requests; `probability`: each with probability p, seeded, at most `max` times. */
  readonly mode:
    | { readonly next: number }
    | { readonly probability: number; readonly seed: number; readonly max: number };
  readonly struck: number;
  readonly active: boolean;
  readonly latencyMs?: number | readonly [number, number];
  readonly retryAfterSeconds?: number;
  readonly results?: number;
}

interface Declared {
  readonly view: Omit<FaultView, "struck" | "active">;
  /** "METHOD /template" keys. */
  readonly operations: ReadonlySet<string>;
  struck: number;
  readonly random: () => number;
}

/** How many faults one scope may have declared at once: enough for any test, bounded for the server. */
export const MAX_FAULTS_PER_SCOPE = 50;
const MAX_NEXT = 100_000;
const MAX_LATENCY_MS = FAULT_LIMITS.latencyMs;
const MAX_RETRY_AFTER_SECONDS = FAULT_LIMITS.retryAfterSeconds;

const invalid = (param: string, message: string) =>
  new ApiFailure("invalid_request", `${param}: ${message}`, { param });

function wholeNumber(body: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(
      name,
      t(`must be a whole number from ${min} to ${max}.`, `${min} ile ${max} arasında bir tam sayı olmalı.`),
    );
  }
  return value;
}

/** A declaration's body: an object with only the declaration's fields. */
function declarationBody(input: unknown): Record<string, unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalid(
      "body",
      t(
        "send a JSON object: {operation, fault, next} or {operation, fault, probability, seed, max}.",
        "bir JSON nesnesi gönderin: {operation, fault, next} ya da {operation, fault, probability, seed, max}.",
      ),
    );
  }
  const body = input as Record<string, unknown>;
  const unknown = Object.keys(body).find((name) => !(DECLARATION_FIELDS as readonly string[]).includes(name));
  if (unknown !== undefined)
    throw invalid(
      unknown,
      t(
        `unknown field; the fields are ${DECLARATION_FIELDS.join(", ")}.`,
        `bilinmeyen alan; alanlar: ${DECLARATION_FIELDS.join(", ")}.`,
      ),
    );
  return body;
}

/** The fault asked for, with no setting it has no use for (refused, not silently dropped). */
function faultOf(body: Record<string, unknown>): FaultName {
  if (!isFaultName(body.fault))
    throw invalid(
      "fault",
      t(`must be one of ${FAULT_NAMES.join(", ")}.`, `şunlardan biri olmalı: ${FAULT_NAMES.join(", ")}.`),
    );
  const fault = body.fault;
  for (const [field, applies, which] of [
    ["latencyMs", fault.startsWith("latency"), ["the latency faults", "gecikme hataları"]],
    [
      "retryAfterSeconds",
      fault === "error-503" || fault === "rate-limit",
      ["error-503 and rate-limit", "error-503 ve rate-limit"],
    ],
    ["results", fault === "batch-partial", ["batch-partial", "batch-partial"]],
  ] as const) {
    if (body[field] !== undefined && !applies)
      throw invalid(
        field,
        t(`applies to ${which[0]} only, not to ${fault}.`, `yalnızca ${which[1]} için geçerli, ${fault} için değil.`),
      );
  }
  return fault;
}

/** The operations it strikes, as "METHOD /template": one, or a list of up to 20, each of this API. */
function operationsOf(
  body: Record<string, unknown>,
  fault: FaultName,
  names: OperationNames,
  api: "payments" | "gateway",
): string[] {
  const asked = Array.isArray(body.operation) ? body.operation : [body.operation];
  if (asked.length === 0 || asked.length > 20 || asked.some((o) => typeof o !== "string")) {
    throw invalid(
      "operation",
      t(
        "name one operation, or a list of up to 20, by operationId or as 'METHOD /path'.",
        "operationId ile ya da 'METHOD /yol' biçiminde bir işlem ya da en çok 20 işlemlik bir liste verin.",
      ),
    );
  }
  const operations = asked.map((name) => {
    const key = names.resolve(name as string, api);
    if (!key) {
      const known = names.listFor(api).join(", ");
      throw invalid(
        "operation",
        t(
          `not an operation of this API; use one of ${known}.`,
          `bu API'nin bir işlemi değil; şunlardan birini kullanın: ${known}.`,
        ),
      );
    }
    return key;
  });
  if (fault === "batch-partial" && operations.some((key) => key !== "POST /v1/payments/batch")) {
    throw invalid(
      "operation",
      t(
        "batch-partial applies to createPaymentBatch (POST /v1/payments/batch) only.",
        "batch-partial yalnızca createPaymentBatch (POST /v1/payments/batch) için geçerli.",
      ),
    );
  }
  return operations;
}

/** When it strikes: the next N requests, or each with a seeded probability, at most `max` times. */
function modeOf(body: Record<string, unknown>): { readonly mode: FaultView["mode"]; readonly seed: number } {
  const probability = body.probability;
  if (probability !== undefined && (typeof probability !== "number" || !(probability > 0 && probability <= 1))) {
    throw invalid(
      "probability",
      t("must be a number above 0 and at most 1.", "0'dan büyük ve en çok 1 olan bir sayı olmalı."),
    );
  }
  if (probability !== undefined && body.next !== undefined) {
    throw invalid(
      "next",
      t(
        "give either next (the next N requests) or probability, not both.",
        "ya next (sonraki N istek) ya da probability verin, ikisini birden değil.",
      ),
    );
  }
  const next = wholeNumber(body, "next", 1, MAX_NEXT);
  const seed = wholeNumber(body, "seed", 0, 2 ** 32 - 1) ?? 1;
  const max = wholeNumber(body, "max", 1, MAX_NEXT) ?? 100;
  if (probability === undefined && (body.seed !== undefined || body.max !== undefined)) {
    throw invalid(
      body.seed !== undefined ? "seed" : "max",
      t("applies with probability only.", "yalnızca probability ile birlikte geçerli."),
    );
  }
  return { mode: probability === undefined ? { next: next ?? 1 } : { probability, seed, max }, seed };
}

/** The latency asked for: whole milliseconds, or a [min, max] pair of them. */
function latencyOf(body: Record<string, unknown>): number | [number, number] | undefined {
  const latency = body.latencyMs;
  const latencyOk =
    latency === undefined ||
    (typeof latency === "number" && Number.isInteger(latency) && latency >= 0 && latency <= MAX_LATENCY_MS) ||
    (Array.isArray(latency) &&
      latency.length === 2 &&
      latency.every((ms) => typeof ms === "number" && Number.isInteger(ms) && ms >= 0 && ms <= MAX_LATENCY_MS) &&
      (latency[0] as number) <= (latency[1] as number));
  if (!latencyOk) {
    throw invalid(
      "latencyMs",
      t(
        `must be whole milliseconds from 0 to ${MAX_LATENCY_MS}, or a [min, max] pair of them.`,
        `0 ile ${MAX_LATENCY_MS} arasında tam milisaniye ya da bunlardan bir [en az, en çok] çifti olmalı.`,
      ),
    );
  }
  return latency as number | [number, number] | undefined;
}

/**
 * The faults each scope (a payments workspace, or the gateway) has declared, kept in this process's
 * memory: a test declares them against the instance it talks to. A scope with none costs one map
 * lookup per request.
 */
export class DeclaredFaults {
  readonly #byScope = new Map<string, Declared[]>();
  readonly #names: OperationNames;
  #nextId = 1;

  constructor(names: OperationNames = operationNames()) {
    this.#names = names;
  }

  /** Declares a fault from a control API body; 400 naming the field for anything it cannot use. */
  declare(scope: string, input: unknown, api: "payments" | "gateway"): FaultView {
    const body = declarationBody(input);
    const fault = faultOf(body);
    const operations = operationsOf(body, fault, this.#names, api);
    const { mode, seed } = modeOf(body);
    const latency = latencyOf(body);
    const retryAfterSeconds = wholeNumber(body, "retryAfterSeconds", 0, MAX_RETRY_AFTER_SECONDS);
    const results = wholeNumber(body, "results", 0, FAULT_LIMITS.batchResults);
    const list = this.#byScope.get(scope) ?? [];
    if (list.filter((d) => this.#active(d)).length >= MAX_FAULTS_PER_SCOPE) {
      throw invalid(
        "body",
        t(
          `at most ${MAX_FAULTS_PER_SCOPE} faults may be active at once; DELETE /_sandbox/faults clears them.`,
          `aynı anda en çok ${MAX_FAULTS_PER_SCOPE} hata etkin olabilir; DELETE /_sandbox/faults hepsini temizler.`,
        ),
      );
    }
    const view: Declared["view"] = {
      id: `flt_${this.#nextId++}`,
      operations,
      fault,
      when: FAULTS[fault].when,
      clientSees: FAULTS[fault].clientSees,
      sandboxDid: FAULTS[fault].serverDid,
      mode,
      ...(fault.startsWith("latency") ? { latencyMs: latency ?? FAULT_DEFAULTS.latencyMs } : {}),
      ...(fault === "error-503" || fault === "rate-limit"
        ? { retryAfterSeconds: retryAfterSeconds ?? FAULT_DEFAULTS.retryAfterSeconds }
        : {}),
      ...(fault === "batch-partial" ? { results: results ?? FAULT_DEFAULTS.batchResults } : {}),
    };
    const declared: Declared = { view, operations: new Set(operations), struck: 0, random: seededRandom(seed) };
    list.push(declared);
    this.#byScope.set(scope, list);
    return this.#viewOf(declared);
  }

  /** Whether the scope has any faults declared (spent ones included, until cleared). */
  hasAny(scope: string): boolean {
    return this.#byScope.has(scope);
  }

  list(scope: string): FaultView[] {
    return (this.#byScope.get(scope) ?? []).map((d) => this.#viewOf(d));
  }

  /** Clears every fault of the scope; how many there were. */
  clear(scope: string): number {
    const count = this.#byScope.get(scope)?.length ?? 0;
    this.#byScope.delete(scope);
    return count;
  }

  /** Every scope's faults gone: the sandbox back to its seeded state. */
  clearAll(): void {
    this.#byScope.clear();
  }

  /**
   * The fault that strikes this request, if one does (counted as struck): the first declared fault
   * for the operation that still has strikes left and, for a probability, whose draw says so.
   */
  strike(scope: string, operation: string): FaultStrike | undefined {
    const list = this.#byScope.get(scope);
    if (list === undefined) return undefined;
    for (const declared of list) {
      if (!declared.operations.has(operation) || !this.#active(declared)) continue;
      const mode = declared.view.mode;
      if ("probability" in mode && declared.random() >= mode.probability) continue;
      declared.struck++;
      const latency = declared.view.latencyMs ?? 0;
      return {
        fault: declared.view.fault,
        latencyMs:
          typeof latency === "number"
            ? latency
            : Math.round(latency[0] + declared.random() * (latency[1] - latency[0])),
        retryAfterSeconds: declared.view.retryAfterSeconds ?? 1,
        results: declared.view.results ?? 1,
      };
    }
    return undefined;
  }

  #active(declared: Declared): boolean {
    const mode = declared.view.mode;
    return declared.struck < ("next" in mode ? mode.next : mode.max);
  }

  #viewOf(declared: Declared): FaultView {
    return { ...declared.view, struck: declared.struck, active: this.#active(declared) };
  }
}
