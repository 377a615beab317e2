import { type Payment, zPaymentMethod, zPaymentStatus } from "@payspec/payments-zod";
import { ApiFailure, validateFields } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { SandboxClocks } from "../clock/index.js";
import { workspaceScope } from "../clock/index.js";
import { confirmableAction, confirmed, confirmPage } from "../infrastructure/dashboard-shell/confirm.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { formField, queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { inWords } from "../infrastructure/dashboard-shell/form-messages.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD, statusBadge } from "../infrastructure/dashboard-shell/layout.js";
import { clockNote, localTime, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { signerOf } from "../infrastructure/dashboard-shell/signed-in-session.js";
import { token } from "../infrastructure/dashboard-shell/token.js";
import { money, plural } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import { methodWord } from "../infrastructure/i18n/method-words.js";
import { statusWord } from "../infrastructure/i18n/status-words.js";
import type { WorkspaceSetting } from "../workspaces/index.js";
import { awaitsApproval, submittedBy } from "./creation/dashboard-submit.js";
import { forcePaymentStatus } from "./lifecycle/force-status.js";
import { fieldLabel } from "./listing/field-names.js";
import type { ListingFilters } from "./listing/list-payments.js";
import { type BrowsedPage, browsePayments } from "./listing/payments-browse.js";
import { paymentToApi } from "./serialize.js";
import {
  actorShown,
  type PaymentsStore,
  type Shortfall,
  type StoredAccount,
  type StoredPayment,
  type TransitionCause,
} from "./store/payments-store.js";

const PAGE_SIZE = 25;

/** The table's filters: the API's, plus method and account (the dashboard's own, as the seed says). */
export const zDashboardFilters = z.object({
  status: zPaymentStatus.optional(),
  method: zPaymentMethod.optional(),
  account: z.string().max(64).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  q: z.string().trim().max(140).optional(),
});

/** Each filter as its box is labelled: what a problem with it names (English, Turkish). */
const FILTER_LABELS: Record<string, readonly [string, string]> = {
  status: ["Status", "Durum"],
  method: ["Method", "Yöntem"],
  account: ["Account", "Hesap"],
  from: ["Created from", "Oluşturulma başlangıcı"],
  to: ["Created to", "Oluşturulma bitişi"],
  q: ["Search", "Ara"],
};
const filterLabel = (name: string) => {
  const words = FILTER_LABELS[name];
  return words ? t(...words) : name;
};

/** The query parameters of the overview's filters; `q` is the search box. */
const FILTER_NAMES = ["status", "method", "account", "from", "to", "q"] as const;

/**
 * The filters in the request's query: the parsed ones, or the first problem in words. The dates are
 * Istanbul days, as every time on the dashboard is shown.
 */
export function filtersOf(request: FastifyRequest): { filters: ListingFilters; problem?: string } {
  const raw = Object.fromEntries(FILTER_NAMES.map((name) => [name, queryField(request, name)]));
  const parsed = validateFields(zDashboardFilters, raw);
  if (parsed.ok) {
    const { q, ...rest } = parsed.data;
    const dated = rest.from !== undefined || rest.to !== undefined;
    return {
      filters: { ...rest, ...(q ? { search: q } : {}), ...(dated ? { days: "Europe/Istanbul" as const } : {}) },
    };
  }
  const [field, message] = Object.entries(parsed.problems)[0] as [string, string];
  return { filters: {}, problem: `${filterLabel(field)}: ${inWords(message)}` };
}

/** The query string that repeats these filters (for the next page, the exports). */
export function filterQuery(filters: ListingFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = name === "q" ? filters.search : filters[name];
    if (value) query.set(name, value);
  }
  return query;
}

/** Who made each change, as the status history says it (English, Turkish). */
const CAUSES: Record<TransitionCause, readonly [string, string]> = {
  api: ["API", "API"],
  dashboard: ["Dashboard", "Panel"],
  completion: ["Completion", "Tamamlama"],
  control: ["Control API", "Kontrol API'si"],
  settlement: ["Settlement", "Hesaba geçiş"],
  reconciliation: ["Reconciliation", "Mutabakat"],
};

/** What the detail page's actions reported, by the code its redirect carries (never user text). */
const DONE: Record<string, readonly [string, string]> = {
  approved: ["Approved.", "Onaylandı."],
  cancelled: ["Cancelled.", "İptal edildi."],
  forced: ["Status forced.", "Durum zorla değiştirildi."],
  created: ["Payment created.", "Ödeme oluşturuldu."],
};

