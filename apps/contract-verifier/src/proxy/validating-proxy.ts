import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { redactCardData } from "@payspec/server-kit";
import { cardGatewaySpec, createResponseChecker, paymentsAccountsSpec, type ResponseChecker } from "@payspec/specs";
import type { CheckResult, Violation } from "../check.js";
import type { ApiName } from "../options.js";
import { curlFor } from "../reproduction.js";
import { cardDataFindings, cardDataIn } from "../sensitive-data.js";

export interface ValidatingProxyOptions {
  /** Port on 127.0.0.1 (0: a free one). */
  readonly port: number;
  readonly host?: string;
  /** Where the provider is; both payspec APIs, or the one API of `spec`. */
  readonly upstream: string;
  /** Any spec to check against instead of the two payspec specs (already loaded). */
  readonly spec?: object;
  /** Called once per violation, as it is seen. */
  readonly onViolation?: (violation: Violation) => void;
}

export interface ValidatingProxy {
  readonly url: string;
  /** What was seen so far: one result per operation that had traffic, plus the card-data rule. */
  results(): CheckResult[];
  close(): Promise<void>;
}

interface Checked {
  readonly api: ApiName;
  readonly checker: ResponseChecker;
}

// Headers a reproduction does not need: every HTTP client sends its own.
const CLIENT_NOISE = new Set(["accept", "accept-encoding", "accept-language", "user-agent", "sec-fetch-mode"]);

// Hop-by-hop headers belong to each connection; everything else passes through as sent.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te"]);

