import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { csrfField } from "../infrastructure/dashboard-shell/csrf-field.js";
import {
  errorSummary,
  type FormProblems,
  fieldAttributes,
  fieldError,
} from "../infrastructure/dashboard-shell/error-summary.js";
import { FILE_TOO_LARGE, fileForm, formFile } from "../infrastructure/dashboard-shell/file-forms.js";
import { formField, queryField, typedAgain } from "../infrastructure/dashboard-shell/form-fields.js";
import { html } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD, statusBadge } from "../infrastructure/dashboard-shell/layout.js";
import { clockNote, localTime, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { calendarDay, dateTime, money } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import { statusWord } from "../infrastructure/i18n/status-words.js";
import type { Reconciliations, RunSummaryView } from "./reconciliations.js";
import { sendReportDownload } from "./report-download.js";
import { STATEMENT_MAX_BYTES } from "./statement-file.js";
import { layoutsSection, registerLayoutActions } from "./statement-layout-pages.js";

/** What is wrong with the page's two forms: the statement import's and the new layout's. */
export interface PageProblems {
  readonly statement?: FormProblems;
  readonly layout?: FormProblems;
  /** What was typed into the refused form, by box: shown again to be corrected, never retyped. */
  readonly entered?: Readonly<Record<string, string>>;
}

/** The import form's boxes, in its order, by the label each shows. */
const statementLabels = () => ({
  statement_file: t("Statement file", "Ekstre dosyası"),
  statement: t("Or its text", "Ya da metni"),
});

/** A run as its pages show it: the control API's view, with what did not add up in the file. */
type RunSummary = RunSummaryView & {
  /** What did not add up in the file (an MT940's balances), though its lines were read. */
  readonly warnings?: readonly string[];
};

async function reconciliationPage(
  reconciliations: Reconciliations,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
  status = 200,
  /** What is wrong with a refused import or layout, shown on its form beside its box. */
  problems: PageProblems = {},
) {
  const statementProblems = problems.statement ?? {};
  const labels = statementLabels();
  const runs = await reconciliations.runs(request.dashboardKey);
  const rows = runs.map(
    (r) => html`<tr><td>${localTime(r.at)}</td><td>${r.counts.matched ?? 0}</td>
    <td>${Object.values(r.counts).reduce((a, b) => a + b, 0) - (r.counts.matched ?? 0)}</td>
    <td>${r.unmatched_payments}</td><td>${r.repeat_of ? t("repeats an earlier run", "önceki bir çalıştırmanın tekrarı") : ""}</td>
    <td><a href="${DASHBOARD}/reconciliation/${r.id}">${t("Lines", "Satırlar")}</a> · <a href="${DASHBOARD}/reconciliation/${r.id}/report.csv">${t("Report (CSV)", "Rapor (CSV)")}</a></td></tr>`,
  );
  return ctx.render(
    request,
    reply,
    t("Reconciliation", "Mutabakat"),
    html`<section aria-labelledby="import"><h2 id="import">${t("Import a statement", "Hesap ekstresi yükle")}</h2>
  <p>${t(
    "The statement as the bank sent it: ISO 20022 camt.053 (XML), SWIFT MT940, or the internet branch's CSV export (Tarih;Açıklama;Tutar;Bakiye, or debit and credit columns), in UTF-8, Windows-1254 or ISO-8859-9; or the sandbox's own CSV (reference,amount_minor,currency,value_date). Each debit is matched to the settled payment its reference names (in a reference field or as a word of the description), by amount and currency; it becomes reconciled.",
    "Ekstre, bankanın gönderdiği gibi: ISO 20022 camt.053 (XML), SWIFT MT940 ya da internet şubesinin CSV dışa aktarımı (Tarih;Açıklama;Tutar;Bakiye ya da borç ve alacak sütunları); UTF-8, Windows-1254 ya da ISO-8859-9 kodlamasında; veya sandbox'ın kendi CSV'si (reference,amount_minor,currency,value_date). Her borç kaydı, referansının (bir referans alanında ya da açıklamanın bir sözcüğü olarak) gösterdiği hesaba geçmiş ödemeyle tutar ve para birimine göre eşleştirilir ve mutabakatı yapılır.",
  )}</p>
  ${errorSummary(statementProblems, labels)}
  <form method="post" action="${DASHBOARD}/reconciliation" enctype="multipart/form-data" class="stacked">${csrfField(ctx, request)}
    <label>${labels.statement_file} ${fieldError(statementProblems, "statement_file")}
      <input type="file" name="statement_file" ${fieldAttributes(statementProblems, "statement_file")} accept=".csv,.xml,.sta,.txt,.940,.mt940,text/csv,text/xml,text/plain"></label>
    <label>${labels.statement} ${fieldError(statementProblems, "statement")}
      <textarea name="statement" rows="8" ${fieldAttributes(statementProblems, "statement")}>${problems.entered?.statement ?? ""}</textarea></label>
    <p><button type="submit">${t("Reconcile", "Mutabakat yap")}</button></p>
  </form></section>
  <h2>${t("Past runs", "Geçmiş çalıştırmalar")}</h2>
  <table aria-label="${t("Reconciliation runs", "Mutabakat çalıştırmaları")}"><thead><tr><th>${timeHeading("Run at", "Çalıştırma", "sandbox")}</th><th>${t("Matched", "Eşleşen")}</th><th>${t("Other lines", "Diğer satırlar")}</th>
    <th>${t("Settled, no line", "Hesaba geçmiş, satırı yok")}</th><th></th><th></th></tr></thead>
  <tbody>${rows.length ? rows : html`<tr><td colspan="6">${t("No statement imported yet.", "Henüz ekstre yüklenmedi.")}</td></tr>`}</tbody></table>
  ${await layoutsSection(reconciliations, ctx, request, problems.layout ?? {}, problems.entered ?? {})}`,
    status,
  );
}

/**
 * The form a browser sends as it is (multipart, no script): the file's own bytes when one was chosen
 * (a Windows-1254 file stays Windows-1254), else the text. A refusal is the control API's own
 * message, beside the box it came from.
 */
async function importStatement(
  reconciliations: Reconciliations,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const file = formFile(request, "statement_file");
  const box = file === undefined ? "statement" : "statement_file";
  if (file === FILE_TOO_LARGE) {
    const tooLarge = t(
      `The file is larger than ${STATEMENT_MAX_BYTES / 1024 / 1024} MB; split it by value date.`,
      `Dosya ${STATEMENT_MAX_BYTES / 1024 / 1024} MB'tan büyük; valör tarihine göre bölün.`,
    );
    return reconciliationPage(reconciliations, ctx, request, reply, 413, { statement: { [box]: tooLarge } });
  }
  const bytes = file ?? Buffer.from(formField(request, "statement") ?? "", "utf8");
  let run: RunSummary;
  try {
    run = await reconciliations.import(request.dashboardKey, bytes);
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    // A pasted statement comes back as pasted, to be corrected where its line is named.
    const pasted = file === undefined ? typedAgain(formField(request, "statement") ?? "") : "";
    return reconciliationPage(reconciliations, ctx, request, reply, 400, {
      statement: { [box]: error.message },
      entered: { statement: pasted },
    });
  }
  return ctx.redirect(request, reply, `${DASHBOARD}/reconciliation/${encodeURIComponent(run.id)}`, {
    notice: t(
      `${run.counts.matched ?? 0} matched, ${run.unmatched_payments} settled payments with no line${
        run.repeat_of ? " (this statement was imported before: nothing was reconciled twice)" : ""
      }.`,
      `${run.counts.matched ?? 0} eşleşti, ${run.unmatched_payments} hesaba geçmiş ödemenin satırı yok${
        run.repeat_of ? " (bu ekstre daha önce yüklenmişti: hiçbir şeyin mutabakatı iki kez yapılmadı)" : ""
      }.`,
    ),
  });
}

/** A run: each statement line with its outcome, filtered by outcome. */
async function runPage(
  reconciliations: Reconciliations,
  ctx: DashboardContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  const run = await reconciliations.run(request.dashboardKey, request.params.id);
  if (!run) return reconciliationPage(reconciliations, ctx, request, reply, 404);
  const outcome = queryField(request, "outcome");
  const shown = outcome ? run.lines.filter((l) => l.outcome === outcome) : run.lines;
  const outcomes = [...new Set(run.lines.map((l) => l.outcome))];
  const lines = shown.map(
    (l) => html`<tr><td>${l.line}</td><td>${statusBadge(l.outcome)}</td><td>${calendarDay(l.value_date)}</td>
    <td class="money">${l.direction === "credit" ? "+" : ""}${money(l.amount_minor, l.currency)}</td>
    <td>${l.reference}${l.narrative ? html`<br>${l.narrative}` : ""}</td>
    <td>${l.payment_id ? html`<a href="${DASHBOARD}/payments/${l.payment_id}">${l.payment_id}</a>` : ""}</td>
    <td class="money">${l.payment_amount_minor === undefined ? "" : money(l.payment_amount_minor, l.currency)}</td></tr>`,
  );
  return ctx.render(
    request,
    reply,
    // The title is text (the tab's and the heading's): the time as words, not as a <time> element.
    `${t("Reconciliation run of", "Mutabakat çalıştırması:")} ${dateTime(Date.parse(run.at))} (${clockNote("sandbox")})`,
    html`<p>${t(
      `${run.counts.matched ?? 0} matched, ${run.unmatched_payments} settled payments with no line.`,
      `${run.counts.matched ?? 0} eşleşti, ${run.unmatched_payments} hesaba geçmiş ödemenin satırı yok.`,
    )}
    <a href="${DASHBOARD}/reconciliation/${run.id}/report.csv">${t("Report (CSV)", "Rapor (CSV)")}</a> ·
    <a href="${DASHBOARD}/reconciliation">${t("All runs", "Tüm çalıştırmalar")}</a></p>
  ${outcomeCounts(run)}
  ${
    run.warnings?.length
      ? html`<section class="warning" aria-labelledby="run-warnings"><h2 id="run-warnings">${t("The file did not add up", "Dosya tutmadı")}</h2>
        <ul>${run.warnings.map((warning) => html`<li>${warning}</li>`)}</ul></section>`
      : ""
  }
  <form class="filters" method="get" action="${DASHBOARD}/reconciliation/${run.id}" aria-label="${t("Filter lines", "Satırları filtrele")}">
    <label>${t("Outcome", "Sonuç")} <select name="outcome"><option value="">${t("any", "tümü")}</option>${outcomes.map((o) => html`<option value="${o}" ${o === outcome ? html`selected` : ""}>${statusWord(o)}</option>`)}</select></label>
    <button type="submit">${t("Show", "Göster")}</button></form>
  <table aria-label="${t("Statement lines", "Ekstre satırları")}"><thead><tr><th>${t("Line", "Satır")}</th><th>${t("Outcome", "Sonuç")}</th><th>${t("Value date", "Valör")}</th><th class="money">${t("Statement amount", "Ekstre tutarı")}</th>
    <th>${t("Reference and description", "Referans ve açıklama")}</th><th>${t("Payment", "Ödeme")}</th><th class="money">${t("Payment amount", "Ödeme tutarı")}</th></tr></thead>
  <tbody>${
    lines.length > 0
      ? lines.slice(0, 1000)
      : html`<tr><td colspan="7">${outcome ? t("No lines with this outcome.", "Bu sonuçla satır yok.") : t("No lines.", "Satır yok.")}</td></tr>`
  }</tbody></table>`,
  );
}

/** A run's report as CSV. */
async function runReport(
  reconciliations: Reconciliations,
  ctx: DashboardContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  const { id } = request.params;
  const write = await reconciliations.report(request.dashboardKey, id);
  if (!write) return reconciliationPage(reconciliations, ctx, request, reply, 404);
  return sendReportDownload(reply, id, write);
}

/**
 * Reconciliation: a statement imported by hand, its runs and their lines. Every action goes through
 * the same `Reconciliations` as the control API, so its rules and messages are the only ones.
 */
export const reconciliationPages =
  (reconciliations: Reconciliations): DashboardPages =>
  (dashboard: FastifyInstance, ctx: DashboardContext): void => {
    const signedIn = { preHandler: ctx.requireSession };

    dashboard.get(`${DASHBOARD}/reconciliation`, signedIn, async (request, reply) =>
      reconciliationPage(reconciliations, ctx, request, reply),
    );
    registerLayoutActions(dashboard, ctx, reconciliations, (request, reply, status, problems) =>
      reconciliationPage(reconciliations, ctx, request, reply, status, problems),
    );

    const upload = { ...signedIn, ...fileForm(STATEMENT_MAX_BYTES) };
    dashboard.post(`${DASHBOARD}/reconciliation`, upload, (request, reply) =>
      importStatement(reconciliations, ctx, request, reply),
    );

    // One run's page: what an import redirects to, so a reload shows the run again and imports nothing.
    dashboard.get<{ Params: { id: string } }>(`${DASHBOARD}/reconciliation/:id`, signedIn, (request, reply) =>
      runPage(reconciliations, ctx, request, reply),
    );

    dashboard.get<{ Params: { id: string } }>(
      `${DASHBOARD}/reconciliation/:id/report.csv`,
      signedIn,
      (request, reply) => runReport(reconciliations, ctx, request, reply),
    );
  };

/**
 * Every outcome of a run's lines with its count, in words ("not booked by the bank: 1"): lines a bank
 * marked pending or informational are read but never reconciled, and this is where that shows.
 */
function outcomeCounts(run: RunSummary) {
  const counts = Object.entries(run.counts).filter(([, count]) => count > 0);
  return counts.length === 0
    ? ""
    : html`<p>${counts.map(([outcome, count], i) => html`${i > 0 ? " · " : ""}${statusBadge(outcome)} ${count}`)}</p>`;
}
