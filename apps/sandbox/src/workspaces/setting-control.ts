import { parseRequest } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import type { WorkspaceSetting } from "./workspace-setting.js";

const enabledSetting = z.object({ body: z.strictObject({ enabled: z.boolean() }) });

/** `PUT /_sandbox/settings/<path>` with `{"enabled": true|false}`: one on/off setting of the caller's workspace. */
export function registerSettingControl(
  control: FastifyInstance,
  ctx: ControlContext,
  {
    path,
    setting,
    what,
  }: { readonly path: string; readonly setting: WorkspaceSetting<boolean>; readonly what: string },
): void {
  control.put(`/_sandbox/settings/${path}`, async (request) => {
    const { body } = parseRequest(enabledSetting, { body: request.body });
    await setting.set(ctx.workspaceOf(request, what), body.enabled);
    return { enabled: body.enabled };
  });
}
