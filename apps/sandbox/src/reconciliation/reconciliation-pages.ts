import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardContext } from "../infrastructure/dashboard-shell/context.js";
import { formField, queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD, statusBadge } from "../infrastructure/dashboard-shell/layout.js";
import { localTime } from "../infrastructure/dashboard-shell/local-time.js";
import { money } from "../infrastructure/dashboard-shell/money-format.js";
import { layoutsSection, registerLayoutActions } from "./statement-layout-pages.js";

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
      <p>The statement as the bank sent it: ISO 20022 camt.053 (XML), SWIFT MT940, or the internet branch's
      CSV export (<code>Tarih;Açıklama;Tutar;Bakiye</code>, or debit and credit columns), in UTF-8,
      Windows-1254 or ISO-8859-9; or the sandbox's own CSV (<code>reference,amount_minor,currency,value_date</code>).
      Each debit is matched to the settled payment its reference names (in a reference field or as a word of the
      description), by amount and currency; it becomes reconciled.</p>
      <form method="post" action="${DASHBOARD}/reconciliation" class="stacked">${token(request)}
        <label>Statement file <input type="file" id="statement-file" accept=".csv,.xml,.sta,.txt,.940,text/csv,text/xml"></label>
        <input type="hidden" name="statement_base64" id="statement-base64">
        <label>Or its text (choosing a file fills this in)
          <textarea name="statement" id="statement" rows="8"></textarea></label>
        <p><button type="submit">Reconcile</button></p>
      </form></section>
      <h2>Past runs</h2>
      <table aria-label="Reconciliation runs"><thead><tr><th>Run at (Istanbul)</th><th>Matched</th><th>Other lines</th>
        <th>Settled, no line</th><th></th><th></th></tr></thead>
      <tbody>${rows.length ? rows : html`<tr><td colspan="6">No statement imported yet.</td></tr>`}</tbody></table>
      ${await layoutsSection(ctx, request)}
      <script src="${DASHBOARD}/assets/statement-file.js" defer></script>`,
      status,
    );
  }

  dashboard.get(`${DASHBOARD}/reconciliation`, signedIn, async (request, reply) => reconciliationPage(request, reply));
  registerLayoutActions(dashboard, ctx, reconciliationPage);

  dashboard.post(`${DASHBOARD}/reconciliation`, signedIn, async (request, reply) => {
    // The file's own bytes when one was chosen (a Windows-1254 file stays Windows-1254), else the text.
    const encoded = formField(request, "statement_base64");
    const bytes = encoded ? Buffer.from(encoded, "base64") : Buffer.from(formField(request, "statement") ?? "", "utf8");
    const answer = await ctx.control(request.dashboardKey, "POST", "/_sandbox/reconciliations", bytes);
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
      lines: {
        line: number;
        outcome: string;
        reference: string;
        amount_minor: number;
        currency: string;
        value_date: string;
        direction?: string;
        narrative?: string;
        payment_id?: string;
        payment_amount_minor?: number;
      }[];
    };
    const outcome = queryField(request, "outcome");
    const shown = outcome ? run.lines.filter((l) => l.outcome === outcome) : run.lines;
    const outcomes = [...new Set(run.lines.map((l) => l.outcome))];
    const lines = shown.map(
      (l) => html`<tr><td>${l.line}</td><td>${statusBadge(l.outcome)}</td><td>${l.value_date}</td>
        <td class="money">${l.direction === "credit" ? "+" : ""}${money(l.amount_minor, l.currency)}</td>
        <td>${l.reference}${l.narrative ? html`<br>${l.narrative}` : ""}</td>
        <td>${l.payment_id ? html`<a href="${DASHBOARD}/payments/${l.payment_id}">${l.payment_id}</a>` : ""}</td>
        <td class="money">${l.payment_amount_minor === undefined ? "" : money(l.payment_amount_minor, l.currency)}</td></tr>`,
    );
    return ctx.render(
      request,
      reply,
      `Reconciliation run of ${localTime(run.at)}`,
      html`<p>${run.counts.matched ?? 0} matched, ${run.unmatched_payments} settled payments with no line.
        <a href="${DASHBOARD}/reconciliation/${run.id}/report.csv">Report (CSV)</a> ·
        <a href="${DASHBOARD}/reconciliation">All runs</a></p>
      <form class="filters" method="get" action="${DASHBOARD}/reconciliation/${run.id}" aria-label="Filter lines">
        <label>Outcome <select name="outcome"><option value="">any</option>${outcomes.map((o) => html`<option value="${o}" ${o === outcome ? html`selected` : ""}>${o.replaceAll("_", " ")}</option>`)}</select></label>
        <button type="submit">Show</button></form>
      <table aria-label="Statement lines"><thead><tr><th>Line</th><th>Outcome</th><th>Value date</th><th class="money">Statement amount</th>
        <th>Reference and description</th><th>Payment</th><th class="money">Payment amount</th></tr></thead>
      <tbody>${lines.length > 0 ? lines.slice(0, 1000) : html`<tr><td colspan="7">No lines${outcome ? " with this outcome" : ""}.</td></tr>`}</tbody></table>`,
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
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  document.getElementById("statement-base64").value = btoa(binary);
  document.getElementById("statement").value = await file.text();
});
`;
