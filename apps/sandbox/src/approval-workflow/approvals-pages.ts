import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type SandboxClocks, workspaceScope } from "../clock/index.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { formField, formFieldValues } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { signerOf } from "../infrastructure/dashboard-shell/signed-in-session.js";
import { count, money, plural } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { WorkspaceSetting } from "../infrastructure/workspace-settings/workspace-setting.js";
import { approvePayment, browsePayments, type PaymentsStore, submittedBy } from "../payments/index.js";

/** At most this many waiting payments on the page (newest first); the count says if there are more. */
const SHOWN = 100;

/** How many payments wait for an approver in the workspace (the navigation shows it). */
export async function approvalsWaiting(payments: PaymentsStore, workspace: string): Promise<number> {
  const snapshot = await payments.snapshot(workspace);
  const { total = 0 } = await payments.list(workspace, {
    afterSeq: 0,
    snapshotSeq: snapshot.seq,
    asOfVersion: snapshot.version,
    awaitingApproval: true,
    limit: 0,
    countTotal: true,
  });
  return total;
}

export interface ApprovalsPageDeps {
  readonly payments: PaymentsStore;
  readonly fourEyes: WorkspaceSetting<boolean>;
  readonly clocks: SandboxClocks;
}

/**
 * Approvals: the queue of dashboard payments waiting for an approver, newest first, with their
 * accounts, each to approve alone or ticked and approved together. With the four-eyes rule on, what
 * the signed-in person submitted shows no way to approve it, only who must. API payments never wait here.
 */
export function approvalsPage(deps: ApprovalsPageDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    dashboard.get(`${DASHBOARD}/approvals`, { preHandler: ctx.requireSession }, (request, reply) =>
      queue(deps, ctx, request, reply),
    );
    dashboard.post(`${DASHBOARD}/approvals`, { preHandler: ctx.requireSession }, (request, reply) =>
      approveSeveral(deps, ctx, request, reply),
    );
  };
}

async function queue(deps: ApprovalsPageDeps, ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply) {
  const key = request.dashboardKey;
  await ctx.catchUp(key);
  const waiting = await browsePayments(deps.payments, key, { awaitingApproval: true }, {}, SHOWN);
  const accounts = new Map((await deps.payments.accounts(key)).map((a) => [a.id, a.name]));
  const account = (id: string | undefined) => (id ? html`${accounts.get(id) ?? ""} <code>${id}</code>` : "");
  const signer = signerOf(request.dashboardSession);
  const fourEyes = await deps.fourEyes.get(key);
  // Under four eyes, whose each payment is decides whether this person may approve it.
  const own = new Set<string>();
  if (fourEyes && signer) {
    for (const p of waiting.payments) {
      const stored = await deps.payments.payment(key, p.id);
      if (stored && submittedBy(stored, signer)) own.add(p.id);
    }
  }
  const rows = waiting.payments.map((p) => {
    const label = `${t("Approve", "Onayla:")} ${p.id}`;
    const choose: SafeHtml = own.has(p.id)
      ? html`<span>${t("You submitted it: another person approves it.", "Siz gönderdiniz: başka biri onaylar.")}</span>`
      : html`<input type="checkbox" name="ids" value="${p.id}" aria-label="${t("Select", "Seç:")} ${p.id}">
          <button type="submit" name="only" value="${p.id}" class="primary" aria-label="${label}">${t("Approve", "Onayla")}</button>`;
    return html`<tr><td><a href="${DASHBOARD}/payments/${p.id}">${p.id}</a></td><td>${localTime(p.created_at)}</td>
      <td class="money">${money(p.amount, p.currency)}</td><td>${account(p.from_account)}</td><td>${account(p.to_account)}</td>
      <td>${p.reference ?? ""}</td><td>${p.description ?? ""}</td><td>${choose}</td></tr>`;
  });
  const approvable = waiting.payments.length - own.size;
  return ctx.render(
    request,
    reply,
    t("Approvals", "Onaylar"),
    html`<p id="approvals-count">${plural(waiting.total, "payment", "ödeme")} ${t("waiting for an approver", "onay bekliyor")}${
      waiting.total > SHOWN
        ? t(` (the newest ${SHOWN} are shown)`, ` (en yeni ${count(SHOWN)} tanesi gösteriliyor)`)
        : ""
    }. ${t(
      "Only payments made in the dashboard while the approval workflow is on wait here.",
      "Burada yalnızca onay akışı açıkken panelden oluşturulan ödemeler bekler.",
    )}</p>
    <form method="post" action="${DASHBOARD}/approvals"><input type="hidden" name="_csrf" value="${ctx.csrf(request)}">
    <div class="scroll" tabindex="0" role="region" aria-label="${t("Waiting for approval", "Onay bekleyenler")}">
    <table aria-label="${t("Waiting for approval", "Onay bekleyenler")}"><thead><tr><th>${t("Payment", "Ödeme")}</th><th>${timeHeading("Created", "Oluşturulma", "sandbox")}</th>
      <th class="money">${t("Amount", "Tutar")}</th><th>${t("From", "Gönderen")}</th><th>${t("To", "Alıcı")}</th><th>${t("Reference", "Referans")}</th><th>${t("Description", "Açıklama")}</th><th>${t("Approve", "Onay")}</th></tr></thead>
    <tbody>${rows.length > 0 ? rows : html`<tr><td colspan="8">${t("Nothing waits for an approver.", "Onay bekleyen bir şey yok.")}</td></tr>`}</tbody></table></div>
    ${approvable > 1 ? html`<p><button type="submit" class="primary">${t("Approve the selected payments", "Seçilen ödemeleri onayla")}</button></p>` : ""}
    </form>`,
  );
}

