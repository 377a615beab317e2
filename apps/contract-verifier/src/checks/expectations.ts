import { redactCardData } from "@payspec/server-kit";
import type { CheckRun } from "../check.js";
import type { RecordedExchange } from "../exchange.js";
import type { ApiName } from "../options.js";

/**
 * A report's words for an answer with its unreadable body's length left out. That length is not part
 * of the problem: a server's error page (WireMock's Jetty, with its stack trace) differs by a few
 * hundred bytes from one request to the next, by which of its threads took it.
 */
export const withoutBodyLength = (text: string) => text.replace(/\b\d+ bytes of /g, "bytes of ");

/**
 * What a check saw, as its violation shows it. A value read from the provider's answer may be absent
 * or of another type than the spec says (the provider is what is being checked): it is shown as such.
 */
export function shownActual(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "absent (the answer has no such field)";
  const text = JSON.stringify(value) ?? String(value);
  return redactCardData(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

function describe(reply: RecordedExchange): string {
  const body =
    reply.body === undefined
      ? `${reply.bytes.length} bytes of ${reply.contentType ?? "no content type"}`
      : JSON.stringify(reply.body);
  // What the provider answered goes into reports: a provider that leaks card data must not make us leak it.
  return redactCardData(`${reply.status} ${body.length > 300 ? `${body.slice(0, 300)}…` : body}`);
}

/** The response matches the spec: declared status, declared content type and headers, a valid body. */
export function expectConformance(run: CheckRun, api: ApiName, reply: RecordedExchange): boolean {
  const path = reply.request.path.split("?")[0] ?? "";
  const problems = run.ctx.api(api).checker.check({
    method: reply.request.method,
    path,
    status: reply.status,
    contentType: reply.contentType,
    headers: reply.headers,
    body: reply.body,
  });
  for (const problem of problems) {
    // An undeclared refusal is triaged by what the server said: a spec gap, or data the server rightly refuses.
    const actual =
      reply.status >= 400 && problem.includes(`status ${reply.status} is not declared`)
        ? `${problem}; it answered ${describe(reply)}`
        : problem;
    run.expect(false, { expected: "a response that conforms to the spec", actual, exchange: reply });
  }
  return problems.length === 0;
}

/** A successful (2xx) answer that conforms to the spec. */
export function expectSuccess(run: CheckRun, api: ApiName, reply: RecordedExchange): boolean {
  const ok = run.expect(reply.status >= 200 && reply.status < 300, {
    expected: "a 2xx answer",
    actual: describe(reply),
    exchange: reply,
  });
  return expectConformance(run, api, reply) && ok;
}

/** A declared 4xx in the API's error shape: never a 2xx, never a 5xx. */
export function expectClientError(
  run: CheckRun,
  api: ApiName,
  reply: RecordedExchange,
  status?: number | readonly number[],
  why = "an invalid request",
): boolean {
  const allowed = status === undefined ? undefined : typeof status === "number" ? [status] : status;
  const expected = allowed
    ? `${allowed.join(" or ")} in the API's error shape, for ${why}`
    : `a declared 4xx in the API's error shape, for ${why}`;
  const ok = run.expect(allowed ? allowed.includes(reply.status) : reply.status >= 400 && reply.status < 500, {
    expected,
    actual: describe(reply),
    exchange: reply,
  });
  return expectConformance(run, api, reply) && ok;
}

export { describe as describeReply };
