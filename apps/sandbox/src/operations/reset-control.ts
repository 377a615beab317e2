import type { FastifyInstance } from "fastify";
import type { SandboxClocks } from "../clock/index.js";
import type { DeclaredFaults } from "../faults/index.js";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";

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
