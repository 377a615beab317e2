import { routes as gatewayRoutes } from "@payspec/card-gateway-zod";
import { routes as paymentsRoutes } from "@payspec/payments-zod";
import {
  ApiFailure,
  apiOf,
  BODY_LIMIT_BYTES,
  coerceNumbers,
  parseRequest,
  registerErrorHandling,
  registerJsonBodyParser,
  registerRequestLog,
  send,
} from "@payspec/server-kit";
import type { IHttpRequest } from "@stoplight/prism-http";
import Fastify, { type FastifyInstance } from "fastify";
import type { ZodType } from "zod";
import { assertCredentials } from "./credentials.js";
import { createPrismEngine } from "./prism-engine.js";
import { exampleDailyReport } from "./report-example.js";
import { routeMatcher } from "./route-matcher.js";

export const DEFAULT_MOCK_PORT = 4011;

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

/** Both APIs mocked by Prism behind one Fastify router, not yet listening. */
export async function buildMock(options: MockOptions = {}): Promise<FastifyInstance> {
  const answer = await createPrismEngine({ dynamic: options.dynamic ?? false });
  const match = {
    payments: routeMatcher<RouteSchemas>(paymentsRoutes),
    gateway: routeMatcher<RouteSchemas>(gatewayRoutes),
  };
  const report = await exampleDailyReport();

  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES });
  registerJsonBodyParser(app);
  registerErrorHandling(app);
  if (options.logRequests) registerRequestLog(app, options.log ?? ((line) => process.stdout.write(`${line}\n`)));

  app.all("/*", async (request, reply) => {
    const url = new URL(request.url, "http://mock.local");
    const api = apiOf(url.pathname);
    if (api === "control")
      throw new ApiFailure("not_found", "The mock has no /_sandbox control API; use the sandbox for state.");
    const matched = match[api](request.method, url.pathname);
    if (!matched) throw new ApiFailure("not_found", `No route ${request.method} ${url.pathname}.`);

    assertCredentials(url.pathname, request.headers.authorization);
    const query = coerceNumbers(Object.fromEntries(url.searchParams), NUMERIC_QUERY);
    if (matched.route.data) {
      parseRequest(matched.route.data, {
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(Object.keys(matched.params).length ? { path: matched.params } : {}),
        ...(Object.keys(query).length ? { query } : {}),
      });
    }

    const prefer = String(request.headers.prefer ?? "");
    if (url.pathname === REPORT_PATH && !/code=(?!200)/.test(prefer)) {
      const date = url.searchParams.get("date") ?? "";
      return reply
        .type(XLSX)
        .header("content-disposition", `attachment; filename="daily-transactions-${date}.xlsx"`)
        .send(report);
    }

    const result = await answer(api, {
      method: request.method.toLowerCase() as IHttpRequest["method"],
      url: { path: url.pathname, query: Object.fromEntries(url.searchParams) },
      headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
      body: request.body,
    });
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
    return reply.code(result.status).headers(result.headers).send(result.body);
  });

  await app.ready();
  return app;
}

/** Starts the mock on 127.0.0.1; `port: 0` picks a free port (tests). */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const app = await buildMock(options);
  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
  return { app, url: address.replace("localhost", "127.0.0.1"), close: () => app.close() };
}
