import type { FastifyInstance } from "fastify";
import { type SandboxClocks, workspaceScope } from "../infrastructure/clock/clock.js";
import { istanbulMidnightAfter } from "../infrastructure/clock/istanbul-time.js";
import { confirmed } from "../infrastructure/dashboard-shell/confirm.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { formField, queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime } from "../infrastructure/dashboard-shell/local-time.js";
import { notDone } from "../infrastructure/dashboard-shell/not-done.js";
import type { WorkspaceSetting } from "../infrastructure/workspace-settings/workspace-setting.js";

export interface SettingsPageDeps {
  readonly clocks: SandboxClocks;
  /** The approval-workflow and settlement features' settings, shown and switched here. */
  readonly approvalWorkflow: WorkspaceSetting<boolean>;
  readonly autoSettlement: WorkspaceSetting<boolean>;
  readonly fourEyes: WorkspaceSetting<boolean>;
}

/** What the settings page's forms reported, by the code their redirect carries (never user text). */
const DONE: Record<string, string> = {
  "workflow-on": "Approval workflow on: dashboard payments now wait for an approver.",
  "workflow-off": "Approval workflow off: dashboard payments now go straight to processing.",
  "four-eyes-on": "Four eyes on: a payment must be approved with another API key than the one that submitted it.",
  "four-eyes-off": "Four eyes off: whoever submitted a payment may approve it.",
  "settlement-on": "Automatic settlement on: completed payments settle at 00:00 Istanbul.",
  "settlement-off": "Automatic settlement off: completed payments stay completed.",
  "clock-advanced": "Clock advanced; payments that became due have completed.",
};

/** Seconds per unit the clock form offers. */
const UNITS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3_600, days: 86_400 };

/**
 * Settings: the workspace's settings and the sandbox controls, which act on every feature of the
 * workspace at once (advance its clock, reset it). The controls go through the control API so its
 * rules and messages are the only ones.
 */
export function settingsPage(deps: SettingsPageDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const signedIn = { preHandler: ctx.requireSession };

    dashboard.get(`${DASHBOARD}/settings`, signedIn, async (request, reply) => {
      const key = request.dashboardKey;
      await ctx.catchUp(key);
      const workflow = await deps.approvalWorkflow.get(key);
      const settlement = await deps.autoSettlement.get(key);
      const fourEyes = await deps.fourEyes.get(key);
      const now = await deps.clocks.now(workspaceScope(key));
      const notice = DONE[queryField(request, "done") ?? ""];
      const token = html`<input type="hidden" name="_csrf" value="${ctx.csrf(request)}">`;
      return ctx.render(
        request,
        reply,
        "Settings",
        html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
        <section aria-labelledby="settings-heading"><h2 id="settings-heading">Workspace settings</h2>
        <form class="inline" method="post" action="${DASHBOARD}/settings/approval-workflow">${token}
          <input type="hidden" name="enabled" value="${workflow ? "off" : "on"}">
          <span>Approval workflow: <strong id="approval-workflow">${workflow ? "on" : "off"}</strong></span>
          <button type="submit">${workflow ? "Turn the approval workflow off" : "Turn the approval workflow on"}</button>
        </form>
        <form class="inline" method="post" action="${DASHBOARD}/settings/four-eyes">${token}
          <input type="hidden" name="enabled" value="${fourEyes ? "off" : "on"}">
          <span>Four eyes (approved with another API key than the submitter's): <strong id="four-eyes">${fourEyes ? "on" : "off"}</strong></span>
          <button type="submit">${fourEyes ? "Turn four eyes off" : "Turn four eyes on"}</button>
        </form>
        <form class="inline" method="post" action="${DASHBOARD}/settings/settlement">${token}
          <input type="hidden" name="enabled" value="${settlement ? "off" : "on"}">
          <span>Automatic settlement (00:00 Istanbul): <strong id="auto-settlement">${settlement ? "on" : "off"}</strong></span>
          <button type="submit">${settlement ? "Turn automatic settlement off" : "Turn automatic settlement on"}</button>
        </form></section>
        <section aria-labelledby="clock-heading"><h2 id="clock-heading">Sandbox clock</h2>
        <p>Now on the sandbox clock: ${localTime(now, "sandbox-clock")} (Istanbul). Payments, their history and
          reports follow this clock; the request log and the Outbox show real time.</p>
        <form class="inline" method="post" action="${DASHBOARD}/clock/advance">${token}
          <label>Amount <input name="amount" type="number" min="1" step="1" required></label>
          <label>Unit <select name="unit">${Object.keys(UNITS).map((unit) => html`<option value="${unit}" ${unit === "hours" ? html`selected` : ""}>${unit}</option>`)}</select></label>
          <button type="submit">Advance the clock</button>
        </form>
        <form class="inline" method="post" action="${DASHBOARD}/clock/advance">${token}
          <input type="hidden" name="to" value="cut-off">
          <button type="submit">Advance to the next settlement cut-off (00:00 Istanbul)</button>
        </form></section>
        <section aria-labelledby="reset-heading"><h2 id="reset-heading">Reset</h2>
        <form class="inline" method="post" action="${DASHBOARD}/reset">${token}
          <label><span><input type="checkbox" name="confirm" value="yes" required> Yes, delete this workspace's payments,
            keys, reports and e-mail</span></label>
          <button type="submit" class="danger">Reset this workspace</button>
        </form></section>`,
      );
    });

    dashboard.post(`${DASHBOARD}/clock/advance`, signedIn, async (request, reply) => {
      const key = request.dashboardKey;
      let seconds: number | string;
      if (formField(request, "to") === "cut-off") {
        const now = await deps.clocks.now(workspaceScope(key));
        seconds = Math.ceil((istanbulMidnightAfter(now) - now) / 1000);
      } else {
        // Whole seconds the control API judges (positive, within the allowance); anything else it names.
        const raw = formField(request, "amount") ?? formField(request, "seconds") ?? "";
        const unit = UNITS[formField(request, "unit") ?? "seconds"] ?? 1;
        seconds = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) * unit : raw;
      }
      const answer = await ctx.control(key, "POST", "/_sandbox/clock/advance", { seconds });
      if (answer.statusCode !== 200) return notDone(ctx, request, reply, answer.json().message);
      return reply.redirect(`${DASHBOARD}/settings?done=clock-advanced`, 303);
    });

    dashboard.post(`${DASHBOARD}/reset`, signedIn, async (request, reply) => {
      // A reset cannot be undone: the form's box must be ticked (checked here too, not only by the browser).
      if (!confirmed(request)) {
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
  };
}
