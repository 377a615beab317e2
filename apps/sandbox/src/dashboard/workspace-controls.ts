import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardContext } from "./context.js";
import { formField } from "./form-fields.js";
import { html } from "./html.js";
import { DASHBOARD } from "./layout.js";

/**
 * The overview's forms: the approval-workflow and settlement settings, and the sandbox controls (advance the clock,
 * reset the workspace), which go through the control API so its rules and messages are the only ones.
 */
export function registerWorkspaceControls(dashboard: FastifyInstance, ctx: DashboardContext): void {
  const post = { preHandler: ctx.requireSession };
  const refused = (request: FastifyRequest, reply: FastifyReply, message: string) =>
    ctx.render(
      request,
      reply,
      "Not done",
      html`<p class="error" role="alert">${message}</p><p><a href="${DASHBOARD}">Back to the dashboard</a></p>`,
      400,
    );

  dashboard.post(`${DASHBOARD}/settings/approval-workflow`, post, async (request, reply) => {
    const enabled = formField(request, "enabled");
    if (enabled !== "on" && enabled !== "off") return refused(request, reply, "enabled: choose on or off.");
    await ctx.deps.payments.setApprovalWorkflow(request.dashboardKey, enabled === "on");
    return reply.redirect(`${DASHBOARD}?done=workflow-${enabled}`, 303);
  });

  dashboard.post(`${DASHBOARD}/settings/settlement`, post, async (request, reply) => {
    const enabled = formField(request, "enabled");
    if (enabled !== "on" && enabled !== "off") return refused(request, reply, "enabled: choose on or off.");
    await ctx.deps.payments.setAutoSettlement(request.dashboardKey, enabled === "on");
    return reply.redirect(`${DASHBOARD}?done=settlement-${enabled}`, 303);
  });

  dashboard.post(`${DASHBOARD}/clock/advance`, post, async (request, reply) => {
    const raw = formField(request, "seconds") ?? "";
    const answer = await ctx.control(request.dashboardKey, "POST", "/_sandbox/clock/advance", {
      // A number the control API judges (positive, within the allowance); anything else it names.
      seconds: /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw,
    });
    if (answer.statusCode !== 200) return refused(request, reply, answer.json().message);
    return reply.redirect(`${DASHBOARD}?done=clock-advanced`, 303);
  });

  dashboard.post(`${DASHBOARD}/reset`, post, async (request, reply) => {
    // A reset cannot be undone: the form's box must be ticked (checked here too, not only by the browser).
    if (formField(request, "confirm") !== "yes") {
      return refused(
        request,
        reply,
        "Nothing was reset: tick the box to confirm that this workspace's data may be deleted.",
      );
    }
    const answer = await ctx.control(request.dashboardKey, "POST", "/_sandbox/reset");
    if (answer.statusCode !== 200) return refused(request, reply, answer.json().message);
    return reply.redirect(`${DASHBOARD}?done=reset`, 303);
  });
}
