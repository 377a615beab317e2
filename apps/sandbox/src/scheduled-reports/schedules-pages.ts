import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { confirmed, confirmPage } from "../infrastructure/dashboard-shell/confirm.js";
import type { DashboardContext } from "../infrastructure/dashboard-shell/context.js";
import { formField, typedAgain } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime } from "../infrastructure/dashboard-shell/local-time.js";
import type { deliveryToApi, scheduleToApi } from "./schedule-routes.js";

type ScheduleView = ReturnType<typeof scheduleToApi>;
type DeliveryView = ReturnType<typeof deliveryToApi>;

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const STATUSES = ["pending", "approved", "processing", "completed", "settled", "reconciled", "cancelled", "failed"];
const METHODS = ["bank_transfer", "card", "virtual_account", "eft"];

function cadence(s: ScheduleView): string {
  return s.every === "day" ? `Daily at ${s.time}` : `${WEEKDAYS[(s.weekday ?? 1) - 1]}s at ${s.time}`;
}

function filters(s: ScheduleView): string {
  return (
    [
      ["status", s.status],
      ["method", s.method],
      ["account", s.account],
    ]
      .filter(([, value]) => value)
      .map(([name, value]) => `${name} ${value}`)
      .join(", ") || "all payments"
  );
}

/** The schedule a form describes, as the control API takes it: empty fields left out. */
function scheduleFromForm(request: FastifyRequest, paused?: boolean): Record<string, unknown> {
  const field = (name: string) => formField(request, name)?.trim() || undefined;
  const recipients = field("recipients");
  const weekday = field("weekday");
  return {
    name: formField(request, "name") ?? "",
    format: field("format") ?? "csv",
    every: field("every") ?? "day",
    time: field("time") ?? "",
    ...(field("status") ? { status: field("status") } : {}),
    ...(field("method") ? { method: field("method") } : {}),
    ...(field("account") ? { account: field("account") } : {}),
    ...(weekday && field("every") === "week" ? { weekday: Number(weekday) } : {}),
    ...(recipients ? { recipients: recipients.split(/[\n\r,;]+/) } : {}),
    ...(paused === undefined ? {} : { paused }),
  };
}

/**
 * Settings → Schedules: scheduled report delivery by hand (create, edit, pause, resume, delete, and
 * each delivery's outcome), through the control API as the signed-in workspace.
 */
