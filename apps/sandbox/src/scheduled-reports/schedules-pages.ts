import { zPaymentMethod } from "@payspec/payments-zod";
import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { confirmableAction, confirmed, confirmPage } from "../infrastructure/dashboard-shell/confirm.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { csrfField } from "../infrastructure/dashboard-shell/csrf-field.js";
import {
  errorSummary,
  type FormProblems,
  fieldAttributes,
  fieldError,
  problemsOfRefusal,
} from "../infrastructure/dashboard-shell/error-summary.js";
import { formField, typedAgain } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD, statusBadge } from "../infrastructure/dashboard-shell/layout.js";
import { clockNote, localTime, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { t } from "../infrastructure/i18n/locale.js";
import { methodWord } from "../infrastructure/i18n/method-words.js";
import { statusWord } from "../infrastructure/i18n/status-words.js";
import { filterWords, type NamedAccount } from "../payments/index.js";
import type { ReportSchedules } from "./report-schedules.js";
import { scheduleToApi, scheduleWithDeliveries } from "./schedule-controls.js";
import { weekdayName, weekdayNames } from "./weekday-names.js";

type ScheduleView = ReturnType<typeof scheduleToApi>;

/** What became of a delivery, in words. */
const OUTCOMES: Readonly<Record<string, readonly [en: string, tr: string]>> = {
  attached: ["attached", "ekli gönderildi"],
  linked: ["linked", "bağlantıyla gönderildi"],
  skipped: ["skipped", "atlandı"],
};
const STATUSES = ["pending", "approved", "processing", "completed", "settled", "reconciled", "cancelled", "failed"];
/** The API's payment methods, in the order the payments overview's filter lists them. */
const METHODS = zPaymentMethod.options;
/** The form's boxes, by their names (the control API's fields). */
const BOXES = ["name", "format", "status", "method", "account", "every", "weekday", "time", "recipients"] as const;

function cadence(s: ScheduleView): string {
  const day = weekdayName(s.weekday);
  return s.every === "day"
    ? t(`Daily at ${s.time}`, `Her gün ${s.time}`)
    : t(`${day}s at ${s.time}`, `Her ${day} ${s.time}`);
}

function filters(s: ScheduleView, accounts: readonly NamedAccount[]): string {
  return (
    filterWords({ status: s.status, method: s.method, account: s.account }, accounts) ||
    t("all payments", "tüm ödemeler")
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

/** What the pages act on: the schedules (the control API's rules and messages) and the dashboard. */
interface SchedulesView {
  readonly schedules: ReportSchedules;
  readonly ctx: DashboardContext;
}

const option = (value: string, chosen: unknown, label = value) =>
  html`<option value="${value}" ${chosen === value ? html`selected` : ""}>${label}</option>`;

/** A refusal's message, or the error again when it is not a refusal. */
function refusal(error: unknown): ApiFailure {
  if (error instanceof ApiFailure) return error;
  throw error;
}

/** Whom a schedule mails: its own list, or the workspace's report recipients (followed as they change). */
const recipientsText = (s: ScheduleView) =>
  s.recipients.length > 0
    ? s.recipients.join(", ")
    : t("the workspace's report recipients", "çalışma alanının rapor alıcıları");

/** The form's boxes, in order, as they are labelled: what the error summary names. */
const labels = (): Record<(typeof BOXES)[number], string> => ({
  name: t("Name", "Ad"),
  format: t("Format", "Biçim"),
  status: t("Status", "Durum"),
  method: t("Method", "Yöntem"),
  account: t("Account", "Hesap"),
  every: t("Every", "Sıklık"),
  weekday: t("Day of the week", "Haftanın günü"),
  time: t("Time", "Saat"),
  recipients: t("Recipients", "Alıcılar"),
});

function form(
  ctx: DashboardContext,
  request: FastifyRequest,
  action: string,
  button: string,
  accounts: readonly { id: string; name: string; currency: string }[],
  s?: Partial<ScheduleView>,
  problems: FormProblems = {},
): SafeHtml {
  const box = (name: string) => fieldAttributes(problems, name);
  const error = (name: string) => fieldError(problems, name);
  return html`${errorSummary(problems, labels())}<form method="post" action="${action}" class="stacked" novalidate>${csrfField(ctx, request)}
    <label>${t("Name", "Ad")} <input name="name" required maxlength="100" value="${s?.name ?? ""}" ${box("name")}>${error("name")}</label>
    <label>${t("Format", "Biçim")} <select name="format" ${box("format")}>${option("csv", s?.format, "CSV")}${option("pdf", s?.format, "PDF")}</select>${error("format")}</label>
    <label>${t("Status", "Durum")} <select name="status" ${box("status")}><option value="">${t("any", "tümü")}</option>${STATUSES.map((v) => option(v, s?.status, statusWord(v)))}</select>${error("status")}</label>
    <label>${t("Method", "Yöntem")} <select name="method" ${box("method")}><option value="">${t("any", "tümü")}</option>${METHODS.map((v) => option(v, s?.method, methodWord(v)))}</select>${error("method")}</label>
    <label>${t("Account", "Hesap")} <select name="account" ${box("account")}><option value="">${t("all accounts", "tüm hesaplar")}</option>${accounts.map((a) => option(a.id, s?.account, `${a.name} (${a.id}, ${a.currency})`))}</select>${error("account")}</label>
    <label>${t("Every", "Sıklık")} <select name="every" ${box("every")}>${option("day", s?.every, t("day", "her gün"))}${option("week", s?.every, t("week", "her hafta"))}</select>${error("every")}</label>
    <label>${t("Day of the week (weekly)", "Haftanın günü (haftalık)")} <select name="weekday" ${box("weekday")}>${weekdayNames().map((day, i) => option(String(i + 1), String(s?.weekday ?? 1), day))}</select>${error("weekday")}</label>
    <label>${t("Time (Europe/Istanbul)", "Saat (İstanbul)")} <input name="time" type="time" required value="${s?.time ?? "09:00"}" ${box("time")}>${error("time")}</label>
    <label>${t("Recipients (one per line; empty: the workspace's report recipients)", "Alıcılar (her satıra bir tane; boş: çalışma alanının rapor alıcıları)")}
      <textarea name="recipients" rows="3" ${box("recipients")}>${(s?.recipients ?? []).join("\n")}</textarea>${error("recipients")}</label>
    <p><button type="submit">${button}</button></p>
  </form>`;
}

async function listPage(
  { schedules, ctx }: SchedulesView,
  request: FastifyRequest,
  reply: FastifyReply,
  notice?: SafeHtml,
  status = 200,
  entered?: Partial<ScheduleView>,
  problems: FormProblems = {},
) {
  const listed = (await schedules.list(request.dashboardKey)).map(scheduleToApi);
  const accounts = await schedules.accounts(request.dashboardKey);
  const rows = listed.map(
    (
      s,
    ) => html`<tr><td><a href="${DASHBOARD}/settings/schedules/${s.id}">${s.name}</a></td><td>${s.format.toUpperCase()}</td>
      <td>${filters(s, accounts)}</td><td>${cadence(s)}</td><td>${recipientsText(s)}</td>
      <td class="status">${s.paused ? statusBadge("paused") : localTime(s.next_due_at)}</td></tr>`,
  );
  return ctx.render(
    request,
    reply,
    t("Schedules", "Zamanlanmış raporlar"),
    html`${notice ?? ""}<p>${t(
      "At each due time on the workspace's sandbox clock, the payments created in the day or week just ended are e-mailed: attached when small, linked when large. Every e-mail is in the",
      "Çalışma alanının sandbox saatinde her gönderim zamanı geldiğinde, biten gün ya da haftada oluşturulan ödemeler e-postayla gönderilir: küçükse ekte, büyükse bağlantıyla. Her e-posta şurada:",
    )} <a href="${DASHBOARD}/outbox">${t("Outbox", "Giden kutusu")}</a>.</p>
    <table aria-label="${t("Schedules", "Zamanlanmış raporlar")}"><thead><tr><th>${t("Name", "Ad")}</th><th>${t("Format", "Biçim")}</th><th>${t("Filters", "Filtreler")}</th><th>${t("When", "Ne zaman")}</th><th>${t("Recipients", "Alıcılar")}</th>
      <th>${timeHeading("Next due", "Sonraki gönderim", "sandbox")}</th></tr></thead><tbody>${
        rows.length > 0
          ? rows
          : html`<tr><td colspan="6">${t("No schedules yet: create one below.", "Henüz zamanlanmış rapor yok: aşağıdan oluşturun.")}</td></tr>`
      }</tbody></table>
    <section aria-labelledby="new-schedule"><h2 id="new-schedule">${t("New schedule", "Yeni zamanlanmış rapor")}</h2>
    ${form(ctx, request, `${DASHBOARD}/settings/schedules`, t("Create schedule", "Oluştur"), accounts, entered, problems)}</section>`,
    status,
  );
}

async function schedulePage(
  { schedules, ctx }: SchedulesView,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
  notice?: SafeHtml,
  status = 200,
  /** A refused edit: what was typed, and what is wrong with it. */
  refused?: { readonly entered: Partial<ScheduleView>; readonly problems: FormProblems },
) {
  let s: Awaited<ReturnType<typeof scheduleWithDeliveries>>;
  try {
    s = await scheduleWithDeliveries(schedules, request.dashboardKey, request.params.id);
  } catch (error) {
    return ctx.render(
      request,
      reply,
      t("Schedule not found", "Zamanlanmış rapor bulunamadı"),
      html`<p class="error" role="alert">${refusal(error).message}</p>`,
      404,
    );
  }
  const accounts = await schedules.accounts(request.dashboardKey);
  const base = `${DASHBOARD}/settings/schedules/${s.id}`;
  const rows = s.deliveries.map(
    (
      d,
    ) => html`<tr><td>${localTime(d.due_at)}</td><td>${localTime(d.period_from)} – ${localTime(d.period_to)}</td><td class="money">${d.rows}</td>
      <td class="status">${OUTCOMES[d.outcome] ? t(...(OUTCOMES[d.outcome] as [string, string])) : d.outcome}</td><td>${
        d.message_id
          ? html`<a href="${DASHBOARD}/outbox/${d.message_id}">${t("e-mail", "e-posta")}</a>`
          : (d.detail ?? "")
      }</td></tr>`,
  );
  return ctx.render(
    request,
    reply,
    s.name,
    html`${notice ?? ""}<p>${cadence(s)}, ${filters(s, accounts)}, ${s.format.toUpperCase()} ${t("to", "→")} ${recipientsText(s)}.
      ${s.paused ? t("Paused.", "Duraklatıldı.") : html`${t("Next due", "Sonraki gönderim")} ${localTime(s.next_due_at)} (${clockNote("sandbox")}).`}</p>
    <form method="post" action="${base}/${s.paused ? "resume" : "pause"}" class="inline">${csrfField(ctx, request)}
      <button type="submit">${s.paused ? t("Resume", "Sürdür") : t("Pause", "Duraklat")}</button></form>
    <form method="post" action="${base}/delete" class="inline">${csrfField(ctx, request)}
      <button type="submit" class="danger" aria-label="${t("Delete", "Sil:")} ${s.name}">${t("Delete", "Sil")}</button></form>
    <h2>${t("Deliveries", "Gönderimler")}</h2>
    <table aria-label="${t("Deliveries", "Gönderimler")}"><thead><tr><th>${timeHeading("Due", "Gönderim zamanı", "sandbox")}</th><th>${timeHeading("Period", "Dönem", "sandbox")}</th><th class="money">${t("Payments", "Ödemeler")}</th>
      <th>${t("Outcome", "Sonuç")}</th><th></th></tr></thead><tbody>${
        rows.length > 0
          ? rows
          : html`<tr><td colspan="5">${t("Nothing delivered yet.", "Henüz gönderim yok.")}</td></tr>`
      }</tbody></table>
    <section aria-labelledby="edit"><h2 id="edit">${t("Edit", "Düzenle")}</h2>${form(ctx, request, base, t("Save schedule", "Kaydet"), accounts, refused?.entered ?? s, refused?.problems)}</section>`,
    status,
  );
}

/** The list and its new-schedule form: a refused create keeps what was typed, every problem at once. */
function registerListRoutes(dashboard: FastifyInstance, view: SchedulesView): void {
  const { schedules, ctx } = view;
  const signedIn = { preHandler: ctx.requireSession };
  dashboard.get(`${DASHBOARD}/settings/schedules`, signedIn, async (request, reply) => listPage(view, request, reply));

  dashboard.post(`${DASHBOARD}/settings/schedules`, signedIn, async (request, reply) => {
    const entered = scheduleFromForm(request);
    let name: string;
    try {
      ({ name } = await schedules.create(request.dashboardKey, entered));
    } catch (error) {
      // What was typed stays in the form, to be corrected, with every problem at once.
      const shown = { ...entered, name: typedAgain(String(entered.name)) };
      const problems = problemsOfRefusal(refusal(error).paymentsBody(), BOXES);
      return listPage(view, request, reply, undefined, 400, shown as Partial<ScheduleView>, problems);
    }
    return ctx.redirect(request, reply, `${DASHBOARD}/settings/schedules`, {
      notice: t(`Schedule "${name}" created.`, `"${name}" zamanlanmış raporu oluşturuldu.`),
    });
  });
}

/** A schedule's page and its edit form. */
function registerScheduleRoutes(dashboard: FastifyInstance, view: SchedulesView): void {
  const { schedules, ctx } = view;
  const signedIn = { preHandler: ctx.requireSession };
  dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/settings/schedules/:id`, signedIn, async (request, reply) =>
    schedulePage(view, request, reply),
  );

  dashboard.post<{ Params: { id: string } }>(
    `${DASHBOARD}/settings/schedules/:id`,
    signedIn,
    async (request, reply) => {
      const key = request.dashboardKey;
      let entered: Record<string, unknown> = {};
      try {
        // Saving keeps the schedule paused or running as it is: the form edits its settings only.
        entered = scheduleFromForm(request, (await schedules.get(key, request.params.id)).paused);
        await schedules.replace(key, request.params.id, entered);
      } catch (error) {
        const shown = { ...entered, name: typedAgain(String(entered.name ?? "")) } as Partial<ScheduleView>;
        return schedulePage(view, request, reply, undefined, 400, {
          entered: shown,
          problems: problemsOfRefusal(refusal(error).paymentsBody(), BOXES),
        });
      }
      return ctx.redirect(request, reply, `${DASHBOARD}/settings/schedules/${encodeURIComponent(request.params.id)}`, {
        notice: t("Schedule saved.", "Zamanlanmış rapor kaydedildi."),
      });
    },
  );
}

/** Pause and resume: back to the schedule with what was done, or why not. */
function registerPauseAndResume(dashboard: FastifyInstance, view: SchedulesView): void {
  const { schedules, ctx } = view;
  const signedIn = { preHandler: ctx.requireSession };
  for (const action of ["pause", "resume"] as const) {
    dashboard.post<{ Params: { id: string } }>(
      `${DASHBOARD}/settings/schedules/:id/${action}`,
      signedIn,
      async (request, reply) => {
        let flash: { notice: string } | { error: string };
        try {
          await schedules.setPaused(request.dashboardKey, request.params.id, action === "pause");
          flash = {
            notice:
              action === "pause"
                ? t("Paused.", "Duraklatıldı.")
                : t(
                    "Resumed: it is next due at its next time from now.",
                    "Sürdürüldü: bundan sonraki ilk gönderim zamanında gönderilecek.",
                  ),
          };
        } catch (error) {
          flash = { error: refusal(error).message };
        }
        return ctx.redirect(
          request,
          reply,
          `${DASHBOARD}/settings/schedules/${encodeURIComponent(request.params.id)}`,
          flash,
        );
      },
    );
  }
}

/** Delete, after a question (a GET of the address asks it too). */
function registerDelete(dashboard: FastifyInstance, view: SchedulesView): void {
  const { schedules, ctx } = view;
  const signedIn = { preHandler: ctx.requireSession };
  confirmableAction<{ Params: { id: string } }>(
    dashboard,
    `${DASHBOARD}/settings/schedules/:id/delete`,
    signedIn,
    async (request, reply) => {
      const listPath = `${DASHBOARD}/settings/schedules`;
      if (!confirmed(request)) {
        let schedule: { readonly id: string; readonly name: string };
        try {
          schedule = await schedules.get(request.dashboardKey, request.params.id);
        } catch (error) {
          return ctx.redirect(request, reply, listPath, { error: refusal(error).message });
        }
        return confirmPage(ctx, request, reply, {
          title: t("Delete this schedule?", "Bu zamanlanmış rapor silinsin mi?"),
          question: t(
            `Delete the schedule "${schedule.name}" and its delivery history? No more reports are sent for it; this cannot be undone (pausing keeps it).`,
            `"${schedule.name}" zamanlanmış raporu ve gönderim geçmişi silinsin mi? Bundan sonra rapor gönderilmez; bu geri alınamaz (duraklatmak onu korur).`,
          ),
          confirm: t(`Yes, delete "${schedule.name}"`, `Evet, "${schedule.name}" silinsin`),
          back: `${listPath}/${encodeURIComponent(schedule.id)}`,
          backLabel: t("No, keep it", "Hayır, kalsın"),
        });
      }
      let flash: { notice: string } | { error: string };
      try {
        await schedules.remove(request.dashboardKey, request.params.id);
        flash = { notice: t("Schedule deleted.", "Zamanlanmış rapor silindi.") };
      } catch (error) {
        flash = { error: refusal(error).message };
      }
      return ctx.redirect(request, reply, `${DASHBOARD}/settings/schedules`, flash);
    },
  );
}

/**
 * Settings → Schedules: scheduled report delivery by hand (create, edit, pause, resume, delete, and
 * each delivery's outcome), through the same `ReportSchedules` as the control API (one set of rules
 * and messages).
 */
export const schedulesPages =
  (schedules: ReportSchedules): DashboardPages =>
  (dashboard: FastifyInstance, ctx: DashboardContext): void => {
    const view = { schedules, ctx };
    registerListRoutes(dashboard, view);
    registerScheduleRoutes(dashboard, view);
    registerPauseAndResume(dashboard, view);
    registerDelete(dashboard, view);
  };