/** A payment's own page in the dashboard (where its actions answer back to). */
export function paymentPagePath(id: string): string {
  return `${DASHBOARD}/payments/${encodeURIComponent(id)}`;
}

export interface PaymentsPagesDeps {
  readonly payments: PaymentsStore;
  readonly clocks: SandboxClocks;
  /** The approval workflow's four-eyes rule: a payment's page offers its submitter no Approve then. */
  readonly fourEyes: WorkspaceSetting<boolean>;
}

/** The overview: a search, the payments (filtered, paged), the accounts; the sign-in page without a session. */
async function overview(deps: PaymentsPagesDeps, ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply) {
  const key = request.dashboardKey;
  if (!key) {
    return request.dashboardSession?.subject.kind === "gateway"
      ? reply.redirect(`${DASHBOARD}/gateway`, 303)
      : ctx.signInPage(request, reply);
  }
  await ctx.catchUp(key);
  // One search box: a payment id opens that payment; any other text is looked for in references
  // and descriptions.
  const search = queryField(request, "q")?.trim();
  if (search && /^pay_[A-Za-z0-9]+$/.test(search) && (await deps.payments.payment(key, search))) {
    return reply.redirect(`${DASHBOARD}/payments/${search}`, 303);
  }
  const { filters, problem } = filtersOf(request);
  let listing: BrowsedPage | undefined;
  let error = problem;
  if (!error && filters.from && filters.to && filters.from > filters.to)
    error = t(
      "Created from must be on or before Created to.",
      "Oluşturulma başlangıcı, oluşturulma bitişiyle aynı gün ya da ondan önce olmalı.",
    );
  if (!error) {
    const position = (name: string) => {
      const raw = queryField(request, name);
      return raw && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
    };
    const olderThan = position("older");
    const newerThan = position("newer");
    listing = await browsePayments(
      deps.payments,
      key,
      filters,
      { ...(olderThan === undefined ? {} : { olderThan }), ...(newerThan === undefined ? {} : { newerThan }) },
      PAGE_SIZE,
    );
  }
  const accounts = await deps.payments.accounts(key);
  return ctx.render(
    request,
    reply,
    t("Accounts and payments", "Hesaplar ve ödemeler"),
    html`${paymentsSection(accounts, filters, listing, error)}
    ${accountsTable(accounts)}
    <p>${t(
      "Workspace settings and sandbox controls (approval workflow, settlement, the clock, reset) are on",
      "Çalışma alanı ayarları ve sandbox kontrolleri (onay akışı, hesaba geçiş, saat, sıfırlama) şu sayfada:",
    )} <a href="${DASHBOARD}/settings">${t("the Settings page", "Ayarlar")}</a>.</p>`,
    error ? 400 : 200,
  );
}

