import { routes as gatewayRoutes } from "@payspec/card-gateway-zod";
import { routes as paymentsRoutes } from "@payspec/payments-zod";
import {
  ApiFailure,
  actBeforeHandling,
  apiOf,
  assertChargeTransactionType,
  coerceNumbers,
  createApiServer,
  parseRequest,
  registerFaultHooks,
  routeMatcher,
  send,
  sendMethodNotAllowed,
} from "@payspec/server-kit";
import type { IHttpRequest } from "@stoplight/prism-http";
import type { FastifyInstance } from "fastify";
import type { ZodObject, ZodType } from "zod";
import { batchAnswer } from "./batch-answer.js";
import { assertCredentials } from "./credentials.js";
import { isAcceptableAnswer } from "./dynamic-answer-check.js";
import { preferredFault } from "./prefer-fault.js";
import { createPrismEngine, type PrismAnswer, type PrismRefusal } from "./prism-engine.js";
import { exampleDailyReport } from "./report-example.js";
import { StaticAnswers } from "./static-answers.js";

export { DEFAULT_MOCK_PORT } from "./default-port.js";

export interface MockOptions {
  readonly port?: number;
  readonly host?: string;
  /** Schema-generated data instead of the spec's examples (per request: `Prefer: dynamic=true`). */
  readonly dynamic?: boolean;
  /** One line per request: method, path, status, ms. */
  readonly logRequests?: boolean;
  readonly log?: (line: string) => void;
}

export interface RunningMock {
  readonly app: FastifyInstance;
  /** `http://127.0.0.1:<port>`: both APIs, their paths do not overlap. */
  readonly url: string;
  close(): Promise<void>;
}

interface RouteSchemas {
  readonly data?: ZodType | undefined;
}

const REPORT_PATH = "/api/v1/general/reports/sales/daily-transactions";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** Query parameters the specs declare as integers, which arrive as text. */
const NUMERIC_QUERY = ["limit"];
const BATCH_PATH = "/v1/payments/batch";
const BATCH_OPERATION = `POST ${BATCH_PATH}`;
const CARD_PAYMENT = "POST /api/v1/payments/card";
/** Tries at schema-generated data before the spec's example is served instead. */
const DYNAMIC_TRIES = 8;

/**
 * Whether an operation declares query parameters. The generated schema says `query: never` when it
 * declares none; an operation that does is validated with `{}` for a missing query, so a missing
 * required parameter is named ("date: …") rather than "query: expected object".
 */
function declaresQuery(schema: ZodType | undefined): boolean {
  const query = (schema as ZodObject | undefined)?.shape?.query as ZodType | undefined;
  return query !== undefined && (query.safeParse({}).success || !query.safeParse(undefined).success);
}

/** A cursor asks for a later page; without an explicit example, the spec's last page ends the walk. */
function preferFor(prefer: string, query: Record<string, unknown>): string {
  if (query.cursor === undefined || /example=/.test(prefer)) return prefer;
  return prefer ? `${prefer}, example=lastPage` : "example=lastPage";
}

