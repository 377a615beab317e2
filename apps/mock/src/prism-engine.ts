import type { ApiName } from "@payspec/server-kit";
import { specPath } from "@payspec/specs";
import { createLogger } from "@stoplight/prism-core";
import { createInstance, getHttpOperationsFromSpec, type IHttpConfig, type IHttpRequest } from "@stoplight/prism-http";
import * as E from "fp-ts/lib/Either.js";
import { parsePrefer } from "./prefer-header.js";

export interface PrismAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  /** Request problems Prism found that our own validation did not (should be none). */
  readonly inputProblems: readonly string[];
}

/** Prism refused to answer (no matching route, an impossible Prefer): status and Prism's explanation. */
export interface PrismRefusal {
  readonly status: number;
  readonly detail: string;
}

export interface PrismEngineOptions {
  /** Generate data from the schemas instead of serving the spec's examples. */
  readonly dynamic: boolean;
}

/**
 * Prism's HTTP mocker, in process: one instance, each API's operations loaded from its spec. Prism
 * picks the response (examples, `Prefer: code=…, example=…, dynamic=…`) and checks security and the
 * request a second time; everything around it (bodies, error shapes, the binary report) is ours.
 */
export async function createPrismEngine(options: PrismEngineOptions) {
  const operations = {
    payments: await getHttpOperationsFromSpec(specPath("payments-accounts")),
    gateway: await getHttpOperationsFromSpec(specPath("card-gateway")),
  };
  const baseConfig: IHttpConfig = {
    mock: { dynamic: options.dynamic },
    checkSecurity: true,
    validateRequest: true,
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  };
  const prism = createInstance(baseConfig, { logger: createLogger("payspec-mock", { enabled: false }) });

  return async function answer(
    api: Exclude<ApiName, "control">,
    input: IHttpRequest,
  ): Promise<PrismAnswer | PrismRefusal> {
    const preferred = parsePrefer(String(input.headers?.prefer ?? ""));
    if (!preferred.ok) return { status: 400, detail: preferred.error };
    const config = { ...baseConfig, mock: { ...baseConfig.mock, ...preferred.value } } as IHttpConfig;
    const result = await prism.request(input, operations[api], config)();
    if (E.isLeft(result)) {
      const error = result.left as Error & { status?: number; detail?: string };
      return { status: error.status ?? 500, detail: error.detail ?? error.message };
    }
    const { output, validations } = result.right;
    return {
      status: output.statusCode,
      headers: Object.fromEntries(Object.entries(output.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
      body: output.body,
      inputProblems: validations.input
        .filter((v) => v.severity === 0)
        .map((v) => `${(v.path ?? []).join(".")}: ${v.message}`),
    };
  };
}

export type PrismEngine = Awaited<ReturnType<typeof createPrismEngine>>;