/** A payment's page, with what was just done to it and the actions it offers. */
async function paymentPage(
  deps: PaymentsPagesDeps,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
) {
  const key = request.dashboardKey;
  await ctx.catchUp(key);
  const payment = await deps.payments.payment(key, id);
  if (!payment) {
    return ctx.render(
      request,
      reply,
      t("Payment not found", "Ödeme bulunamadı"),
      html`<p>${t(`No payment ${id} in this workspace.`, `Bu çalışma alanında ${id} diye bir ödeme yok.`)}</p>`,
      404,
    );
  }
  const done = DONE[queryField(request, "done") ?? ""];
  const notice = done && t(...done);
  return ctx.render(
    request,
    reply,
    `${t("Payment", "Ödeme")} ${payment.id}`,
    html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
    ${paymentDetail(payment, ctx.csrf(request), await deps.payments.accounts(key), await approvalOffer(deps, request, payment))}`,
  );
}

/** Cancel, after a question (a GET of the address asks it too). */
function registerCancel(dashboard: FastifyInstance, deps: PaymentsPagesDeps, ctx: DashboardContext): void {
  const post = { preHandler: ctx.requireSession };
  confirmableAction<{ Params: { id: string } }>(
    dashboard,
    `${DASHBOARD}/payments/:id/cancel`,
    post,
    async (request, reply) => {
      const key = request.dashboardKey;
      const { id } = request.params;
      await ctx.catchUp(key);
      if (!confirmed(request)) {
        const payment = await deps.payments.payment(key, id);
        if (!payment) return reply.redirect(paymentPagePath(id), 303);
        return confirmPage(ctx, request, reply, {
          title: t("Cancel this payment?", "Bu ödeme iptal edilsin mi?"),
          question: t(
            `Cancel payment ${id} of ${money(payment.amount, payment.currency)}? A cancelled payment cannot be sent again: make a new one instead.`,
            `${money(payment.amount, payment.currency)} tutarındaki ${id} ödemesi iptal edilsin mi? İptal edilen bir ödeme yeniden gönderilemez: bunun yerine yeni bir ödeme oluşturun.`,
          ),
          confirm: t("Yes, cancel the payment", "Evet, ödemeyi iptal et"),
          back: paymentPagePath(id),
          backLabel: t("No, keep it", "Hayır, kalsın"),
        });
      }
      const result = await deps.payments.transition(
        key,
        id,
        ["pending", "approved"],
        "cancelled",
        await deps.clocks.now(workspaceScope(key)),
        "dashboard",
      );
      if (!result.ok) {
        return ctx.redirect(request, reply, paymentPagePath(id), {
          error: t(
            `Only pending or approved payments can be cancelled; this one is ${statusWord(result.payment?.status ?? "gone")}.`,
            `Yalnızca onay bekleyen ya da onaylanmış ödemeler iptal edilebilir; bu ödemenin durumu: ${statusWord(result.payment?.status ?? "yok")}.`,
          ),
        });
      }
      return reply.redirect(`${paymentPagePath(id)}?done=cancelled`, 303);
    },
  );
}

/** Force a status (a sandbox control), after a question that names both statuses. */
function registerForceStatus(dashboard: FastifyInstance, deps: PaymentsPagesDeps, ctx: DashboardContext): void {
  const post = { preHandler: ctx.requireSession };
  // The control API forces a status through the same function: one set of rules and messages.
  confirmableAction<{ Params: { id: string } }>(
    dashboard,
    `${DASHBOARD}/payments/:id/status`,
    post,
    async (request, reply) => {
      const { id } = request.params;
      const status = formField(request, "status") ?? "";
      if (!confirmed(request)) {
        const payment = await deps.payments.payment(request.dashboardKey, id);
        if (!payment) return reply.redirect(paymentPagePath(id), 303);
        // An address without a status (typed, bookmarked, cut) asks nothing about "": it says what to choose.
        if (!zPaymentStatus.safeParse(status).success)
          return ctx.redirect(request, reply, `${paymentPagePath(id)}#force-status`, {
            error: t(
              "Choose the status to force this payment to under Force status, then press Force.",
              "Bu ödemeye zorla verilecek durumu “Durumu zorla değiştir” altında seçin, sonra Değiştir'e basın.",
            ),
          });
        return confirmPage(ctx, request, reply, {
          title: t("Force this status?", "Bu durum zorla verilsin mi?"),
          question: t(
            `Force payment ${id} from ${statusWord(payment.status)} to ${statusWord(status)}? The balances move as the new status says, and the history records it as a sandbox control.`,
            `${id} ödemesinin durumu "${statusWord(payment.status)}" yerine zorla "${statusWord(status)}" yapılsın mı? Bakiyeler yeni duruma göre değişir ve geçmişe sandbox kontrolü olarak yazılır.`,
          ),
          confirm: t(`Yes, force ${statusWord(status)}`, `Evet, "${statusWord(status)}" yap`),
          back: paymentPagePath(id),
          backLabel: t("No, leave it", "Hayır, olduğu gibi kalsın"),
          fields: { status },
        });
      }
      const key = request.dashboardKey;
      try {
        await forcePaymentStatus(deps.payments, key, id, { status }, await deps.clocks.now(workspaceScope(key)));
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        return ctx.redirect(request, reply, paymentPagePath(id), { error: error.message });
      }
      return reply.redirect(`${paymentPagePath(id)}?done=forced`, 303);
    },
  );
}

/**
 * The overview (accounts, settings, payments) and a payment's page with its actions (its Approve
 * button posts to the approval workflow's route).
 */
export function paymentsPages(deps: PaymentsPagesDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    dashboard.get(DASHBOARD, (request, reply) => overview(deps, ctx, request, reply));
    dashboard.get<{ Params: { id: string } }>(
      `${DASHBOARD}/payments/:id`,
      { preHandler: ctx.requireSession },
      (request, reply) => paymentPage(deps, ctx, request, reply, request.params.id),
    );
    registerCancel(dashboard, deps, ctx);
    registerForceStatus(dashboard, deps, ctx);
  };
}

