import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { moveClockBy, type SandboxClocks, workspaceScope } from "../clock/index.js";
import { confirmed } from "../infrastructure/dashboard-shell/confirm.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { csrfField } from "../infrastructure/dashboard-shell/csrf-field.js";
import {
  errorSummary,
  type FormProblems,
  fieldAttributes,
  fieldError,
} from "../infrastructure/dashboard-shell/error-summary.js";
import { formField, queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime } from "../infrastructure/dashboard-shell/local-time.js";
import { t } from "../infrastructure/i18n/locale.js";
import { istanbulMidnightAfter } from "../infrastructure/time/istanbul-time.js";
import type { WorkspaceSetting } from "../workspaces/index.js";

export interface SettingsPageDeps {
  readonly clocks: SandboxClocks;
  /** The approval-workflow and settlement features' settings, shown and switched here. */
  readonly approvalWorkflow: WorkspaceSetting<boolean>;
  readonly autoSettlement: WorkspaceSetting<boolean>;
  readonly fourEyes: WorkspaceSetting<boolean>;
}

/** What the settings page's forms reported, by the code their redirect carries (never user text). */
const DONE: Record<string, readonly [en: string, tr: string]> = {
  "workflow-on": [
    "Approval workflow on: dashboard payments now wait for an approver.",
    "Onay akışı açık: panelden oluşturulan ödemeler artık bir onaylayıcı bekler.",
  ],
  "workflow-off": [
    "Approval workflow off: dashboard payments now go straight to processing.",
    "Onay akışı kapalı: panelden oluşturulan ödemeler artık doğrudan işleme alınır.",
  ],
  "four-eyes-on": [
    "Four eyes on: a payment must be approved with another API key than the one that submitted it.",
    "Dört göz açık: bir ödeme, onu gönderen API anahtarından farklı bir anahtarla onaylanmalı.",
  ],
  "four-eyes-off": [
    "Four eyes off: whoever submitted a payment may approve it.",
    "Dört göz kapalı: ödemeyi gönderen kişi onu onaylayabilir.",
  ],
  "settlement-on": [
    "Automatic settlement on: completed payments settle at 00:00 Istanbul.",
    "Otomatik hesaba geçiş açık: tamamlanan ödemeler İstanbul saatiyle 00:00'da hesaba geçer.",
  ],
  "settlement-off": [
    "Automatic settlement off: completed payments stay completed.",
    "Otomatik hesaba geçiş kapalı: tamamlanan ödemeler tamamlandı durumunda kalır.",
  ],
  "clock-advanced": [
    "Clock advanced; payments that became due have completed.",
    "Saat ilerletildi; vadesi gelen ödemeler tamamlandı.",
  ],
};

/** The boxes of the clock and reset forms, as the error summary names them. */
const BOX_LABELS = (): Record<string, string> => ({
  amount: t("Advance the clock by", "Saati ilerletme miktarı"),
  confirm: t("Reset this workspace", "Bu çalışma alanını sıfırla"),
});

/** Seconds per unit the clock form offers, with the unit's name (English, Turkish). */
const UNITS: Record<string, readonly [seconds: number, en: string, tr: string]> = {
  seconds: [1, "seconds", "saniye"],
  minutes: [60, "minutes", "dakika"],
  hours: [3_600, "hours", "saat"],
  days: [86_400, "days", "gün"],
};

/**
 * Settings: the workspace's settings and the sandbox controls, which act on every feature of the
 * workspace at once (advance its clock, reset it). The controls go through the control API so its
 * rules and messages are the only ones.
 */