function decoded(bytes: Buffer, encoding: string | undefined): Buffer {
  try {
    if (encoding === "gzip") return gunzipSync(bytes);
    if (encoding === "br") return brotliDecompressSync(bytes);
    if (encoding === "deflate") return inflateSync(bytes);
  } catch {
    return Buffer.alloc(0);
  }
  return bytes;
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A validating proxy for live traffic: forwards every request to the upstream byte for byte and its
 * answer back byte for byte (status, headers, body), and checks each exchange on the side: the
 * answer conforms to the spec (status, content type, headers, body, error shape), and holds no card
 * data. Unlike Prism's proxy it never answers for the provider: a malformed body or a missing
 * credential reaches the provider, and the application sees the provider's own answer.
 */
export async function startValidatingProxy(options: ValidatingProxyOptions): Promise<ValidatingProxy> {
  const target = new URL(options.upstream);
  const apis: Checked[] = options.spec
    ? [{ api: "openapi", checker: createResponseChecker(options.spec) }]
    : [
        { api: "payments", checker: createResponseChecker(paymentsAccountsSpec) },
        { api: "gateway", checker: createResponseChecker(cardGatewaySpec) },
      ];
  const sent = { cardNumbers: new Set<string>(), cvcs: new Set<string>() };
  const byOperation = new Map<string, { api: ApiName; exchanges: number; violations: Violation[] }>();
  const leaks: Violation[] = [];
  let scanned = 0;

  const record = (key: string, api: ApiName, violation?: Violation) => {
    const entry = byOperation.get(key) ?? { api, exchanges: 0, violations: [] };
    if (violation) {
      entry.violations.push(violation);
      options.onViolation?.(violation);
    } else entry.exchanges++;
    byOperation.set(key, entry);
  };

  function judge(
    req: IncomingMessage,
    requestBody: Buffer,
    status: number,
    headers: IncomingMessage["headers"],
    raw: Buffer,
  ) {
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const found = apis.map((a) => ({ ...a, operation: a.checker.operationFor(method, path) })).find((a) => a.operation);
    if (!found?.operation) return; // not an operation of the spec (the sandbox's /_sandbox, say)
    const key = `proxy.${found.operation.operationId}`;
    record(key, found.api);
    let requestJson: unknown;
    try {
      requestJson = requestBody.length ? JSON.parse(requestBody.toString("utf8")) : undefined;
    } catch {
      requestJson = undefined;
    }
    cardDataIn(requestJson, sent);
    const flatHeaders = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : String(value)]),
    );
    const contentType = flatHeaders["content-type"] ?? null;
    const bytes = decoded(raw, flatHeaders["content-encoding"]);
    const text = !contentType || /json|text|xml|html/.test(contentType) ? bytes.toString("utf8") : "";
    let json: unknown;
    if (contentType?.includes("json")) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const sentRequest = {
      method,
      path: redactCardData(req.url ?? "/"),
      headers: Object.fromEntries(
        Object.entries(req.headers)
          .filter(
            ([name]) =>
              !HOP_BY_HOP.has(name) && !CLIENT_NOISE.has(name) && name !== "host" && name !== "content-length",
          )
          .map(([name, value]) => [
            name,
            name === "authorization" ? `${String(value).split(" ")[0]} ***` : String(value),
          ]),
      ),
      ...(requestBody.length ? { body: redactCardData(requestBody.toString("utf8")).slice(0, 2000) } : {}),
    };
    const violation = (check: string, expected: string, actual: string): Violation => ({
      check,
      operation: `${method} ${found.operation?.template}`,
      request: sentRequest,
      expected,
      actual,
      reproduce: curlFor(sentRequest, options.upstream.replace(/\/+$/, ""), found.api),
    });
    const problems = found.checker.check({ method, path, status, contentType, headers: flatHeaders, body: json });
    for (const problem of problems)
      record(key, found.api, violation(key, "an answer that conforms to the spec", problem));
    scanned++;
    const findings = cardDataFindings({ text, json, headers: flatHeaders }, sent);
    if (findings.length > 0) {
      const leak = violation("sensitive.card-data", "no card number or CVC in any answer", findings.join("; "));
      leaks.push(leak);
      options.onViolation?.(leak);
    }
  }

  const server: Server = createServer(async (req, res) => {
    const requestBody = await readAll(req);
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: target.host };
    for (const name of HOP_BY_HOP) delete headers[name];
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    let failed = false;
    // The provider failed mid-exchange. Before its answer began, the application gets a 502 (the one
    // answer the proxy makes itself); after, the connection is cut as the provider cut it, with
    // nothing added. Either way the report says so.
    const upstreamFailed = (error: Error, answerStarted: boolean) => {
      if (failed) return;
      failed = true;
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`payspec-verify proxy: the upstream ${target.origin} did not answer (${error.message})\n`);
      } else res.destroy();
      record("proxy.upstream", "openapi", {
        check: "proxy.upstream",
        operation: `${req.method} ${(req.url ?? "/").split("?")[0]}`,
        expected: answerStarted ? `a whole answer from ${target.origin}` : `an answer from ${target.origin}`,
        actual: answerStarted ? `the answer was cut short: ${error.message}` : error.message,
      });
    };
    const upstream = send(
      new URL(req.url ?? "/", target),
      { method: req.method, headers: { ...headers, "content-length": String(requestBody.length) } },
      async (answer) => {
        const responseHeaders: string[] = [];
        for (let i = 0; i < answer.rawHeaders.length; i += 2) {
          const name = answer.rawHeaders[i] as string;
          if (!HOP_BY_HOP.has(name.toLowerCase())) responseHeaders.push(name, answer.rawHeaders[i + 1] as string);
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, responseHeaders);
        const chunks: Buffer[] = [];
        try {
          for await (const chunk of answer) {
            chunks.push(chunk as Buffer);
            res.write(chunk);
          }
        } catch (error) {
          return upstreamFailed(error as Error, true);
        }
        if (!answer.complete) return upstreamFailed(new Error("the connection closed before the body ended"), true);
        res.end();
        judge(req, requestBody, answer.statusCode ?? 0, answer.headers, Buffer.concat(chunks));
      },
    );
    upstream.on("error", (error) => upstreamFailed(error, res.headersSent));
    upstream.end(requestBody);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    results() {
      const results: CheckResult[] = [...byOperation.entries()].map(([id, entry]) => ({
        id,
        title: `${id.replace("proxy.", "")}: every answer that passed through conforms to the spec`,
        api: entry.api,
        profile: "schema",
        status: entry.violations.length > 0 ? "failed" : "passed",
        violations: entry.violations,
        requests: entry.exchanges,
        durationMs: 0,
        medianResponseMs: 0,
      }));
      results.push({
        id: "sensitive.card-data",
        title: `no answer that passed through (${scanned} read) holds a full card number or a CVC`,
        api: options.spec ? "openapi" : "gateway",
        profile: "schema",
        status: leaks.length > 0 ? "failed" : "passed",
        violations: leaks,
        requests: 0,
        durationMs: 0,
        medianResponseMs: 0,
      });
      return results;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
