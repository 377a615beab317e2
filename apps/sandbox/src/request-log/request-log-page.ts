import type { FastifyInstance } from "fastify";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime } from "../infrastructure/dashboard-shell/local-time.js";
import type { ApiRequestLog, LoggedRequest } from "./api-request-log.js";

/** The status the client saw, or that it saw none. */
const statusSeen = (entry: LoggedRequest) =>
  entry.status === undefined ? "none (connection reset)" : String(entry.status);

/** How often the open log page asks for new rows. */
const REFRESH = "every 2s";

function verdict(entry: LoggedRequest): SafeHtml {
  if (entry.fault) return html`<span class="verdict">injected: ${entry.fault.name}</span>`;
  return entry.violations.length === 0
    ? html`<span class="verdict">conforms</span>`
    : html`<span class="verdict error">${entry.violations.length} violation${entry.violations.length === 1 ? "" : "s"}</span>`;
}

function rows(entries: readonly LoggedRequest[]): SafeHtml {
  // htmx replaces this tbody with the one it fetches, every few seconds, while the page is open.
  return html`<tbody id="request-log-rows" hx-get="${DASHBOARD}/requests/rows" hx-trigger="${REFRESH}" hx-swap="outerHTML">
  ${
    entries.length === 0
      ? html`<tr><td colspan="6">No API requests for this workspace yet. Send one with its API key and it appears here.</td></tr>`
      : entries.map(
          (e) => html`<tr><td>${localTime(e.at)}</td><td>${e.method}</td>
            <td><a href="${DASHBOARD}/requests/${e.id}">${e.url}</a></td><td>${statusSeen(e)}</td>
            <td class="money">${e.latencyMs.toFixed(1)} ms</td><td>${verdict(e)}</td></tr>`,
        )
  }</tbody>`;
}

/**
 * The workspace's recent API requests, live: method, path, status, latency and the spec's verdict on
 * each answer; an entry's page shows the bodies with card numbers masked and CVCs removed.
 */
export function requestLogPage(requestLog: ApiRequestLog): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const signedIn = { preHandler: ctx.requireSession };

    dashboard.get(`${DASHBOARD}/requests`, signedIn, async (request, reply) =>
      ctx.render(
        request,
        reply,
        "Request log",
        html`<p>The last requests made to the payments API with this workspace's key, newest first; this page refreshes
        itself. Each answer is checked against the payments spec.</p>
        <table aria-label="Request log"><thead><tr><th>Time (Istanbul, real time)</th><th>Method</th><th>Path</th><th>Status</th>
        <th class="money">Latency</th><th>Spec verdict</th></tr></thead>${rows(requestLog.entries(request.dashboardKey))}</table>`,
      ),
    );

    dashboard.get(`${DASHBOARD}/requests/rows`, signedIn, async (request, reply) =>
      reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(rows(requestLog.entries(request.dashboardKey)).text),
    );

    dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/requests/:id`, signedIn, async (request, reply) => {
      const entry = requestLog.entry(request.dashboardKey, Number(request.params.id));
      if (!entry) {
        return ctx.render(
          request,
          reply,
          "Request not found",
          html`<p>That request is not in this workspace's log (it keeps the last 100).</p>`,
          404,
        );
      }
      return ctx.render(
        request,
        reply,
        `${entry.method} ${entry.url}`,
        html`<p>${localTime(entry.at)} · status ${statusSeen(entry)} · ${entry.latencyMs.toFixed(1)} ms · ${verdict(entry)}</p>
        ${entry.fault ? html`<p>A fault declared for this workspace struck this request: the client saw ${entry.fault.clientSaw}. It is not judged against the spec.</p>` : ""}
        ${entry.violations.length ? html`<h2>Violations of the spec</h2><ul>${entry.violations.map((v) => html`<li>${v}</li>`)}</ul>` : ""}
        <h2>Request body</h2><pre>${entry.requestBody ?? "(none)"}</pre>
        <h2>Response body</h2><pre>${entry.responseBody ?? "(none)"}</pre>
        <p><a href="${DASHBOARD}/requests">Back to the request log</a></p>`,
      );
    });
  };
}
