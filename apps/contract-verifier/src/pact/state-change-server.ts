import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type StateSetup, setUpState } from "./sandbox-provider-states.js";

export interface StateChangeServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The sandbox's provider-state catalogue behind Pact's state-change protocol, on 127.0.0.1: the
 * official verifier posts `{state, params, action}` before each interaction; a setup answers with
 * what the state gives (its JSON fills `fromProviderState` expressions), a teardown with nothing.
 * A state the catalogue lacks is a 400 whose message lists the catalogue.
 */
export async function startStateChangeServer(setup: StateSetup): Promise<StateChangeServer> {
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    try {
      const change = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
        state?: string;
        params?: Record<string, unknown>;
        action?: string;
      };
      if (change.action === "teardown" || !change.state) return answer(200, {});
      answer(200, await setUpState(setup, change.state, change.params ?? {}));
    } catch (error) {
      answer(400, { error: (error as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
