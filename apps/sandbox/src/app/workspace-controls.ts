import type { FastifyInstance } from "fastify";
import type { DashboardContext } from "../infrastructure/dashboard-shell/context.js";
import { formField } from "../infrastructure/dashboard-shell/form-fields.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { notDone } from "../infrastructure/dashboard-shell/not-done.js";

/**
 * The overview's sandbox controls, which act on every feature of the workspace at once (advance its
 * clock, reset it): they go through the control API so its rules and messages are the only ones.
 */
export function registerWorkspaceControls(dashboard: FastifyInstance, ctx: DashboardContext): void {
  const post = { preHandler: ctx.requireSession };

  dashboard.post(`${DASHBOARD}/clock/advance`, post, async (request, reply) => {
    const raw = formField(request, "seconds") ?? "";
    const answer = await ctx.control(request.dashboardKey, "POST", "/_sandbox/clock/advance", {
      // A number the control API judges (positive, within the allowance); anything else it names.
      seconds: /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw,
    });
    if (answer.statusCode !== 200) return notDone(ctx, request, reply, answer.json().message);
    return reply.redirect(`${DASHBOARD}?done=clock-advanced`, 303);
  });

  dashboard.post(`${DASHBOARD}/reset`, post, async (request, reply) => {
    // A reset cannot be undone: the form's box must be ticked (checked here too, not only by the browser).
    if (formField(request, "confirm") !== "yes") {
      return notDone(
        ctx,
        request,
        reply,
        "Nothing was reset: tick the box to confirm that this workspace's data may be deleted.",
      );
    }
    const answer = await ctx.control(request.dashboardKey, "POST", "/_sandbox/reset");
    if (answer.statusCode !== 200) return notDone(ctx, request, reply, answer.json().message);
    return reply.redirect(`${DASHBOARD}?done=reset`, 303);
  });
}
