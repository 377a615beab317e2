import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type SandboxClocks, workspaceScope } from "../clock/index.js";
import { confirmed, confirmPage } from "../infrastructure/dashboard-shell/confirm.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { csrfField } from "../infrastructure/dashboard-shell/csrf-field.js";
import { formField, formFieldValues } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { signerOf } from "../infrastructure/dashboard-shell/signed-in-session.js";
import { token } from "../infrastructure/dashboard-shell/token.js";
import { count, money, plural } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import { browsePayments, type PaymentsStore, submittedBy } from "../payments/index.js";
import type { WorkspaceSetting } from "../workspaces/index.js";
import { approvePayment, type DecisionResult, rejectPayment } from "./approver-decisions.js";

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
 * accounts, each to approve or reject alone, or ticked and decided together (a rejection asks first:
 * it cannot be undone). With the four-eyes rule on, what the signed-in person submitted shows no way
 * to approve it, only who must, and a way to withdraw it. API payments never wait here.
 */
export function approvalsPage(deps: ApprovalsPageDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    dashboard.get(`${DASHBOARD}/approvals`, { preHandler: ctx.requireSession }, (request, reply) =>
      queue(deps, ctx, request, reply),
    );
    dashboard.post(`${DASHBOARD}/approvals`, { preHandler: ctx.requireSession }, (request, reply) =>
      decideSeveral(deps, ctx, request, reply),
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
    const reject = html`<button type="submit" name="reject" value="${p.id}" class="danger" aria-label="${t("Reject", "Reddet:")} ${p.id}">${t("Reject", "Reddet")}</button>`;
    // The submitter withdraws what they submitted: the same rejection, in the words of its author.
    const withdraw = html`<button type="submit" name="reject" value="${p.id}" class="danger" aria-label="${t("Withdraw", "Geri çek:")} ${p.id}">${t("Withdraw", "Geri çek")}</button>`;
    const choose: SafeHtml = own.has(p.id)
      ? html`<span>${t("You submitted it: another person approves it.", "Siz gönderdiniz: başka biri onaylar.")}</span> ${withdraw}`
      : html`<input type="checkbox" name="ids" value="${p.id}" aria-label="${t("Select", "Seç:")} ${p.id}">
          <button type="submit" name="only" value="${p.id}" class="primary" aria-label="${t("Approve", "Onayla:")} ${p.id}">${t("Approve", "Onayla")}</button> ${reject}`;
    // The decision right after what is decided on: on a phone the table's first columns are what shows.
    // On a phone the link shows the reference people know the payment by (the id when it has none).
    return html`<tr><td><a href="${DASHBOARD}/payments/${p.id}">${token(p.id, "wide-only")}${token(p.reference || p.id, "narrow-only")}</a></td><td class="money">${money(p.amount, p.currency)}</td>
      <td class="decision">${choose}</td><td class="detail" data-label="${t("From", "Gönderen")}">${account(p.from_account)}</td><td class="detail" data-label="${t("To", "Alıcı")}">${account(p.to_account)}</td>
      <td class="detail" data-label="${t("Reference", "Referans")}">${p.reference ?? ""}</td><td class="detail description">${p.description ?? ""}</td><td class="detail" data-label="${t("Created", "Oluşturulma")}">${localTime(p.created_at)}</td></tr>`;
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
    <form method="post" action="${DASHBOARD}/approvals">${csrfField(ctx, request)}
    <table aria-label="${t("Waiting for approval", "Onay bekleyenler")}" class="cards"><thead><tr><th>${t("Payment", "Ödeme")}</th><th class="money">${t("Amount", "Tutar")}</th><th>${t("Decision", "Karar")}</th>
      <th>${t("From", "Gönderen")}</th><th>${t("To", "Alıcı")}</th><th>${t("Reference", "Referans")}</th><th>${t("Description", "Açıklama")}</th><th>${timeHeading("Created", "Oluşturulma", "sandbox")}</th></tr></thead>
    <tbody>${rows.length > 0 ? rows : html`<tr><td colspan="8">${t("Nothing waits for an approver.", "Onay bekleyen bir şey yok.")}</td></tr>`}</tbody></table>
    ${
      approvable > 1
        ? html`<p class="actions"><button type="submit" class="primary">${t("Approve the selected payments", "Seçilen ödemeleri onayla")}</button>
      <button type="submit" name="decision" value="reject" class="danger">${t("Reject the selected payments", "Seçilen ödemeleri reddet")}</button></p>`
        : ""
    }
    </form>`,
  );
}

/** The payments a decision is about: the one whose own button was pressed, or every ticked one. */
function chosenIds(request: FastifyRequest): { readonly decision: "approve" | "reject"; readonly ids: string[] } {
  const rejectOne = formField(request, "reject");
  if (rejectOne) return { decision: "reject", ids: [rejectOne] };
  const approveOne = formField(request, "only");
  if (approveOne) return { decision: "approve", ids: [approveOne] };
  // A confirmed rejection carries its choice in one field: the confirmation page's form is not the queue's.
  const carried = formField(request, "chosen")?.split(" ").filter(Boolean) ?? [];
  const ticked = [...new Set([...formFieldValues(request, "ids"), ...carried])].slice(0, SHOWN);
  return { decision: formField(request, "decision") === "reject" ? "reject" : "approve", ids: ticked };
}

/**
 * Approves or rejects the chosen payments, one by one (each checked on its own: four eyes for an
 * approval, still waiting for both); says how many, and why any was not. A rejection is confirmed first.
 */
async function decideSeveral(
  deps: ApprovalsPageDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const key = request.dashboardKey;
  const { decision, ids } = chosenIds(request);
  if (ids.length === 0) {
    return ctx.redirect(request, reply, `${DASHBOARD}/approvals`, {
      error:
        decision === "reject"
          ? t("Tick the payments to reject first.", "Önce reddedilecek ödemeleri işaretleyin.")
          : t("Tick the payments to approve first.", "Önce onaylanacak ödemeleri işaretleyin."),
    });
  }
  if (decision === "reject" && !confirmed(request)) return confirmRejection(deps, ctx, request, reply, ids);
  const signer = signerOf(request.dashboardSession);
  const fourEyes = await deps.fourEyes.get(key);
  const now = await deps.clocks.now(workspaceScope(key));
  const results: DecisionResult[] = [];
  for (const id of ids) {
    results.push(
      decision === "reject"
        ? await rejectPayment(deps.payments, key, id, now, signer)
        : await approvePayment(deps.payments, key, id, now, { fourEyes, ...(signer ? { actor: signer } : {}) }),
    );
  }
  const done = results.filter((result) => result.ok).length;
  const yours = results.filter((result) => !result.ok && result.reason === "same_person").length;
  const notWaiting = results.length - done - yours;
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
  const notice =
    decision === "reject"
      ? t(
          `Rejected ${plural(done, "payment", "ödeme")}: cancelled, nothing moved.`,
          `${plural(done, "payment", "ödeme")} reddedildi: iptal edildi, para hareket etmedi.`,
        )
      : t(`Approved ${plural(done, "payment", "ödeme")}.`, `${plural(done, "payment", "ödeme")} onaylandı.`);
  return ctx.redirect(request, reply, `${DASHBOARD}/approvals`, {
    ...(done > 0 ? { notice } : {}),
    ...(refusals.length > 0 ? { error: refusals.join(" ") } : {}),
  });
}

/** Asks before rejecting: how many payments, how much in all, and that a rejection cannot be undone. */
async function confirmRejection(
  deps: ApprovalsPageDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
  ids: readonly string[],
) {
  const key = request.dashboardKey;
  const chosen = (await Promise.all(ids.map((id) => deps.payments.payment(key, id)))).filter((p) => p !== undefined);
  const totals = new Map<string, number>();
  for (const p of chosen) totals.set(p.currency, (totals.get(p.currency) ?? 0) + p.amount);
  const amounts = [...totals].map(([currency, amount]) => money(amount, currency)).join(", ");
  const single = ids.length === 1 ? ids[0] : undefined;
  return confirmPage(ctx, request, reply, {
    title:
      single === undefined
        ? t("Reject these payments?", "Bu ödemeler reddedilsin mi?")
        : t("Reject this payment?", "Bu ödeme reddedilsin mi?"),
    question: `${
      single === undefined
        ? t(
            `Reject ${plural(ids.length, "payment", "ödeme")}${amounts ? ` (${amounts} in all)` : ""}?`,
            `${plural(ids.length, "payment", "ödeme")}${amounts ? ` (toplam ${amounts})` : ""} reddedilsin mi?`,
          )
        : t(
            `Reject payment ${single}${amounts ? ` of ${amounts}` : ""}?`,
            `${amounts ? `${amounts} tutarındaki ` : ""}${single} ödemesi reddedilsin mi?`,
          )
    } ${t(
      "A rejected payment is cancelled and cannot be sent again: make a new one instead.",
      "Reddedilen ödeme iptal edilir ve yeniden gönderilemez: bunun yerine yeni bir ödeme oluşturun.",
    )}`,
    confirm: t("Yes, reject", "Evet, reddet"),
    back: `${DASHBOARD}/approvals`,
    backLabel:
      single === undefined
        ? t("No, keep them waiting", "Hayır, beklemeye devam etsinler")
        : t("No, keep it waiting", "Hayır, beklemeye devam etsin"),
    fields: { decision: "reject", chosen: ids.join(" ") },
  });
}
