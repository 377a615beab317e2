import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// biome-ignore lint/suspicious/noExplicitAny: faults reach into whatever JSON the target sent
type TargetJson = any;

/** What the proxy sees of a request when deciding whether a fault applies. */
export interface ProxiedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body as text ("" when there is none). */
  readonly body: string;
}

export type Fault =
  /** Answer with this status and body instead of forwarding (the target never sees the request). */
  | {
      readonly kind: "respond";
      readonly status: number;
      readonly body?: unknown;
      readonly headers?: Record<string, string>;
    }
  /** Forward, but hold the answer back this long (for client timeouts). */
  | { readonly kind: "delay"; readonly ms: number }
  /** Forward, then rewrite the JSON body of the answer. */
  | {
      readonly kind: "rewrite";
      readonly rewrite: (body: TargetJson, request: ProxiedRequest) => unknown;
      readonly status?: number;
    }
  /** Forward, then replace status and JSON body together (a refusal turned into a success, say). */
  | {
      readonly kind: "replace";
      readonly replace: (
        answer: { status: number; body: TargetJson },
        request: ProxiedRequest,
      ) => { status: number; body: unknown };
    }
  /** Forward, then replace the answer's headers (for wrong content types and similar). */
  | { readonly kind: "headers"; readonly headers: Record<string, string> }
  /** Forward, then replace a binary answer's bytes. */
  | { readonly kind: "replaceBytes"; readonly replace: (bytes: Buffer) => Buffer | Promise<Buffer> }
  /**
   * Forward, then send the status, the headers (with the full Content-Length) and only the first
   * `afterBytes` of the body; then reset the connection, or with `stall` keep it open and silent.
   */
  | { readonly kind: "cut"; readonly afterBytes: number; readonly stall?: boolean };

export interface FaultRule {
  readonly when: (request: ProxiedRequest) => boolean;
  readonly fault: Fault;
  /** How many matching requests it applies to; unlimited when absent. */
  times?: number;
}

export interface FaultProxy {
  readonly url: string;
  /** Every request the proxy received, in order. */
  readonly seen: ProxiedRequest[];
  inject(rule: FaultRule): void;
  clear(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "host",
  "content-encoding",
]);

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function forwardHeaders(headers: IncomingMessage["headers"]): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    out.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return out;
}

function send(res: ServerResponse, status: number, headers: Headers | Record<string, string>, body: Buffer): void {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) if (!HOP_BY_HOP.has(name.toLowerCase())) res.setHeader(name, value);
  res.setHeader("content-length", body.length);
  res.writeHead(status).end(body);
}

/** Starts a proxy on 127.0.0.1 (a free port) that forwards to `target` unless a rule says otherwise. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const rules: FaultRule[] = [];
  const seen: ProxiedRequest[] = [];

  const take = (request: ProxiedRequest): Fault | undefined => {
    const rule = rules.find((r) => (r.times === undefined || r.times > 0) && r.when(request));
    if (!rule) return undefined;
    if (rule.times !== undefined) rule.times--;
    return rule.fault;
  };

  const server: Server = createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      const request: ProxiedRequest = {
        method: req.method ?? "GET",
        url: req.url ?? "/",
        headers: req.headers,
        body: body.toString("utf8"),
      };
      seen.push(request);
      const fault = take(request);
      if (fault?.kind === "respond") {
        const payload = Buffer.from(fault.body === undefined ? "" : JSON.stringify(fault.body));
        send(res, fault.status, { "content-type": "application/json", ...fault.headers }, payload);
        return;
      }
      const upstream = await fetch(new URL(request.url, target), {
        method: request.method,
        headers: forwardHeaders(req.headers),
        ...(body.length > 0 ? { body } : {}),
      });
      let bytes: Buffer = Buffer.from(await upstream.arrayBuffer());
      let status = upstream.status;
      const headers = new Headers(upstream.headers);
      if (fault?.kind === "delay") await new Promise((resolve) => setTimeout(resolve, fault.ms));
      if (fault?.kind === "rewrite") {
        bytes = Buffer.from(JSON.stringify(fault.rewrite(JSON.parse(bytes.toString("utf8")), request)));
        status = fault.status ?? status;
      }
      if (fault?.kind === "replace") {
        const replaced = fault.replace(
          { status, body: bytes.length ? JSON.parse(bytes.toString("utf8")) : undefined },
          request,
        );
        status = replaced.status;
        bytes = Buffer.from(JSON.stringify(replaced.body));
        headers.set("content-type", "application/json");
      }
      if (fault?.kind === "headers")
        for (const [name, value] of Object.entries(fault.headers)) headers.set(name, value);
      if (fault?.kind === "replaceBytes") bytes = await fault.replace(bytes);
      if (fault?.kind === "cut") {
        for (const [name, value] of headers) if (!HOP_BY_HOP.has(name)) res.setHeader(name, value);
        res.setHeader("content-length", bytes.length);
        res.writeHead(status).write(bytes.subarray(0, fault.afterBytes));
        if (!fault.stall) setTimeout(() => res.destroy(), 10);
        return;
      }
      if (!res.destroyed) send(res, status, headers, bytes);
    } catch (error) {
      if (!res.headersSent)
        send(res, 502, { "content-type": "text/plain" }, Buffer.from(`fault proxy: ${(error as Error).message}`));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    inject: (rule) => rules.push(rule),
    clear: () => {
      rules.length = 0;
      seen.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
