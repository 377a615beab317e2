import type { FastifyInstance } from "fastify";
import { type ApiKeys, UNKNOWN_KEY } from "../api-keys/index.js";
import type { SandboxClocks } from "../clock/index.js";
import type { DeclaredFaults } from "../faults/index.js";
import { type GatewayStore, isLiveToken } from "../gateway/index.js";
import type { ControlAuthenticator } from "../infrastructure/control-api/control-api.js";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";

/** Who a control call acts for: a workspace's live API key, or a live gateway access token. */
export function controlAuthenticator(
  apiKeys: ApiKeys,
  gateway: GatewayStore,
  clocks: SandboxClocks,
  /** Who acts with a key, as histories record it (never the key). */
  signerOf: (key: string) => string,
): ControlAuthenticator {
  return async (credential) => {
    const workspace = await apiKeys.authenticate(credential);
    if (workspace.ok) return { kind: "workspace", apiKey: workspace.workspace, signer: signerOf(credential) };
    if (await isLiveToken(gateway, clocks, credential)) return { kind: "gateway" };
    if (workspace.message !== UNKNOWN_KEY) return { refused: workspace.message };
    return {
      refused:
        "Send a workspace's API key or a gateway access token as 'Authorization: Bearer <credential>'; the control API acts on that workspace or on the gateway only.",
    };
  };
}

export interface ResetDeps {
  readonly clocks: SandboxClocks;
  readonly faults: DeclaredFaults | undefined;
  /** Every feature's part of one workspace back to how the sandbox starts it. */
  readonly resetWorkspace: (apiKey: string) => Promise<void>;
  /** The gateway's card payments cleared (tokens kept), its dashboard sessions ended. */
  readonly resetGateway: () => Promise<void>;
}

/** `POST /_sandbox/reset`: the caller's workspace (or the gateway) as new, its clock and faults too. */
export function registerResetControl(control: FastifyInstance, deps: ResetDeps, ctx: ControlContext): void {
  control.post("/_sandbox/reset", async (request) => {
    const scope = ctx.scopeOf(request);
    await deps.clocks.reset(ctx.clockScopeOf(request));
    // A reset is a new workspace (or gateway): its faults go with it.
    deps.faults?.clear(ctx.clockScopeOf(request));
    if (scope.kind === "workspace") await deps.resetWorkspace(scope.apiKey);
    else await deps.resetGateway();
    return { reset: scope.kind, now: new Date(await deps.clocks.now(ctx.clockScopeOf(request))).toISOString() };
  });
}
