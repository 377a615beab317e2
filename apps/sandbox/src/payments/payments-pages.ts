import { type Payment, zPaymentMethod, zPaymentStatus } from "@payspec/payments-zod";
import { validateFields } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { SandboxClocks } from "../infrastructure/clock/clock.js";
import { workspaceScope } from "../infrastructure/clock/clock.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { formField, queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime } from "../infrastructure/dashboard-shell/local-time.js";
import { money } from "../infrastructure/dashboard-shell/money-format.js";
import type { WorkspaceSetting } from "../infrastructure/workspace-settings/workspace-setting.js";
import { approvePayment, awaitsApproval } from "./dashboard-actions.js";
import type { ListingFilters } from "./list-payments.js";
import { type BrowsedPage, browsePayments } from "./payments-browse.js";
import type { PaymentsStore, StoredAccount, StoredPayment, TransitionCause } from "./payments-store.js";
import { paymentToApi } from "./serialize.js";

const PAGE_SIZE = 25;

/** The table's filters: the API's, plus method and account (the dashboard's own, as the seed says). */
export const zDashboardFilters = z.object({
  status: zPaymentStatus.optional(),
  method: zPaymentMethod.optional(),
  account: z.string().max(64).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  reference: z.string().max(140).optional(),
});

const FILTER_NAMES = ["status", "method", "account", "from", "to", "reference"] as const;

/** The filters in the request's query: the parsed ones, or the first problem in words. */
export function filtersOf(request: FastifyRequest): { filters: ListingFilters; problem?: string } {
  const raw = Object.fromEntries(FILTER_NAMES.map((name) => [name, queryField(request, name)]));
  const parsed = validateFields(zDashboardFilters, raw);
  if (parsed.ok) return { filters: parsed.data };
  const [field, message] = Object.entries(parsed.problems)[0] as [string, string];
  return { filters: {}, problem: `${field}: ${message}` };
}

/** The query string that repeats these filters (for the next page, the exports). */
export function filterQuery(filters: ListingFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of FILTER_NAMES) if (filters[name]) query.set(name, filters[name] as string);
  return query;
}

/** Who made each change, as the status history says it. */
const CAUSES: Record<TransitionCause, string> = {
  api: "API",
  dashboard: "Dashboard",
  completion: "Completion",
  control: "Control API",
  settlement: "Settlement",
  reconciliation: "Reconciliation",
};

/** What the detail page's actions reported, by the code its redirect carries (never user text). */
const DONE: Record<string, string> = {
  approved: "Approved.",
  cancelled: "Cancelled.",
  forced: "Status forced.",
  created: "Payment created.",
};

export interface PaymentsPagesDeps {
  readonly payments: PaymentsStore;
  readonly clocks: SandboxClocks;
  /** Shown (and switched) on the overview: the approval-workflow and settlement features' settings. */
  readonly approvalWorkflow: WorkspaceSetting<boolean>;
  readonly autoSettlement: WorkspaceSetting<boolean>;
}

