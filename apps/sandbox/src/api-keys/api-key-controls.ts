import type { FastifyInstance } from "fastify";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import type { ApiKeys } from "./api-keys.js";

/** Settings → API keys, for scripted tests: the key is in the answer to its creation only. */
export function registerApiKeyControls(
  control: FastifyInstance,
  apiKeys: ApiKeys,
  { workspaceOf }: ControlContext,
): void {
  control.post("/_sandbox/api-keys", async (request, reply) => {
    const created = await apiKeys.create(workspaceOf(request, "An API key"), request.body);
    reply.code(201);
    return { ...created.view, key: created.key };
  });

  control.get("/_sandbox/api-keys", async (request) => ({
    data: await apiKeys.list(workspaceOf(request, "Listing API keys")),
  }));

  control.delete<{ Params: { id: string } }>("/_sandbox/api-keys/:id", async (request) =>
    apiKeys.revoke(workspaceOf(request, "Revoking an API key"), request.params.id),
  );
}