function accountsTable(accounts: readonly StoredAccount[]): SafeHtml {
  const link = (a: StoredAccount) => `${DASHBOARD}?${new URLSearchParams({ account: a.id }).toString()}`;
  return html`<section><h2>${t("Accounts", "Hesaplar")}</h2>
  <table aria-label="${t("Accounts", "Hesaplar")}"><thead><tr><th>${t("Account", "Hesap")}</th><th>${t("Id", "Kimlik")}</th><th class="money">${t("Balance", "Bakiye")}</th></tr></thead>
  <tbody>${accounts.map((a) => html`<tr><td><a href="${link(a)}">${a.name}</a></td><td><code>${a.id}</code></td><td class="money">${money(a.balanceMinor, a.currency)}</td></tr>`)}</tbody></table></section>`;
}

/**
 * An account as people know it: its name, with its id beside it (in a sentence) or under it (in a
 * table's narrow cell).
 */
function accountName(
  accounts: readonly StoredAccount[],
  id: string | undefined,
  idPlaced: "beside" | "under" = "beside",
): SafeHtml | string {
  if (id === undefined) return "";
  const account = accounts.find((a) => a.id === id);
  if (!account) return html`<code>${id}</code>`;
  return idPlaced === "under" ? html`${account.name}<br><code>${id}</code>` : html`${account.name} <code>${id}</code>`;
}

function paymentsSection(
  accounts: readonly StoredAccount[],
  filters: ListingFilters,
  listing: BrowsedPage | undefined,
  error: string | undefined,
): SafeHtml {
  const option = (value: string, chosen: string | undefined, label = value) =>
    html`<option value="${value}" ${chosen === value ? html`selected` : ""}>${label}</option>`;
  const query = filterQuery(filters);
  const at = (name: "older" | "newer", seq: number | undefined) => {
    const paged = new URLSearchParams(query);
    if (seq !== undefined) paged.set(name, String(seq));
    return `${DASHBOARD}?${paged.toString()}`;
  };
  const paging: SafeHtml[] = [];
  if (listing?.hasNewer) {
    paging.push(html`<a href="${at("older", undefined)}">${t("First page", "İlk sayfa")}</a>`);
    paging.push(html`<a rel="prev" href="${at("newer", listing.first)}">${t("Previous page", "Önceki sayfa")}</a>`);
  }
  if (listing?.hasOlder)
    paging.push(html`<a rel="next" href="${at("older", listing.last)}">${t("Next page", "Sonraki sayfa")}</a>`);
  const any = t("any", "tümü");
  const chosen = query.size;
  // The export links carry no `download` attribute: a small export downloads as an attachment, a
  // large one is queued and its redirect opens the Exports page.
  const exportQuery = query.toString();
  return html`<section><h2>${t("Payments", "Ödemeler")}</h2>
  <p class="actions"><a href="${DASHBOARD}/payments/new">${t("New payment", "Yeni ödeme")}</a></p>
  <details class="fold" data-fold-narrow ${error ? html`data-keep-open` : ""} open><summary>${t("Filters", "Filtreler")}${chosen > 0 ? html` · ${plural(chosen, ["in use", "in use"], "seçili")}` : ""}</summary>
  <form class="filters" method="get" action="${DASHBOARD}" aria-label="${t("Filter payments", "Ödemeleri filtrele")}">
    <label>${t("Search (payment id, or any part of a reference or description)", "Ara (ödeme kimliği ya da referansın veya açıklamanın herhangi bir parçası)")} <input type="search" name="q" maxlength="140" value="${filters.search ?? ""}"></label>
    <label>${filterLabel("status")} <select name="status"><option value="">${any}</option>${zPaymentStatus.options.map((s) => option(s, filters.status, statusWord(s)))}</select></label>
    <label>${filterLabel("method")} <select name="method"><option value="">${any}</option>${zPaymentMethod.options.map((m) => option(m, filters.method, methodWord(m)))}</select></label>
    <label>${filterLabel("account")} <select name="account"><option value="">${any}</option>${accounts.map((a) => option(a.id, filters.account, `${a.name} · ${a.id}`))}</select></label>
    <label>${filterLabel("from")} <input type="date" name="from" value="${filters.from ?? ""}"></label>
    <label>${filterLabel("to")} <input type="date" name="to" value="${filters.to ?? ""}"></label>
    <button type="submit">${t("Filter", "Filtrele")}</button>
  </form></details>
  <p class="actions">${t("Export this filter:", "Bu filtreyi dışa aktar:")} <a href="${DASHBOARD}/export.csv${exportQuery ? `?${exportQuery}` : ""}">CSV</a>
     · <a href="${DASHBOARD}/export.pdf${exportQuery ? `?${exportQuery}` : ""}">PDF</a></p>
  ${error ? html`<p class="error" role="alert">${error}</p>` : html`<p id="payment-count">${plural(listing?.total ?? 0, "payment", "ödeme")}.</p>`}
  <table aria-label="${t("Payments", "Ödemeler")}" class="payments cards"><thead><tr><th>${t("Payment", "Ödeme")}</th><th class="money">${t("Amount", "Tutar")}</th><th>${t("Status", "Durum")}</th><th class="wide-only">${t("Reference", "Referans")}</th><th>${timeHeading("Created", "Oluşturulma", "sandbox")}</th><th>${t("Method", "Yöntem")}</th><th>${t("From", "Gönderen")}</th><th>${t("To", "Alıcı")}</th><th>${t("Description", "Açıklama")}</th></tr></thead>
  <tbody>${
    listing && listing.payments.length > 0
      ? listing.payments.map((p) => paymentRow(p, accounts))
      : html`<tr><td colspan="9">${
          filterQuery(filters).size > 0
            ? t("No payment matches these filters.", "Bu filtrelere uyan ödeme yok.")
            : t(
                "No payments yet: make one under New payment or through the API.",
                "Henüz ödeme yok: Yeni ödeme sayfasından ya da API ile oluşturun.",
              )
        }</td></tr>`
  }</tbody></table>
  ${paging.length > 0 ? html`<nav aria-label="${t("Pages", "Sayfalar")}" class="paging">${paging}</nav>` : ""}</section>`;
}

