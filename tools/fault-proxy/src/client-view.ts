import { request as httpRequest } from "node:http";

/** What a client saw of one exchange, at the HTTP level: an answer, a reset, a cut body, or nothing in time. */
export interface ClientView {
  readonly outcome: "answer" | "reset" | "cut" | "timeout";
  readonly status?: number;
  readonly headers?: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly ms: number;
}

export interface ClientViewRequest {
  readonly method: string;
  readonly headers?: Record<string, string>;
  /** Sent as JSON, with its Content-Type. */
  readonly json?: unknown;
  /** The client gives up after this long: a stalled answer ends as "timeout". */
  readonly timeoutMs?: number;
}

/**
 * Sends one request over node:http and reports what a client would see, telling a reset before any
 * answer from an answer cut short: fetch folds both into one "fetch failed", and a test of faults
 * needs the difference.
 */
export function clientView(
  url: string,
  { method, headers = {}, json, timeoutMs = 3_000 }: ClientViewRequest,
): Promise<ClientView> {
  const started = Date.now();
  return new Promise((resolve) => {
    let status: number | undefined;
    let answerHeaders: ClientView["headers"];
    let body = "";
    let settled = false;
    const done = (outcome: ClientView["outcome"]) => {
      if (settled) return;
      settled = true;
      resolve({
        outcome,
        ...(status === undefined ? {} : { status, headers: answerHeaders }),
        body,
        ms: Date.now() - started,
      });
      req.destroy();
    };
    const req = httpRequest(url, {
      method,
      headers: { ...headers, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    });
    req.setTimeout(timeoutMs, () => done("timeout"));
    req.on("error", (error: NodeJS.ErrnoException) =>
      done(error.code === "ECONNRESET" && status === undefined ? "reset" : "cut"),
    );
    req.on("response", (res) => {
      status = res.statusCode;
      answerHeaders = res.headers;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => done(res.complete ? "answer" : "cut"));
      res.on("aborted", () => done("cut"));
      res.on("error", () => done("cut"));
    });
    req.end(json === undefined ? undefined : JSON.stringify(json));
  });
}
