import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import { currencyExponent, fromMinorUnits } from "@payspec/client-core";
import { type Payment, zPaymentStatus } from "@payspec/payments-zod";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SandboxClocks } from "../clock.js";
import { workspaceScope } from "../clock.js";
import { workspaceTag } from "../payments/seed.js";
import { paymentToApi } from "../payments/serialize.js";
import type { SandboxSecret } from "../sandbox-secret.js";
import type { PaymentsStore, StoredAccount } from "../store/index.js";
import { html, type SafeHtml } from "./html.js";
import { DASHBOARD, page } from "./layout.js";

export interface DashboardDeps {
  readonly apiKeys: readonly string[];
  readonly payments: PaymentsStore;
  readonly clocks: SandboxClocks;
  readonly secret: SandboxSecret;
  readonly completeAfterMs: number;
}

const SESSION_COOKIE = "payspec_dashboard_session";
/** Cookies never leave the dashboard's path, are invisible to scripts, and are never sent cross-site. */
const COOKIE_OPTIONS = { path: DASHBOARD, httpOnly: true, sameSite: "strict", signed: true } as const;

function money(minor: number, currency: string): string {
  const major = fromMinorUnits(minor, currency);
  const digits = currencyExponent(currency);
  return `${major.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`;
}

/**
 * The sandbox dashboard at /_sandbox/dashboard: a workspace's accounts and payments, by hand, in a
 * browser. Server-rendered HTML (no script), one workspace per session: the session cookie holds the
 * workspace's tag (signed with the sandbox secret), never its key. Every form carries a CSRF token.
 */