/**
 * A row, most telling first: which payment, how much, where it stands, its reference. On a phone the
 * first column's link shows the reference (or the id when there is none) and the Reference column
 * folds away, so a row's first screen holds reference, amount and status; the rest scrolls.
 */
function paymentRow(p: Payment, accounts: readonly StoredAccount[]): SafeHtml {
  const reference = p.reference ?? "";
  return html`<tr><td><a href="${DASHBOARD}/payments/${p.id}">${token(p.id, "wide-only")}${token(reference || p.id, "narrow-only")}</a></td><td class="money">${money(p.amount, p.currency)}</td><td>${statusBadge(p.status)}</td>
    <td class="wide-only">${reference ? token(reference) : ""}</td><td class="detail" data-label="${t("Created", "Oluşturulma")}">${localTime(p.created_at)}</td><td class="detail" data-label="${t("Method", "Yöntem")}">${methodWord(p.method)}</td><td class="detail" data-label="${t("From", "Gönderen")}">${accountName(accounts, p.from_account, "under")}</td><td class="detail" data-label="${t("To", "Alıcı")}">${accountName(accounts, p.to_account, "under")}</td><td class="description detail">${p.description ?? ""}</td></tr>`;
}

/** Why a payment failed at completion, in words: which account, what it held, what was needed. */
function shortfallInWords(shortfall: Shortfall, currency: string, accounts: readonly StoredAccount[]): SafeHtml {
  return html`${accountName(accounts, shortfall.account)} ${t(
    `held ${money(shortfall.heldMinor, currency)} when the payment fell due; it needed ${money(shortfall.neededMinor, currency)}.`,
    `hesabında ödeme vadesi geldiğinde ${money(shortfall.heldMinor, currency)} vardı; ${money(shortfall.neededMinor, currency)} gerekiyordu.`,
  )}`;
}

/** A field of the payment's page in words: a badge, money, a local time, a method's word, an account's name with its id. */
function fieldValue(
  name: string,
  value: unknown,
  currency: string,
  accounts: readonly StoredAccount[],
): SafeHtml | string {
  if (name === "status") return statusBadge(String(value), "payment-status");
  if (name === "amount") return money(Number(value), currency);
  if (name === "method") return methodWord(String(value));
  if (name === "from_account" || name === "to_account") return accountName(accounts, String(value));
  if (name.endsWith("_at")) return localTime(String(value));
  return String(value);
}

/**
 * What a payment's page offers about its approval: nothing when it does not wait for one; `approve`;
 * or `own` when the four-eyes rule is on and the signed-in person submitted it (an Approve would be
 * refused, so the page says who must approve instead).
 */
type ApprovalOffer = "none" | "approve" | "own";

