import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardContext } from "../infrastructure/dashboard-shell/context.js";
import { formField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { localTime } from "../infrastructure/dashboard-shell/local-time.js";

interface RunSummary {
  readonly id: string;
  readonly at: string;
  readonly repeat_of?: string;
  readonly counts: Record<string, number>;
  readonly unmatched_payments: number;
}

/**
 * Reconciliation: a statement imported by hand, its runs and their lines. Every action goes through
 * the control API as the signed-in workspace, so its rules and messages are the only ones.
 */
export function registerReconciliationPages(dashboard: FastifyInstance, ctx: DashboardContext): void {
  const signedIn = { preHandler: ctx.requireSession };
  const token = (request: FastifyRequest) => html`<input type="hidden" name="_csrf" value="${ctx.csrf(request)}">`;

  async function reconciliationPage(request: FastifyRequest, reply: FastifyReply, result?: SafeHtml, status = 200) {
    const runs = (await ctx.control(request.dashboardKey, "GET", "/_sandbox/reconciliations")).json()
      .data as RunSummary[];
    const rows = runs.map(
      (r) => html`<tr><td>${localTime(r.at)}</td><td>${r.counts.matched ?? 0}</td>
        <td>${Object.values(r.counts).reduce((a, b) => a + b, 0) - (r.counts.matched ?? 0)}</td>
        <td>${r.unmatched_payments}</td><td>${r.repeat_of ? "repeats an earlier run" : ""}</td>
        <td><a href="${DASHBOARD}/reconciliation/${r.id}">Lines</a> · <a href="${DASHBOARD}/reconciliation/${r.id}/report.csv">Report (CSV)</a></td></tr>`,
    );
    return ctx.render(
      request,
      reply,
      "Reconciliation",
      html`${result ?? ""}
      <section aria-labelledby="import"><h2 id="import">Import a statement</h2>
      <p>CSV in UTF-8 with the header <code>reference,amount_minor,currency,value_date</code>. Each line is
      matched to the settled payment with its reference, amount and currency, which becomes reconciled.</p>
      <form method="post" action="${DASHBOARD}/reconciliation" class="stacked">${token(request)}
        <label>Statement file <input type="file" id="statement-file" accept=".csv,text/csv"></label>
        <label>Statement (the file's text; choosing a file fills it in)
          <textarea name="statement" id="statement" rows="8" required></textarea></label>
        <p><button type="submit">Reconcile</button></p>
      </form></section>
      <h2>Past runs</h2>
      <table aria-label="Reconciliation runs"><thead><tr><th>Run at (Istanbul)</th><th>Matched</th><th>Other lines</th>
        <th>Settled, no line</th><th></th><th></th></tr></thead>
      <tbody>${rows.length ? rows : html`<tr><td colspan="6">No statement imported yet.</td></tr>`}</tbody></table>
      <script src="${DASHBOARD}/assets/statement-file.js" defer></script>`,
      status,
    );
  }

  dashboard.get(`${DASHBOARD}/reconciliation`, signedIn, async (request, reply) => reconciliationPage(request, reply));

  dashboard.post(`${DASHBOARD}/reconciliation`, signedIn, async (request, reply) => {
    const statement = formField(request, "statement") ?? "";
    const answer = await ctx.control(
      request.dashboardKey,
      "POST",
      "/_sandbox/reconciliations",
      Buffer.from(statement, "utf8"),
    );
    if (answer.statusCode !== 201) {
      return reconciliationPage(request, reply, html`<p class="error" role="alert">${answer.json().message}</p>`, 400);
    }
    const run = answer.json() as RunSummary;
    return ctx.redirect(request, reply, `${DASHBOARD}/reconciliation/${encodeURIComponent(run.id)}`, {
      notice: `${run.counts.matched ?? 0} matched, ${run.unmatched_payments} settled payments with no line${
        run.repeat_of ? " (this statement was imported before: nothing was reconciled twice)" : ""
      }.`,
    });
  });

  // One run's page: what an import redirects to, so a reload shows the run again and imports nothing.
  dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/reconciliation/:id`, signedIn, async (request, reply) => {
    const answer = await ctx.control(
      request.dashboardKey,
      "GET",
      `/_sandbox/reconciliations/${encodeURIComponent(request.params.id)}`,
    );
    if (answer.statusCode !== 200) return reconciliationPage(request, reply, undefined, 404);
    const run = answer.json() as RunSummary & {
      lines: { line: number; outcome: string; reference: string; payment_id?: string }[];
    };
    const lines = run.lines.map(
      (l) => html`<tr><td>${l.line}</td><td>${l.reference}</td><td class="status">${l.outcome.replaceAll("_", " ")}</td>
        <td>${l.payment_id ? html`<a href="${DASHBOARD}/payments/${l.payment_id}">${l.payment_id}</a>` : ""}</td></tr>`,
    );
    return ctx.render(
      request,
      reply,
      `Reconciliation run of ${localTime(run.at)}`,
      html`<p>${run.counts.matched ?? 0} matched, ${run.unmatched_payments} settled payments with no line.
        <a href="${DASHBOARD}/reconciliation/${run.id}/report.csv">Report (CSV)</a> ·
        <a href="${DASHBOARD}/reconciliation">All runs</a></p>
      <table aria-label="Statement lines"><thead><tr><th>Line</th><th>Reference</th><th>Outcome</th><th>Payment</th></tr></thead>
      <tbody>${lines.slice(0, 1000)}</tbody></table>`,
    );
  });

  dashboard.get<{ Params: { id: string } }>(
    `${DASHBOARD}/reconciliation/:id/report.csv`,
    signedIn,
    async (request, reply) => {
      const answer = await ctx.control(
        request.dashboardKey,
        "GET",
        `/_sandbox/reconciliations/${encodeURIComponent(request.params.id)}/report.csv`,
      );
      if (answer.statusCode !== 200) return reconciliationPage(request, reply, undefined, 404);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", answer.headers["content-disposition"] as string)
        .send(answer.rawPayload);
    },
  );
}

/** Fills the statement box from the chosen file: the dashboard's forms are urlencoded, files are not. */
export const STATEMENT_FILE_SCRIPT = `
document.getElementById("statement-file")?.addEventListener("change", async (event) => {
  const file = event.target.files?.[0];
  if (file) document.getElementById("statement").value = await file.text();
});
`;
