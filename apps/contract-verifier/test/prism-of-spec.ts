import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger } from "@stoplight/prism-core";
import { createInstance, getHttpOperationsFromSpec, type IHttpConfig } from "@stoplight/prism-http";
import * as E from "fp-ts/lib/Either.js";

/**
 * Stoplight Prism's own mocker for any spec file, as `prism mock FILE` runs it: the independent
 * provider the any-spec tests hold the verifier against. Bodies are read as JSON; the verifier sends
 * nothing else.
 */
export async function startPrismOf(
  file: string,
  { dynamic = false }: { dynamic?: boolean } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const operations = await getHttpOperationsFromSpec(file);
  const config: IHttpConfig = {
    mock: { dynamic },
    checkSecurity: true,
    validateRequest: true,
    validateResponse: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  };
  const prism = createInstance(config, { logger: createLogger("prism-of-spec", { enabled: false }) });
  const server: Server = createServer((req, res) => {
    answer(req, res).catch((error: Error) => {
      // Prism itself threw (its deserialisers do on some specs): a 500 names it, the server lives on.
      res.writeHead(500, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ title: `Prism threw: ${error.message}` }));
    });
  });
  /** The body as Prism's own server hands it on: JSON parsed, anything else (a form) as its text, which Prism splits. */
  function requestBody(text: string, type: string): unknown {
    return /json/.test(type) || type === "" ? JSON.parse(text) : text;
  }
  async function answer(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://prism");
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(key);
      query[key] = values.length > 1 ? values : (values[0] as string);
    }
    const result = await prism.request(
      {
        method: (req.method ?? "get").toLowerCase() as never,
        url: { path: url.pathname, query },
        headers: req.headers as Record<string, string>,
        ...(text ? { body: requestBody(text, req.headers["content-type"] ?? "") } : {}),
      },
      operations,
    )();
    if (E.isLeft(result)) {
      const error = result.left as Error & { status?: number };
      res.writeHead(error.status ?? 500, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ title: error.message }));
      return;
    }
    const { output } = result.right;
    const body = output.body === undefined ? "" : JSON.stringify(output.body);
    const headers = Object.fromEntries(
      Object.entries(output.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    if (body && !headers["content-type"]) headers["content-type"] = "application/json";
    res.writeHead(output.statusCode, headers);
    res.end(body);
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