async function approvalOffer(
  deps: PaymentsPagesDeps,
  request: FastifyRequest,
  payment: StoredPayment,
): Promise<ApprovalOffer> {
  if (!awaitsApproval(payment)) return "none";
  if (!(await deps.fourEyes.get(request.dashboardKey))) return "approve";
  const signer = signerOf(request.dashboardSession);
  return signer && !submittedBy(payment, signer) ? "approve" : "own";
}

function paymentDetail(
  payment: StoredPayment,
  csrf: string,
  accounts: readonly StoredAccount[],
  approval: ApprovalOffer,
): SafeHtml {
  const fields = paymentToApi(payment);
  const csrfField = html`<input type="hidden" name="_csrf" value="${csrf}">`;
  const action = (path: string, label: string, danger = false) =>
    html`<form class="inline" method="post" action="${DASHBOARD}/payments/${payment.id}/${path}">${csrfField}<button type="submit" ${danger ? html`class="danger"` : ""}>${label}</button></form>`;
  const rows = Object.entries(fields).map(
    ([name, value]) =>
      html`<tr><th scope="row">${name.endsWith("_at") ? `${fieldLabel(name)} (${clockNote("sandbox")})` : fieldLabel(name)}</th><td>${fieldValue(name, value, fields.currency, accounts)}</td></tr>`,
  );
  const history = payment.history.map(
    (change) =>
      html`<tr><td>${localTime(change.at)}</td><td>${statusBadge(change.status)}</td><td>${t(...CAUSES[change.cause])}${change.actor ? html` · <code>${actorShown(change.actor)}</code>` : ""}</td>
        <td>${change.shortfall ? shortfallInWords(change.shortfall, payment.currency, accounts) : ""}</td></tr>`,
  );
  const cancellable = payment.status === "pending" || payment.status === "approved";
  const failure = payment.status === "failed" ? payment.history.at(-1)?.shortfall : undefined;
  return html`${
    failure
      ? html`<p class="warning" id="failure-reason"><strong>${t("Failed at completion:", "Tamamlanırken başarısız oldu:")}</strong> ${shortfallInWords(failure, payment.currency, accounts)}
    ${t("Nothing moved. Make a new payment once the account holds enough.", "Para hareket etmedi. Hesapta yeterli para olunca yeni bir ödeme oluşturun.")}</p>`
      : ""
  }
  <table aria-label="${t("Payment fields", "Ödeme alanları")}"><tbody>${rows}</tbody></table>
  ${
    approval === "approve"
      ? html`<p>${t(
          "Waiting for an approver (created from the dashboard with the approval workflow on).",
          "Onaylayıcı bekliyor (onay akışı açıkken panelden oluşturuldu).",
        )}</p>`
      : approval === "own"
        ? html`<p class="notice" id="approval-wait">${t(
            "Waiting for another person's approval: the four-eyes rule is on and you submitted this payment. Someone signed in with another API key of this workspace approves it; you can still cancel it.",
            "Başka birinin onayını bekliyor: dört göz kuralı açık ve bu ödemeyi siz gönderdiniz. Bu çalışma alanının başka bir API anahtarıyla oturum açan biri onaylar; siz yine de iptal edebilirsiniz.",
          )}</p>`
        : ""
  }
  <section aria-label="${t("Actions", "İşlemler")}">
    ${approval === "approve" ? action("approve", t("Approve", "Onayla")) : ""}
    ${cancellable ? action("cancel", t("Cancel payment", "Ödemeyi iptal et"), true) : ""}
    <form class="inline" id="force-status" method="post" action="${DASHBOARD}/payments/${payment.id}/status">${csrfField}
      <label>${t("Force status (sandbox control)", "Durumu zorla değiştir (sandbox kontrolü)")} <select name="status">${zPaymentStatus.options.map((s) => html`<option value="${s}" ${s === payment.status ? html`selected` : ""}>${statusWord(s)}</option>`)}</select></label>
      <button type="submit">${t("Force", "Değiştir")}</button>
    </form>
  </section>
  <h2>${t("Status history", "Durum geçmişi")}</h2>
  <table aria-label="${t("Status history", "Durum geçmişi")}"><thead><tr><th>${timeHeading("Time", "Zaman", "sandbox")}</th><th>${t("Status", "Durum")}</th><th>${t("Cause", "Kaynak")}</th><th>${t("Why", "Neden")}</th></tr></thead><tbody>${history}</tbody></table>
  <p class="actions"><a href="${DASHBOARD}">${t("Back to payments", "Ödemelere dön")}</a></p>`;
}