/** The overview (accounts, settings, payments) and a payment's page with its actions. */
export function paymentsPages(deps: PaymentsPagesDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const post = { preHandler: ctx.requireSession };

    dashboard.get(DASHBOARD, async (request, reply) => {
      const key = request.dashboardKey;
      if (!key) {
        return request.dashboardSession?.subject.kind === "gateway"
          ? reply.redirect(`${DASHBOARD}/gateway`, 303)
          : ctx.signInPage(request, reply);
      }
      await ctx.catchUp(key);
      // One search box: a payment id opens that payment; anything else is looked up as a reference.
      const search = queryField(request, "q")?.trim();
      if (search && /^pay_[A-Za-z0-9]+$/.test(search) && (await deps.payments.payment(key, search))) {
        return reply.redirect(`${DASHBOARD}/payments/${search}`, 303);
      }
      const { filters: given, problem } = filtersOf(request);
      const filters = search ? { ...given, reference: search } : given;
      let listing: BrowsedPage | undefined;
      let error = problem;
      if (!error && filters.from && filters.to && filters.from > filters.to) error = "from must not be after to.";
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
      const workflow = await deps.approvalWorkflow.get(key);
      const settlement = await deps.autoSettlement.get(key);
      const now = await deps.clocks.now(workspaceScope(key));
      const notice = DONE_OVERVIEW[queryField(request, "done") ?? ""];
      return ctx.render(
        request,
        reply,
        "Accounts and payments",
        html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
        ${accountsTable(accounts)}
        ${settingsSection(ctx.csrf(request), workflow, settlement, now)}
        ${paymentsSection(accounts, filters, listing, error)}`,
        error ? 400 : 200,
      );
    });

    const pageOf = (id: string) => `${DASHBOARD}/payments/${encodeURIComponent(id)}`;

    const detail = async (request: FastifyRequest, reply: FastifyReply, id: string) => {
      const key = request.dashboardKey;
      await ctx.catchUp(key);
      const payment = await deps.payments.payment(key, id);
      if (!payment) {
        return ctx.render(request, reply, "Payment not found", html`<p>No payment ${id} in this workspace.</p>`, 404);
      }
      const notice = DONE[queryField(request, "done") ?? ""];
      return ctx.render(
        request,
        reply,
        `Payment ${payment.id}`,
        html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
        ${paymentDetail(payment, ctx.csrf(request))}`,
      );
    };

    dashboard.get<{ Params: { id: string } }>(
      `${DASHBOARD}/payments/:id`,
      { preHandler: ctx.requireSession },
      async (request, reply) => detail(request, reply, request.params.id),
    );

    const now = async (key: string) => deps.clocks.now(workspaceScope(key));

    dashboard.post<{ Params: { id: string } }>(`${DASHBOARD}/payments/:id/approve`, post, async (request, reply) => {
      const key = request.dashboardKey;
      const { id } = request.params;
      // No completion first: a payment waiting for an approver never becomes due.
      const result = await approvePayment(deps.payments, key, id, await now(key));
      if (!result.ok) {
        return ctx.redirect(request, reply, pageOf(id), {
          error: `Only a dashboard payment waiting for an approver can be approved; this one is ${result.payment?.status ?? "gone"}.`,
        });
      }
      return reply.redirect(`${pageOf(id)}?done=approved`, 303);
    });

    dashboard.post<{ Params: { id: string } }>(`${DASHBOARD}/payments/:id/cancel`, post, async (request, reply) => {
      const key = request.dashboardKey;
      const { id } = request.params;
      await ctx.catchUp(key);
      const result = await deps.payments.transition(
        key,
        id,
        ["pending", "approved"],
        "cancelled",
        await now(key),
        "dashboard",
      );
      if (!result.ok) {
        return ctx.redirect(request, reply, pageOf(id), {
          error: `Only pending or approved payments can be cancelled; this one is ${result.payment?.status ?? "gone"}.`,
        });
      }
      return reply.redirect(`${pageOf(id)}?done=cancelled`, 303);
    });

    // Forcing a status is the control API's job: the dashboard calls it, so the rules and messages are one.
    dashboard.post<{ Params: { id: string } }>(`${DASHBOARD}/payments/:id/status`, post, async (request, reply) => {
      const { id } = request.params;
      const answer = await ctx.control(
        request.dashboardKey,
        "POST",
        `/_sandbox/payments/${encodeURIComponent(id)}/status`,
        {
          status: formField(request, "status") ?? "",
        },
      );
      if (answer.statusCode !== 200) return ctx.redirect(request, reply, pageOf(id), { error: answer.json().message });
      return reply.redirect(`${pageOf(id)}?done=forced`, 303);
    });
  };
}

/** What the overview's controls reported, by the code their redirect carries. */
export const DONE_OVERVIEW: Record<string, string> = {
  "workflow-on": "Approval workflow on: dashboard payments now wait for an approver.",
  "workflow-off": "Approval workflow off: dashboard payments now go straight to processing.",
  "settlement-on": "Automatic settlement on: completed payments settle at 00:00 Istanbul.",
  "settlement-off": "Automatic settlement off: completed payments stay completed.",
  "clock-advanced": "Clock advanced; payments that became due have completed.",
  reset: "Workspace reset to its seed.",
};

function accountsTable(accounts: readonly StoredAccount[]): SafeHtml {
  return html`<section><h2>Accounts</h2>
  <table aria-label="Accounts"><thead><tr><th>Account</th><th>Name</th><th class="money">Balance</th></tr></thead>
  <tbody>${accounts.map((a) => html`<tr><td>${a.id}</td><td>${a.name}</td><td class="money">${money(a.balanceMinor, a.currency)}</td></tr>`)}</tbody></table></section>`;
}