/** Approves the payment whose own button was pressed, or every ticked one; says how many, and why any was not. */
async function approveSeveral(
  deps: ApprovalsPageDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const key = request.dashboardKey;
  const only = formField(request, "only");
  const ids = only ? [only] : [...new Set(formFieldValues(request, "ids"))].slice(0, SHOWN);
  if (ids.length === 0) {
    return ctx.redirect(request, reply, `${DASHBOARD}/approvals`, {
      error: t("Tick the payments to approve first.", "Önce onaylanacak ödemeleri işaretleyin."),
    });
  }
  const signer = signerOf(request.dashboardSession);
  const fourEyes = await deps.fourEyes.get(key);
  const now = await deps.clocks.now(workspaceScope(key));
  let approved = 0;
  let yours = 0;
  let notWaiting = 0;
  for (const id of ids) {
    const result = await approvePayment(deps.payments, key, id, now, {
      fourEyes,
      ...(signer ? { actor: signer } : {}),
    });
    if (result.ok) approved++;
    else if (result.reason === "same_person") yours++;
    else notWaiting++;
  }
  const refusals = [
    yours > 0
      ? t(
          `${plural(yours, "payment", "ödeme")} you submitted: under the four-eyes rule another person approves them.`,
          `${plural(yours, "payment", "ödeme")} sizin gönderdiğiniz: dört göz kuralıyla onları başka biri onaylar.`,
        )
      : "",
    notWaiting > 0
      ? t(
          `${plural(notWaiting, ["payment was", "payments were"], "ödeme")} no longer waiting for an approver.`,
          `${plural(notWaiting, "", "ödeme")} artık onay beklemiyordu.`,
        )
      : "",
  ].filter(Boolean);
  return ctx.redirect(request, reply, `${DASHBOARD}/approvals`, {
    ...(approved > 0
      ? {
          notice: t(
            `Approved ${plural(approved, "payment", "ödeme")}.`,
            `${plural(approved, "payment", "ödeme")} onaylandı.`,
          ),
        }
      : {}),
    ...(refusals.length > 0 ? { error: refusals.join(" ") } : {}),
  });
}
