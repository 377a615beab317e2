import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apiOf } from "@payspec/server-kit";
import { type RunCredentials, withRunCredentials } from "./run-credentials.js";

export interface CredentialForwarder {
  readonly port: number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "host", "content-length"]);

/**
 * Stands between the official Pact verifier and the provider, on 127.0.0.1: it forwards each
 * request to the API its path belongs to, with this run's credentials in place of the consumer's
 * (see `withRunCredentials`) unless `keepsOwn` says the interaction is about those very credentials,
 * and hands the answer back unchanged. The Pact verifier can only add one
 * fixed header to every request; the two APIs and the gateway's login need more than that.
 */
export async function startCredentialForwarder(
  urls: { readonly payments: string; readonly gateway: string },
  credentials: RunCredentials,
  timeoutMs: number,
  keepsOwn: (request: { method: string; path: string; authorization: string | undefined }) => boolean = () => false,
): Promise<CredentialForwarder> {
  const server: Server = createServer(async (request, response) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const path = request.url ?? "/";
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name))
          headers[name] = Array.isArray(value) ? value.join(", ") : value;
      }
      // An interaction about a wrong credential expects its own to be refused: it keeps it.
      const own = keepsOwn({ method: request.method ?? "GET", path, authorization: headers.authorization });
      const authorization = own ? undefined : await withRunCredentials(path, headers.authorization, credentials);
      if (authorization !== undefined) headers.authorization = authorization;
      const base = apiOf(path.split("?")[0] ?? path) === "gateway" ? urls.gateway : urls.payments;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(`${base}${path}`, {
        method: request.method ?? "GET",
        headers,
        signal: AbortSignal.timeout(timeoutMs),
        ...(body ? { body } : {}),
      });
      const bytes = Buffer.from(await answer.arrayBuffer());
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name) && name !== "content-encoding") out[name] = value;
      });
      response.writeHead(answer.status, out);
      response.end(bytes);
    } catch (error) {
      response.writeHead(502, { "content-type": "text/plain" });
      response.end(`payspec-verify could not reach the provider: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