function settingsSection(csrf: string, workflow: boolean, settlement: boolean, now: number): SafeHtml {
  const token = html`<input type="hidden" name="_csrf" value="${csrf}">`;
  return html`<section aria-labelledby="controls-heading"><h2 id="controls-heading">Workspace settings and sandbox controls</h2>
  <form class="inline" method="post" action="${DASHBOARD}/settings/approval-workflow">${token}
    <input type="hidden" name="enabled" value="${workflow ? "off" : "on"}">
    <span>Approval workflow: <strong id="approval-workflow">${workflow ? "on" : "off"}</strong></span>
    <button type="submit">${workflow ? "Turn the approval workflow off" : "Turn the approval workflow on"}</button>
  </form>
  <form class="inline" method="post" action="${DASHBOARD}/settings/settlement">${token}
    <input type="hidden" name="enabled" value="${settlement ? "off" : "on"}">
    <span>Automatic settlement (00:00 Istanbul): <strong id="auto-settlement">${settlement ? "on" : "off"}</strong></span>
    <button type="submit">${settlement ? "Turn automatic settlement off" : "Turn automatic settlement on"}</button>
  </form>
  <form class="inline" method="post" action="${DASHBOARD}/clock/advance">${token}
    <span>Sandbox clock: ${localTime(now, "sandbox-clock")}</span>
    <label>Seconds <input name="seconds" type="number" min="1" step="1" required></label>
    <button type="submit">Advance the clock</button>
  </form>
  <form class="inline" method="post" action="${DASHBOARD}/reset">${token}
    <label><span><input type="checkbox" name="confirm" value="yes" required> Yes, delete this workspace's payments,
      keys, reports and e-mail</span></label>
    <button type="submit">Reset this workspace</button>
  </form></section>`;
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
    paging.push(html`<a href="${at("older", undefined)}">First page</a>`);
    paging.push(html`<a rel="prev" href="${at("newer", listing.first)}">Previous page</a>`);
  }
  if (listing?.hasOlder) paging.push(html`<a rel="next" href="${at("older", listing.last)}">Next page</a>`);
  // The export links carry no `download` attribute: a small export downloads as an attachment, a
  // large one is queued and its redirect opens the Exports page.
  const exportQuery = query.toString();
  return html`<section><h2>Payments</h2>
  <p><a href="${DASHBOARD}/payments/new">New payment</a></p>
  <form class="filters" method="get" action="${DASHBOARD}" aria-label="Filter payments">
    <label>Status <select name="status"><option value="">any</option>${zPaymentStatus.options.map((s) => option(s, filters.status))}</select></label>
    <label>Method <select name="method"><option value="">any</option>${zPaymentMethod.options.map((m) => option(m, filters.method))}</select></label>
    <label>Account <select name="account"><option value="">any</option>${accounts.map((a) => option(a.id, filters.account, `${a.id} (${a.currency})`))}</select></label>
    <label>Created from <input type="date" name="from" value="${filters.from ?? ""}"></label>
    <label>Created to <input type="date" name="to" value="${filters.to ?? ""}"></label>
    <label>Search (payment id or reference) <input type="search" name="q" maxlength="140" value="${filters.reference ?? ""}"></label>
    <button type="submit">Filter</button>
  </form>
  <p>Export this filter: <a href="${DASHBOARD}/export.csv${exportQuery ? `?${exportQuery}` : ""}">CSV</a>
     · <a href="${DASHBOARD}/export.pdf${exportQuery ? `?${exportQuery}` : ""}">PDF</a></p>
  ${error ? html`<p class="error" role="alert">${error}</p>` : html`<p id="payment-count">${listing?.total ?? 0} payments.</p>`}
  <table aria-label="Payments"><thead><tr><th>Created (Istanbul)</th><th>Payment</th><th class="money">Amount</th><th>Method</th><th>From</th><th>To</th><th>Status</th><th>Description</th></tr></thead>
  <tbody>${(listing?.payments ?? []).map(paymentRow)}</tbody></table>
  ${paging.length > 0 ? html`<nav aria-label="Pages" class="paging">${paging}</nav>` : ""}</section>`;
}

function paymentRow(p: Payment): SafeHtml {
  return html`<tr><td>${localTime(p.created_at)}</td><td><a href="${DASHBOARD}/payments/${p.id}">${p.id}</a></td><td class="money">${money(p.amount, p.currency)}</td>
    <td>${p.method}</td><td>${p.from_account}</td><td>${p.to_account}</td><td class="status">${p.status}</td><td>${p.description ?? ""}</td></tr>`;
}

function paymentDetail(payment: StoredPayment, csrf: string): SafeHtml {
  const fields = paymentToApi(payment);
  const token = html`<input type="hidden" name="_csrf" value="${csrf}">`;
  const action = (path: string, label: string) =>
    html`<form class="inline" method="post" action="${DASHBOARD}/payments/${payment.id}/${path}">${token}<button type="submit">${label}</button></form>`;
  const rows = Object.entries(fields).map(
    ([name, value]) =>
      html`<tr><th scope="row">${name}</th><td ${name === "status" ? html`id="payment-status"` : ""}>${name === "amount" ? money(Number(value), fields.currency) : name.endsWith("_at") ? localTime(String(value)) : String(value)}</td></tr>`,
  );
  const history = payment.history.map(
    (change) =>
      html`<tr><td>${localTime(change.at)}</td><td class="status">${change.status}</td><td>${CAUSES[change.cause]}</td></tr>`,
  );
  const cancellable = payment.status === "pending" || payment.status === "approved";
  return html`<table aria-label="Payment fields"><tbody>${rows}</tbody></table>
  ${awaitsApproval(payment) ? html`<p>Waiting for an approver (created from the dashboard with the approval workflow on).</p>` : ""}
  <section aria-label="Actions">
    ${awaitsApproval(payment) ? action("approve", "Approve") : ""}
    ${cancellable ? action("cancel", "Cancel payment") : ""}
    <form class="inline" method="post" action="${DASHBOARD}/payments/${payment.id}/status">${token}
      <label>Force status (sandbox control) <select name="status">${zPaymentStatus.options.map((s) => html`<option value="${s}" ${s === payment.status ? html`selected` : ""}>${s}</option>`)}</select></label>
      <button type="submit">Force</button>
    </form>
  </section>
  <h2>Status history</h2>
  <table aria-label="Status history"><thead><tr><th>Time (Istanbul)</th><th>Status</th><th>Cause</th></tr></thead><tbody>${history}</tbody></table>
  <p><a href="${DASHBOARD}">Back to payments</a></p>`;
}