export function settingsPage(deps: SettingsPageDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const signedIn = { preHandler: ctx.requireSession };

    /** A refused clock or reset form: what was typed in it, and what was wrong, by box. */
    interface Refused {
      readonly entered: Readonly<Record<string, string>>;
      readonly problems: FormProblems;
    }

    async function page(request: FastifyRequest, reply: FastifyReply, refused?: Refused) {
      const key = request.dashboardKey;
      const problems = refused?.problems ?? {};
      const entered = refused?.entered ?? {};
      await ctx.catchUp(key);
      const workflow = await deps.approvalWorkflow.get(key);
      const settlement = await deps.autoSettlement.get(key);
      const fourEyes = await deps.fourEyes.get(key);
      const now = await deps.clocks.now(workspaceScope(key));
      const done = DONE[queryField(request, "done") ?? ""];
      const notice = done && t(...done);
      const onOff = (on: boolean) => (on ? t("on", "açık") : t("off", "kapalı"));
      const token = csrfField(ctx, request);
      const chosenUnit = entered.unit && entered.unit in UNITS ? entered.unit : "hours";
      return ctx.render(
        request,
        reply,
        t("Settings", "Ayarlar"),
        html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}${errorSummary(problems, BOX_LABELS())}
        <section aria-labelledby="settings-heading"><h2 id="settings-heading">${t("Workspace settings", "Çalışma alanı ayarları")}</h2>
        <form class="inline" method="post" action="${DASHBOARD}/settings/approval-workflow">${token}
          <input type="hidden" name="enabled" value="${workflow ? "off" : "on"}">
          <span>${t("Approval workflow:", "Onay akışı:")} <strong id="approval-workflow">${onOff(workflow)}</strong></span>
          <button type="submit">${workflow ? t("Turn the approval workflow off", "Onay akışını kapat") : t("Turn the approval workflow on", "Onay akışını aç")}</button>
        </form>
        <form class="inline" method="post" action="${DASHBOARD}/settings/four-eyes">${token}
          <input type="hidden" name="enabled" value="${fourEyes ? "off" : "on"}">
          <span>${t("Four eyes (approved with another API key than the submitter's):", "Dört göz (gönderenden farklı bir API anahtarıyla onay):")} <strong id="four-eyes">${onOff(fourEyes)}</strong></span>
          <button type="submit">${fourEyes ? t("Turn four eyes off", "Dört gözü kapat") : t("Turn four eyes on", "Dört gözü aç")}</button>
        </form>
        <form class="inline" method="post" action="${DASHBOARD}/settings/settlement">${token}
          <input type="hidden" name="enabled" value="${settlement ? "off" : "on"}">
          <span>${t("Automatic settlement (00:00 Istanbul):", "Otomatik hesaba geçiş (İstanbul 00:00):")} <strong id="auto-settlement">${onOff(settlement)}</strong></span>
          <button type="submit">${settlement ? t("Turn automatic settlement off", "Otomatik hesaba geçişi kapat") : t("Turn automatic settlement on", "Otomatik hesaba geçişi aç")}</button>
        </form></section>
        <section aria-labelledby="clock-heading"><h2 id="clock-heading">${t("Sandbox clock", "Sandbox saati")}</h2>
        <p>${t("Now on the sandbox clock:", "Sandbox saatinde şu an:")} ${localTime(now, "sandbox-clock")} (${t("Istanbul", "İstanbul")}). ${t(
          "Payments, their history and reports follow this clock; the request log and the Outbox show real time.",
          "Ödemeler, geçmişleri ve raporlar bu saate uyar; istek kaydı ve giden kutusu gerçek zamanı gösterir.",
        )}</p>
        <form class="inline" method="post" action="${DASHBOARD}/clock/advance">${token}
          <label>${t("Amount", "Miktar")} <input name="amount" type="number" min="1" step="1" required value="${entered.amount ?? ""}" ${fieldAttributes(problems, "amount")}>${fieldError(problems, "amount")}</label>
          <label>${t("Unit", "Birim")} <select name="unit">${Object.entries(UNITS).map(([unit, [, en, tr]]) => html`<option value="${unit}" ${unit === chosenUnit ? html`selected` : ""}>${t(en, tr)}</option>`)}</select></label>
          <button type="submit">${t("Advance the clock", "Saati ilerlet")}</button>
        </form>
        <form class="inline" method="post" action="${DASHBOARD}/clock/advance">${token}
          <input type="hidden" name="to" value="cut-off">
          <button type="submit">${t("Advance to the next settlement cut-off (00:00 Istanbul)", "Bir sonraki hesaba geçiş saatine ilerlet (İstanbul 00:00)")}</button>
        </form></section>
        <section aria-labelledby="reset-heading"><h2 id="reset-heading">${t("Reset", "Sıfırlama")}</h2>
        <form class="inline" method="post" action="${DASHBOARD}/reset">${token}
          <label><span><input type="checkbox" name="confirm" value="yes" required ${fieldAttributes(problems, "confirm")}> ${t(
            "Yes, delete this workspace's payments, keys, reports and e-mail",
            "Evet, bu çalışma alanının ödemelerini, anahtarlarını, raporlarını ve e-postalarını sil",
          )}</span></label>
          ${fieldError(problems, "confirm")}<button type="submit" class="danger">${t("Reset this workspace", "Bu çalışma alanını sıfırla")}</button>
        </form></section>`,
        refused ? 400 : 200,
      );
    }

    dashboard.get(`${DASHBOARD}/settings`, signedIn, (request, reply) => page(request, reply));

    dashboard.post(`${DASHBOARD}/clock/advance`, signedIn, async (request, reply) => {
      const key = request.dashboardKey;
      let seconds: number | string;
      if (formField(request, "to") === "cut-off") {
        const now = await deps.clocks.now(workspaceScope(key));
        seconds = Math.ceil((istanbulMidnightAfter(now) - now) / 1000);
      } else {
        // Whole seconds the clock judges (positive, within the allowance); anything else it names.
        const raw = formField(request, "amount") ?? formField(request, "seconds") ?? "";
        const unit = UNITS[formField(request, "unit") ?? "seconds"]?.[0] ?? 1;
        seconds = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) * unit : raw;
      }
      try {
        await moveClockBy(deps.clocks, workspaceScope(key), "advance", { seconds });
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        // The clock's message names its field ("seconds: …"); the box is the amount.
        const entered = { amount: formField(request, "amount") ?? "", unit: formField(request, "unit") ?? "" };
        return page(request, reply, { entered, problems: { amount: error.message.replace(/^seconds: /, "") } });
      }
      return reply.redirect(`${DASHBOARD}/settings?done=clock-advanced`, 303);
    });

    dashboard.post(`${DASHBOARD}/reset`, signedIn, async (request, reply) => {
      // A reset cannot be undone: the form's box must be ticked (checked here too, not only by the browser).
      if (!confirmed(request)) {
        const problem = t(
          "Nothing was reset: tick the box to confirm that this workspace's data may be deleted.",
          "Hiçbir şey sıfırlanmadı: bu çalışma alanının verilerinin silinebileceğini onaylamak için kutuyu işaretleyin.",
        );
        return page(request, reply, { entered: {}, problems: { confirm: problem } });
      }
      const answer = await ctx.control(request.dashboardKey, "POST", "/_sandbox/reset");
      if (answer.statusCode !== 200)
        return page(request, reply, { entered: {}, problems: { "": answer.json().message } });
      return reply.redirect(`${DASHBOARD}?done=reset`, 303);
    });
  };
}
