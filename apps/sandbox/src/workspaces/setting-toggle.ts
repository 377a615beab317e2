import type { FastifyInstance } from "fastify";
import type { DashboardContext } from "../infrastructure/dashboard-shell/context.js";
import { formField } from "../infrastructure/dashboard-shell/form-fields.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { notDone } from "../infrastructure/dashboard-shell/not-done.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { WorkspaceSetting } from "./workspace-setting.js";

/**
 * The overview's on/off form for one setting: `POST <dashboard>/settings/<path>` with `enabled=on|off`,
 * back to the overview with `?done=<done>-on|off`.
 */
export function registerSettingToggle(
  dashboard: FastifyInstance,
  ctx: DashboardContext,
  {
    path,
    setting,
    done,
  }: { readonly path: string; readonly setting: WorkspaceSetting<boolean>; readonly done: string },
): void {
  dashboard.post(`${DASHBOARD}/settings/${path}`, { preHandler: ctx.requireSession }, async (request, reply) => {
    const enabled = formField(request, "enabled");
    if (enabled !== "on" && enabled !== "off")
      return notDone(ctx, request, reply, t("Choose on or off.", "Açık ya da kapalı seçin."));
    await setting.set(request.dashboardKey, enabled === "on");
    return reply.redirect(`${DASHBOARD}/settings?done=${done}-${enabled}`, 303);
  });
}