export async function registerDashboard(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const byTag = new Map(deps.apiKeys.map((key) => [workspaceTag(key), key]));
  await app.register(async (dashboard) => {
    await dashboard.register(fastifyCookie, { secret: deps.secret.digest("dashboard-cookie", "v1").toString("hex") });
    await dashboard.register(fastifyFormbody);
    await dashboard.register(fastifyCsrf, {
      cookieOpts: COOKIE_OPTIONS,
      getToken: (request) => formField(request, "_csrf"),
    });
    dashboard.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      const message =
        status === 403
          ? "This form has expired or did not come from this dashboard. Go back, reload the page and send it again."
          : status < 500
            ? "That request could not be read. Go back and try again."
            : "Something went wrong on our side. Reload the page.";
      return reply
        .code(status)
        .type("text/html; charset=utf-8")
        .send(
          page(
            "Error",
            html`<p class="error" role="alert">${message}</p><p><a href="${DASHBOARD}">Back to the dashboard</a></p>`,
          ),
        );
    });

    /** The signed-in workspace's API key, or undefined. */
    const sessionKey = (request: FastifyRequest): string | undefined => {
      const raw = request.cookies[SESSION_COOKIE];
      if (!raw) return undefined;
      const unsigned = request.unsignCookie(raw);
      return unsigned.valid && unsigned.value ? byTag.get(unsigned.value) : undefined;
    };
    const send = (reply: FastifyReply, body: string, status = 200) =>
      reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(body);

    const signInPage = (reply: FastifyReply, error?: string) =>
      send(
        reply,
        page(
          "Sign in",
          html`${error ? html`<p class="error" role="alert" id="sign-in-error">${error}</p>` : ""}
          <form method="post" action="${DASHBOARD}/sign-in">
            <input type="hidden" name="_csrf" value="${reply.generateCsrf()}">
            <label>Workspace API key (a sandbox key, such as sk_sandbox_demo_1)
              <input name="apiKey" type="password" autocomplete="off" required ${error ? html`aria-describedby="sign-in-error"` : ""}></label>
            <p><button type="submit">Sign in</button></p>
          </form>`,
        ),
        error ? 401 : 200,
      );

    dashboard.get(DASHBOARD, async (request, reply) => {
      const key = sessionKey(request);
      if (!key) return signInPage(reply);
      const csrf = reply.generateCsrf();
      const query = request.query as Record<string, string | undefined>;
      // The listing goes through the API, which completes due payments first; balances read after it agree.
      const listing = await listPayments(app, key, query);
      const accounts = await deps.payments.accounts(key);
      return send(
        reply,
        page("Accounts and payments", html`${accountsTable(accounts)}${paymentsSection(listing, query)}`, {
          workspace: workspaceTag(key),
          csrf,
        }),
      );
    });

    dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/payments/:id`, async (request, reply) => {
      const key = sessionKey(request);
      if (!key) return reply.redirect(DASHBOARD, 303);
      const csrf = reply.generateCsrf();
      await deps.payments.completeDue(key, await deps.clocks.now(workspaceScope(key)), deps.completeAfterMs);
      const payment = await deps.payments.payment(key, request.params.id);
      const session = { workspace: workspaceTag(key), csrf };
      if (!payment) {
        return send(
          reply,
          page("Payment not found", html`<p>No payment ${request.params.id} in this workspace.</p>`, session),
          404,
        );
      }
      const fields = paymentToApi(payment);
      const rows = Object.entries(fields).map(
        ([name, value]) =>
          html`<tr><th scope="row">${name}</th><td>${name === "amount" ? money(Number(value), fields.currency) : String(value)}</td></tr>`,
      );
      const history = payment.history.map(
        (change) =>
          html`<tr><td>${new Date(change.at).toISOString()}</td><td class="status">${change.status}</td><td>${CAUSES[change.cause]}</td></tr>`,
      );
      return send(
        reply,
        page(
          `Payment ${payment.id}`,
          html`<table aria-label="Payment fields"><tbody>${rows}</tbody></table>
          <h2>Status history</h2>
          <table aria-label="Status history"><thead><tr><th>Time</th><th>Status</th><th>Cause</th></tr></thead><tbody>${history}</tbody></table>
          <p><a href="${DASHBOARD}">Back to payments</a></p>`,
          session,
        ),
      );
    });

    dashboard.post(`${DASHBOARD}/sign-in`, { preHandler: dashboard.csrfProtection }, async (request, reply) => {
      const key = formField(request, "apiKey") ?? "";
      if (!deps.apiKeys.includes(key)) {
        return signInPage(
          reply,
          "That is not the API key of a workspace of this sandbox. Use one it printed at start.",
        );
      }
      reply.setCookie(SESSION_COOKIE, workspaceTag(key), COOKIE_OPTIONS);
      return reply.redirect(DASHBOARD, 303);
    });

    dashboard.post(`${DASHBOARD}/sign-out`, { preHandler: dashboard.csrfProtection }, async (_request, reply) => {
      reply.clearCookie(SESSION_COOKIE, { path: DASHBOARD });
      return reply.redirect(DASHBOARD, 303);
    });
  });
}

const CAUSES = { api: "API", dashboard: "Dashboard", completion: "Completion", control: "Control API" } as const;

function formField(request: FastifyRequest, name: string): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === "string" ? value : undefined;
}

function accountsTable(accounts: readonly StoredAccount[]): SafeHtml {
  return html`<h2>Accounts</h2>
  <table aria-label="Accounts"><thead><tr><th>Account</th><th>Name</th><th class="money">Balance</th></tr></thead>
  <tbody>${accounts.map((a) => html`<tr><td>${a.id}</td><td>${a.name}</td><td class="money">${money(a.balanceMinor, a.currency)}</td></tr>`)}</tbody></table>`;
}

interface Listing {
  readonly status: number;
  readonly payments: readonly Payment[];
  readonly total: number;
  readonly nextCursor?: string;
  readonly error?: string;
}

/** The payments API itself, in process: its filters, its validation, its cursors. */
async function listPayments(
  app: FastifyInstance,
  key: string,
  query: Record<string, string | undefined>,
): Promise<Listing> {
  const params = new URLSearchParams({ limit: "25" });
  if (query.cursor) params.set("cursor", query.cursor);
  for (const name of ["status", "from", "to"] as const) if (query[name]) params.set(name, query[name] as string);
  const answer = await app.inject({
    method: "GET",
    url: `/v1/payments?${params}`,
    headers: { authorization: `Bearer ${key}` },
  });
  const body = answer.json();
  if (answer.statusCode !== 200) return { status: answer.statusCode, payments: [], total: 0, error: body.message };
  return {
    status: 200,
    payments: body.data,
    total: body.pagination.total,
    ...(body.pagination.next_cursor ? { nextCursor: body.pagination.next_cursor } : {}),
  };
}

function paymentsSection(listing: Listing, query: Record<string, string | undefined>): SafeHtml {
  const statuses = zPaymentStatus.options;
  const next = new URLSearchParams();
  for (const name of ["status", "from", "to"] as const) if (query[name]) next.set(name, query[name] as string);
  if (listing.nextCursor) next.set("cursor", listing.nextCursor);
  return html`<h2>Payments</h2>
  <form class="filters" method="get" action="${DASHBOARD}" aria-label="Filter payments">
    <label>Status <select name="status"><option value="">any</option>${statuses.map(
      (s) => html`<option value="${s}" ${query.status === s ? html`selected` : ""}>${s}</option>`,
    )}</select></label>
    <label>Created from <input type="date" name="from" value="${query.from ?? ""}"></label>
    <label>Created to <input type="date" name="to" value="${query.to ?? ""}"></label>
    <button type="submit">Filter</button>
  </form>
  ${listing.error ? html`<p class="error" role="alert">${listing.error}</p>` : html`<p>${listing.total} payments.</p>`}
  <table aria-label="Payments"><thead><tr><th>Created</th><th>Payment</th><th class="money">Amount</th><th>Method</th><th>From</th><th>To</th><th>Status</th><th>Description</th></tr></thead>
  <tbody>${listing.payments.map(
    (
      p,
    ) => html`<tr><td>${p.created_at}</td><td><a href="${DASHBOARD}/payments/${p.id}">${p.id}</a></td><td class="money">${money(p.amount, p.currency)}</td>
      <td>${p.method}</td><td>${p.from_account}</td><td>${p.to_account}</td><td class="status">${p.status}</td><td>${p.description ?? ""}</td></tr>`,
  )}</tbody></table>
  ${listing.nextCursor ? html`<p><a rel="next" href="${DASHBOARD}?${next.toString()}">Next page</a></p>` : ""}`;
}