export function registerSchedulesPages(dashboard: FastifyInstance, ctx: DashboardContext): void {
  const signedIn = { preHandler: ctx.requireSession };
  const token = (request: FastifyRequest) => html`<input type="hidden" name="_csrf" value="${ctx.csrf(request)}">`;
  const option = (value: string, chosen: unknown, label = value) =>
    html`<option value="${value}" ${chosen === value ? html`selected` : ""}>${label}</option>`;

  /** The workspace's accounts, for the form's choice (through the payments API as the workspace). */
  const accountsOf = async (request: FastifyRequest) =>
    (await ctx.control(request.dashboardKey, "GET", "/v1/accounts")).json() as {
      id: string;
      name: string;
      currency: string;
    }[];
  /** Whom a schedule mails: its own list, or the workspace's report recipients (followed as they change). */
  const recipientsText = (s: ScheduleView) =>
    s.recipients.length > 0 ? s.recipients.join(", ") : "the workspace's report recipients";

  function form(
    request: FastifyRequest,
    action: string,
    button: string,
    accounts: readonly { id: string; name: string; currency: string }[],
    s?: Partial<ScheduleView>,
  ): SafeHtml {
    return html`<form method="post" action="${action}" class="stacked">${token(request)}
      <label>Name <input name="name" required maxlength="100" value="${s?.name ?? ""}"></label>
      <label>Format <select name="format">${option("csv", s?.format, "CSV")}${option("pdf", s?.format, "PDF")}</select></label>
      <label>Status <select name="status"><option value="">any</option>${STATUSES.map((v) => option(v, s?.status))}</select></label>
      <label>Method <select name="method"><option value="">any</option>${METHODS.map((v) => option(v, s?.method))}</select></label>
      <label>Account <select name="account"><option value="">all accounts</option>${accounts.map((a) => option(a.id, s?.account, `${a.name} (${a.id}, ${a.currency})`))}</select></label>
      <label>Every <select name="every">${option("day", s?.every, "day")}${option("week", s?.every, "week")}</select></label>
      <label>Day of the week (weekly) <select name="weekday">${WEEKDAYS.map((day, i) => option(String(i + 1), String(s?.weekday ?? 1), day))}</select></label>
      <label>Time (Europe/Istanbul) <input name="time" type="time" required value="${s?.time ?? "09:00"}"></label>
      <label>Recipients (one per line; empty: the workspace's report recipients)
        <textarea name="recipients" rows="3">${(s?.recipients ?? []).join("\n")}</textarea></label>
      <p><button type="submit">${button}</button></p>
    </form>`;
  }

  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    notice?: SafeHtml,
    status = 200,
    entered?: Partial<ScheduleView>,
  ) {
    const schedules = (await ctx.control(request.dashboardKey, "GET", "/_sandbox/schedules")).json()
      .data as ScheduleView[];
    const rows = schedules.map(
      (
        s,
      ) => html`<tr><td><a href="${DASHBOARD}/settings/schedules/${s.id}">${s.name}</a></td><td>${s.format.toUpperCase()}</td>
        <td>${filters(s)}</td><td>${cadence(s)}</td><td>${recipientsText(s)}</td>
        <td class="status">${s.paused ? "paused" : localTime(s.next_due_at)}</td></tr>`,
    );
    return ctx.render(
      request,
      reply,
      "Schedules",
      html`${notice ?? ""}<p>At each due time on the workspace's sandbox clock, the payments created in the day or
        week just ended are e-mailed: attached when small, linked when large. Every e-mail is in the
        <a href="${DASHBOARD}/outbox">Outbox</a>.</p>
      <table aria-label="Schedules"><thead><tr><th>Name</th><th>Format</th><th>Filters</th><th>When</th><th>Recipients</th>
        <th>Next due (Istanbul)</th></tr></thead><tbody>${rows}</tbody></table>
      <section aria-labelledby="new-schedule"><h2 id="new-schedule">New schedule</h2>
      ${form(request, `${DASHBOARD}/settings/schedules`, "Create schedule", await accountsOf(request), entered)}</section>`,
      status,
    );
  }

  async function schedulePage(
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    notice?: SafeHtml,
    status = 200,
  ) {
    const answer = await ctx.control(
      request.dashboardKey,
      "GET",
      `/_sandbox/schedules/${encodeURIComponent(request.params.id)}`,
    );
    if (answer.statusCode !== 200) {
      return ctx.render(
        request,
        reply,
        "Schedule not found",
        html`<p class="error" role="alert">${answer.json().message}</p>`,
        404,
      );
    }
    const s = answer.json() as ScheduleView & { deliveries: DeliveryView[] };
    const base = `${DASHBOARD}/settings/schedules/${s.id}`;
    const rows = s.deliveries.map(
      (
        d,
      ) => html`<tr><td>${localTime(d.due_at)}</td><td>${localTime(d.period_from)} – ${localTime(d.period_to)}</td><td class="money">${d.rows}</td>
        <td class="status">${d.outcome}</td><td>${
          d.message_id ? html`<a href="${DASHBOARD}/outbox/${d.message_id}">e-mail</a>` : (d.detail ?? "")
        }</td></tr>`,
    );
    return ctx.render(
      request,
      reply,
      s.name,
      html`${notice ?? ""}<p>${cadence(s)}, ${filters(s)}, ${s.format.toUpperCase()} to ${recipientsText(s)}.
        ${s.paused ? "Paused." : html`Next due ${localTime(s.next_due_at)} (Istanbul).`}</p>
      <form method="post" action="${base}/${s.paused ? "resume" : "pause"}" class="inline">${token(request)}
        <button type="submit">${s.paused ? "Resume" : "Pause"}</button></form>
      <form method="post" action="${base}/delete" class="inline">${token(request)}
        <button type="submit" class="danger" aria-label="Delete ${s.name}">Delete</button></form>
      <h2>Deliveries</h2>
      <table aria-label="Deliveries"><thead><tr><th>Due (Istanbul)</th><th>Period (Istanbul)</th><th class="money">Payments</th>
        <th>Outcome</th><th></th></tr></thead><tbody>${rows}</tbody></table>
      <section aria-labelledby="edit"><h2 id="edit">Edit</h2>${form(request, base, "Save schedule", await accountsOf(request), s)}</section>`,
      status,
    );
  }

  dashboard.get(`${DASHBOARD}/settings/schedules`, signedIn, async (request, reply) => listPage(request, reply));

  dashboard.post(`${DASHBOARD}/settings/schedules`, signedIn, async (request, reply) => {
    const entered = scheduleFromForm(request);
    const answer = await ctx.control(request.dashboardKey, "POST", "/_sandbox/schedules", entered);
    if (answer.statusCode !== 201) {
      // What was typed stays in the form, to be corrected.
      const message = html`<p class="error" role="alert">${answer.json().message}</p>`;
      const shown = { ...entered, name: typedAgain(String(entered.name)) };
      return listPage(request, reply, message, 400, shown as Partial<ScheduleView>);
    }
    return ctx.redirect(request, reply, `${DASHBOARD}/settings/schedules`, {
      notice: `Schedule "${answer.json().name}" created.`,
    });
  });

  dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/settings/schedules/:id`, signedIn, async (request, reply) =>
    schedulePage(request, reply),
  );

  /** Saves a schedule's whole settings through the control API (its next due time starts again from now). */
  const save = async (request: FastifyRequest<{ Params: { id: string } }>, body: Record<string, unknown>) =>
    ctx.control(request.dashboardKey, "PUT", `/_sandbox/schedules/${encodeURIComponent(request.params.id)}`, body);

  dashboard.post<{ Params: { id: string } }>(
    `${DASHBOARD}/settings/schedules/:id`,
    signedIn,
    async (request, reply) => {
      const current = await ctx.control(
        request.dashboardKey,
        "GET",
        `/_sandbox/schedules/${encodeURIComponent(request.params.id)}`,
      );
      const answer = await save(request, scheduleFromForm(request, current.json().paused === true));
      if (answer.statusCode !== 200) {
        return schedulePage(request, reply, html`<p class="error" role="alert">${answer.json().message}</p>`, 400);
      }
      return ctx.redirect(request, reply, `${DASHBOARD}/settings/schedules/${encodeURIComponent(request.params.id)}`, {
        notice: "Schedule saved.",
      });
    },
  );

  for (const action of ["pause", "resume"] as const) {
    dashboard.post<{ Params: { id: string } }>(
      `${DASHBOARD}/settings/schedules/:id/${action}`,
      signedIn,
      async (request, reply) => {
        const current = (
          await ctx.control(request.dashboardKey, "GET", `/_sandbox/schedules/${encodeURIComponent(request.params.id)}`)
        ).json();
        const { id: _id, next_due_at: _next, deliveries: _deliveries, ...body } = current;
        const answer = await save(request, { ...body, paused: action === "pause" });
        const flash =
          answer.statusCode === 200
            ? { notice: action === "pause" ? "Paused." : "Resumed: it is next due at its next time from now." }
            : { error: answer.json().message };
        return ctx.redirect(
          request,
          reply,
          `${DASHBOARD}/settings/schedules/${encodeURIComponent(request.params.id)}`,
          flash,
        );
      },
    );
  }

  dashboard.post<{ Params: { id: string } }>(
    `${DASHBOARD}/settings/schedules/:id/delete`,
    signedIn,
    async (request, reply) => {
      const listPath = `${DASHBOARD}/settings/schedules`;
      if (!confirmed(request)) {
        const found = await ctx.control(
          request.dashboardKey,
          "GET",
          `/_sandbox/schedules/${encodeURIComponent(request.params.id)}`,
        );
        if (found.statusCode !== 200) return ctx.redirect(request, reply, listPath, { error: found.json().message });
        const schedule = found.json() as ScheduleView;
        return confirmPage(ctx, request, reply, {
          title: "Delete this schedule?",
          question: html`Delete the schedule "${schedule.name}" and its delivery history? No more reports are sent for it; this cannot be undone (pausing keeps it).`,
          confirm: `Yes, delete "${schedule.name}"`,
          back: `${listPath}/${encodeURIComponent(schedule.id)}`,
          backLabel: "No, keep it",
        });
      }
      const answer = await ctx.control(
        request.dashboardKey,
        "DELETE",
        `/_sandbox/schedules/${encodeURIComponent(request.params.id)}`,
      );
      const flash = answer.statusCode === 204 ? { notice: "Schedule deleted." } : { error: answer.json().message };
      return ctx.redirect(request, reply, `${DASHBOARD}/settings/schedules`, flash);
    },
  );
}
