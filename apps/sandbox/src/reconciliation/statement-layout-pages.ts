import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { confirmed, confirmPage } from "../infrastructure/dashboard-shell/confirm.js";
import type { DashboardContext } from "../infrastructure/dashboard-shell/context.js";
import { formField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import type { mappingToApi } from "./statement-mappings.js";

type LayoutView = ReturnType<typeof mappingToApi>;
const PATH = `${DASHBOARD}/reconciliation/layouts`;

const layoutsOf = async (ctx: DashboardContext, key: string) =>
  (await ctx.control(key, "GET", "/_sandbox/settings/statement-mappings")).json().mappings as LayoutView[];

/** The workspace's own bank CSV layouts and the form that adds one: part of the Reconciliation page. */
export async function layoutsSection(ctx: DashboardContext, request: FastifyRequest): Promise<SafeHtml> {
  const layouts = await layoutsOf(ctx, request.dashboardKey);
  const token = html`<input type="hidden" name="_csrf" value="${ctx.csrf(request)}">`;
  const rows = layouts.map(
    (l, i) => html`<tr><td>${l.name}</td><td>${l.date} (${l.date_format})</td>
      <td>${l.amount ?? `${l.debit} / ${l.credit}`}</td><td>${l.narrative.join(", ")}</td>
      <td>${l.currency_column ?? l.currency ?? ""}</td><td>${l.decimal === "," ? "1.500,75" : "1,500.75"}</td>
      <td><form method="post" action="${PATH}/${i}/remove" class="inline">${token}
        <button type="submit" class="danger" aria-label="Remove ${l.name}">Remove</button></form></td></tr>`,
  );
  return html`<section aria-labelledby="layouts"><h2 id="layouts">Your banks' CSV layouts</h2>
    <p>camt.053, MT940 and the common Turkish exports are recognised by themselves. For another bank's CSV,
      name its columns once; a statement whose header has them is read this way, before the built-in layouts.</p>
    <table aria-label="CSV layouts"><thead><tr><th>Name</th><th>Date</th><th>Amount</th><th>Description</th>
      <th>Currency</th><th>Numbers</th><th></th></tr></thead>
    <tbody>${rows.length > 0 ? rows : html`<tr><td colspan="7">None yet.</td></tr>`}</tbody></table>
    <form method="post" action="${PATH}" class="stacked" aria-label="Add a CSV layout">${token}
      <label>Name <input name="name" required maxlength="80"></label>
      <label>Date column <input name="date" required maxlength="60" placeholder="Valör"></label>
      <label>Date format <select name="date_format"><option>dd.MM.yyyy</option><option>dd/MM/yyyy</option><option>yyyy-MM-dd</option></select></label>
      <label>Amount column (signed; or leave empty and give debit and credit) <input name="amount" maxlength="60"></label>
      <label>Debit column <input name="debit" maxlength="60"></label>
      <label>Credit column <input name="credit" maxlength="60"></label>
      <label>Description columns (comma-separated) <input name="narrative" maxlength="300"></label>
      <label>Currency (the file's one currency) <input name="currency" maxlength="3" value="TRY"></label>
      <label>Numbers <select name="numbers"><option value=",.">1.500,75</option><option value=".,">1,500.75</option><option value=", ">1 500,75</option></select></label>
      <p><button type="submit">Add the layout</button></p>
    </form></section>`;
}

/** Adding and removing a layout, through the control API (its rules and messages are the only ones). */
export function registerLayoutActions(
  dashboard: FastifyInstance,
  ctx: DashboardContext,
  page: (request: FastifyRequest, reply: FastifyReply, result?: SafeHtml, status?: number) => unknown,
): void {
  const signedIn = { preHandler: ctx.requireSession };
  const field = (request: FastifyRequest, name: string) => formField(request, name)?.trim() || undefined;

  dashboard.post(PATH, signedIn, async (request, reply) => {
    const key = request.dashboardKey;
    const [decimal, thousands] = (formField(request, "numbers") ?? ",.").split("") as [string, string];
    const narrative = (field(request, "narrative") ?? "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    const added = {
      name: field(request, "name") ?? "",
      date: field(request, "date") ?? "",
      date_format: field(request, "date_format") ?? "dd.MM.yyyy",
      narrative,
      ...(field(request, "amount") ? { amount: field(request, "amount") } : {}),
      ...(field(request, "debit") ? { debit: field(request, "debit") } : {}),
      ...(field(request, "credit") ? { credit: field(request, "credit") } : {}),
      ...(field(request, "currency") ? { currency: field(request, "currency")?.toUpperCase() } : {}),
      decimal,
      thousands,
    };
    const answer = await ctx.control(key, "PUT", "/_sandbox/settings/statement-mappings", {
      mappings: [...(await layoutsOf(ctx, key)), added],
    });
    if (answer.statusCode !== 200) {
      return page(request, reply, html`<p class="error" role="alert">${answer.json().message}</p>`, 400);
    }
    return ctx.redirect(request, reply, `${DASHBOARD}/reconciliation`, { notice: `Layout "${added.name}" added.` });
  });

  dashboard.post<{ Params: { n: string } }>(`${PATH}/:n/remove`, signedIn, async (request, reply) => {
    const key = request.dashboardKey;
    const layouts = await layoutsOf(ctx, key);
    const n = Number(request.params.n);
    const layout = layouts[n];
    if (!layout) return ctx.redirect(request, reply, `${DASHBOARD}/reconciliation`, { error: "No such layout." });
    if (!confirmed(request)) {
      return confirmPage(ctx, request, reply, {
        title: "Remove this layout?",
        question: html`Remove the CSV layout "${layout.name}"? Its bank's files are then read only if a built-in layout fits them.`,
        confirm: `Yes, remove "${layout.name}"`,
        back: `${DASHBOARD}/reconciliation`,
        backLabel: "No, keep it",
      });
    }
    await ctx.control(key, "PUT", "/_sandbox/settings/statement-mappings", {
      mappings: layouts.filter((_, i) => i !== n),
    });
    return ctx.redirect(request, reply, `${DASHBOARD}/reconciliation`, { notice: `Layout "${layout.name}" removed.` });
  });
}