/** Both APIs mocked by Prism behind one Fastify router, not yet listening. */
export async function buildMock(options: MockOptions = {}): Promise<FastifyInstance> {
  const answer = await createPrismEngine({ dynamic: options.dynamic ?? false });
  const match = {
    payments: routeMatcher<RouteSchemas>(paymentsRoutes),
    gateway: routeMatcher<RouteSchemas>(gatewayRoutes),
  };
  const report = await exampleDailyReport();
  const staticAnswers = new StaticAnswers();
  // Which operations declare query parameters, decided once rather than on every request.
  const withQuery = new Set(
    Object.entries({ ...paymentsRoutes, ...gatewayRoutes })
      .filter(([, route]) => declaresQuery((route as RouteSchemas).data))
      .map(([key]) => key),
  );

  const app = createApiServer({
    operations: [...Object.keys(paymentsRoutes), ...Object.keys(gatewayRoutes)],
    ...(options.logRequests ? { requestLog: options.log ?? ((line) => process.stdout.write(`${line}\n`)) } : {}),
  });
  // After the log's hook, so a logged answer is the one the handler made, whatever the fault then does.
  registerFaultHooks(app);
  // What an orchestrator probes (the sandbox's paths): the mock holds no state and needs no database,
  // so once its specs are loaded (before it listens) it is alive and ready alike.
  for (const [path, status] of [
    ["/healthz", "ok"],
    ["/readyz", "ready"],
  ] as const) {
    app.get(path, async (_request, reply) => reply.header("cache-control", "no-store").send({ status }));
  }

  app.all("/*", async (request, reply) => {
    const url = new URL(request.url, "http://mock.local");
    const api = apiOf(url.pathname);
    if (api === "control")
      throw new ApiFailure("not_found", "The mock has no /_sandbox control API; use the sandbox for state.");
    // HEAD is GET without a body, as the sandbox (and Fastify) answer it.
    const method = request.method === "HEAD" ? "GET" : request.method;
    const matched = match[api](method, url.pathname);
    if (!matched) {
      const allowed = match[api].allowedMethods(url.pathname);
      if (allowed.length === 0) throw new ApiFailure("not_found", `No route ${request.method} ${url.pathname}.`);
      return sendMethodNotAllowed(reply, request, allowed);
    }

    assertCredentials(url.pathname, request.headers.authorization);
    const fault = preferredFault(String(request.headers.prefer ?? ""));
    if (!fault.ok) throw new ApiFailure("invalid_request", fault.error, { param: "Prefer" });
    if (fault.strike) {
      if (fault.strike.fault === "batch-partial" && matched.key !== BATCH_OPERATION) {
        throw new ApiFailure("invalid_request", "Prefer fault=batch-partial applies to POST /v1/payments/batch only.", {
          param: "Prefer",
        });
      }
      request.faultStrike = fault.strike;
      await actBeforeHandling(fault.strike, reply);
    }
    // Fastify's query parser, as in the sandbox: a repeated parameter is an array, which the schema refuses.
    const query = coerceNumbers(request.query as Record<string, unknown>, NUMERIC_QUERY);
    if (matched.route.data) {
      parseRequest(matched.route.data, {
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(Object.keys(matched.params).length ? { path: matched.params } : {}),
        ...(Object.keys(query).length || withQuery.has(matched.key) ? { query } : {}),
      });
    }
    // As the sandbox: a cancellation, refund or capture is refused here, never "charged" from an example.
    if (matched.key === CARD_PAYMENT)
      assertChargeTransactionType((request.body as { transactionType?: unknown } | undefined)?.transactionType);

    const prefer = preferFor(fault.rest, query);
    if (url.pathname === REPORT_PATH && !/code=(?!200)/.test(prefer)) {
      const date = url.searchParams.get("date") ?? "";
      reply.type(XLSX).header("content-disposition", `attachment; filename="daily-transactions-${date}.xlsx"`);
      return report;
    }

    const dynamic = /dynamic=true/.test(prefer) || (options.dynamic === true && !/dynamic=false/.test(prefer));
    // The batch answer is built from the request's own entries: it is never one static answer.
    const cacheKey =
      dynamic || url.pathname === BATCH_PATH
        ? undefined
        : StaticAnswers.key({ api, operation: matched.key, prefer, accept: String(request.headers.accept ?? "") });
    const cached = cacheKey === undefined ? undefined : staticAnswers.get(cacheKey);
    if (cached) {
      reply.code(cached.status).headers(cached.headers);
      return cached.body;
    }

    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    const prismRequest = (preferHeader: string): IHttpRequest => ({
      method: method.toLowerCase() as IHttpRequest["method"],
      url: { path: url.pathname, query: Object.fromEntries(url.searchParams) },
      headers: { ...headers, prefer: preferHeader },
      body: request.body,
    });
    let result = await answer(api, prismRequest(prefer));
    // Generated data must be data the spec allows; after a few tries, the spec's example is served.
    if (dynamic) {
      for (let tries = 1; tries < DYNAMIC_TRIES && !acceptable(api, method, url.pathname, result); tries++) {
        result = await answer(api, prismRequest(prefer));
      }
      if (!acceptable(api, method, url.pathname, result)) {
        result = await answer(api, prismRequest(`${prefer.replace(/dynamic=true/g, "")}, dynamic=false`));
      }
    }
    if (!("headers" in result)) {
      // The route matched already, so a refusal means the Prefer header asked for something the spec lacks.
      return send(
        reply,
        request,
        new ApiFailure("invalid_request", `Prism could not answer: ${result.detail}`, { param: "Prefer" }),
      );
    }
    if (result.status >= 200 && result.status < 300 && result.inputProblems.length > 0) {
      throw new ApiFailure("invalid_request", result.inputProblems.join("; "));
    }
    if (cacheKey !== undefined) {
      const answer = staticAnswers.remember(cacheKey, result);
      reply.code(answer.status).headers(answer.headers);
      return answer.body;
    }
    const body = url.pathname === BATCH_PATH && result.status === 200 ? batchAnswer(request.body) : result.body;
    reply.code(result.status).headers(result.headers);
    return body;
  });

  await app.ready();
  return app;
}

function acceptable(
  api: "payments" | "gateway",
  method: string,
  path: string,
  answer: PrismAnswer | PrismRefusal,
): boolean {
  if (!("headers" in answer)) return true;
  return isAcceptableAnswer(api, { method, path, status: answer.status, headers: answer.headers, body: answer.body });
}

/** Starts the mock on 127.0.0.1; `port: 0` picks a free port (tests). */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const app = await buildMock(options);
  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
  return { app, url: address.replace("localhost", "127.0.0.1"), close: () => app.close() };
}
