import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { confirmableAction, confirmed, confirmPage } from "../infrastructure/dashboard-shell/confirm.js";
import type { DashboardContext } from "../infrastructure/dashboard-shell/context.js";
import { csrfField } from "../infrastructure/dashboard-shell/csrf-field.js";
import {
  errorSummary,
  type FormProblems,
  fieldAttributes,
  fieldError,
  problemsOfRefusal,
} from "../infrastructure/dashboard-shell/error-summary.js";
import { formField, typedAgain } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { Reconciliations } from "./reconciliations.js";

const PATH = `${DASHBOARD}/reconciliation/layouts`;

/** The layout form's boxes, by the names of the mapping's fields. */
const BOXES = ["name", "date", "date_format", "amount", "debit", "credit", "narrative", "currency", "decimal"] as const;

/** A refused layout said of the form's boxes: the control API names `mappings.<n>.<field>`. */
function layoutProblems(refusal: {
  message?: string;
  param?: string;
  errors?: readonly { field: string; message: string }[];
}): FormProblems {
  const unwrap = (field: string | undefined) => field?.replace(/^mappings\.\d+\.?/, "");
  return problemsOfRefusal(
    {
      ...refusal,
      param: unwrap(refusal.param),
      ...(refusal.errors ? { errors: refusal.errors.map((e) => ({ ...e, field: unwrap(e.field) ?? "" })) } : {}),
    },
    BOXES,
  );
}

/** The workspace's own bank CSV layouts and the form that adds one: part of the Reconciliation page. */
export async function layoutsSection(
  reconciliations: Reconciliations,
  ctx: DashboardContext,
  request: FastifyRequest,
  problems: FormProblems = {},
  /** A refused layout's boxes as they were typed. */
  entered: Readonly<Record<string, string>> = {},
): Promise<SafeHtml> {
  const box = (name: string) => fieldAttributes(problems, name);
  const typed = (name: string, fallback = "") => entered[name] ?? fallback;
  const choice = (name: string, value: string, fallback: string) =>
    typed(name, fallback) === value ? html`selected` : "";
  const error = (name: string) => fieldError(problems, name);
  const labels = {
    name: t("Name", "Ad"),
    date: t("Date column", "Tarih sütunu"),
    date_format: t("Date format", "Tarih biçimi"),
    amount: t("Amount column", "Tutar sütunu"),
    debit: t("Debit column", "Borç sütunu"),
    credit: t("Credit column", "Alacak sütunu"),
    narrative: t("Description columns", "Açıklama sütunları"),
    currency: t("Currency", "Para birimi"),
    decimal: t("Numbers", "Sayılar"),
  };
  const layouts = await reconciliations.layouts(request.dashboardKey);
  const token = csrfField(ctx, request);
  const rows = layouts.map(
    (l, i) => html`<tr><td>${l.name}</td><td>${l.date} (${l.date_format})</td>
      <td>${l.amount ?? `${l.debit} / ${l.credit}`}</td><td>${l.narrative.join(", ")}</td>
      <td>${l.currency_column ?? l.currency ?? ""}</td><td>${l.decimal === "," ? "1.500,75" : "1,500.75"}</td>
      <td><form method="post" action="${PATH}/${i}/remove" class="inline">${token}
        <button type="submit" class="danger" aria-label="${t("Remove", "Kaldır:")} ${l.name}">${t("Remove", "Kaldır")}</button></form></td></tr>`,
  );
  return html`<section aria-labelledby="layouts"><h2 id="layouts">${t("Your banks' CSV layouts", "Bankalarınızın CSV düzenleri")}</h2>
    <p>${t(
      "camt.053, MT940 and the common Turkish exports are recognised by themselves. For another bank's CSV, name its columns once; a statement whose header has them is read this way, before the built-in layouts.",
      "camt.053, MT940 ve yaygın Türk banka dışa aktarımları kendiliğinden tanınır. Başka bir bankanın CSV'si için sütunlarını bir kez adlandırın; başlığında bu sütunlar olan ekstre, yerleşik düzenlerden önce bu şekilde okunur.",
    )}</p>
    <table aria-label="${t("CSV layouts", "CSV düzenleri")}"><thead><tr><th>${t("Name", "Ad")}</th><th>${t("Date", "Tarih")}</th><th>${t("Amount", "Tutar")}</th><th>${t("Description", "Açıklama")}</th>
      <th>${t("Currency", "Para birimi")}</th><th>${t("Numbers", "Sayılar")}</th><th></th></tr></thead>
    <tbody>${rows.length > 0 ? rows : html`<tr><td colspan="7">${t("None yet.", "Henüz yok.")}</td></tr>`}</tbody></table>
    ${errorSummary(problems, labels)}
    <form method="post" action="${PATH}" class="stacked" novalidate aria-label="${t("Add a CSV layout", "CSV düzeni ekle")}">${token}
      <label>${labels.name} <input name="name" required maxlength="80" value="${typed("name")}" ${box("name")}>${error("name")}</label>
      <label>${labels.date} <input name="date" required maxlength="60" placeholder="Valör" value="${typed("date")}" ${box("date")}>${error("date")}</label>
      <label>${labels.date_format} <select ${box("date_format")} name="date_format">${["dd.MM.yyyy", "dd/MM/yyyy", "yyyy-MM-dd"].map((f) => html`<option ${choice("date_format", f, "dd.MM.yyyy")}>${f}</option>`)}</select></label>
      <label>${t("Amount column (signed; or leave empty and give debit and credit)", "Tutar sütunu (işaretli; ya da boş bırakıp borç ve alacak sütunlarını verin)")} <input name="amount" maxlength="60" value="${typed("amount")}" ${box("amount")}>${error("amount")}</label>
      <label>${t("Debit column", "Borç sütunu")} <input name="debit" maxlength="60" value="${typed("debit")}" ${box("debit")}>${error("debit")}</label>
      <label>${t("Credit column", "Alacak sütunu")} <input name="credit" maxlength="60" value="${typed("credit")}" ${box("credit")}>${error("credit")}</label>
      <label>${t("Description columns (comma-separated)", "Açıklama sütunları (virgülle ayrılmış)")} <input name="narrative" maxlength="300" value="${typed("narrative")}" ${box("narrative")}>${error("narrative")}</label>
      <label>${t("Currency (the file's one currency)", "Para birimi (dosyanın tek para birimi)")} <input name="currency" maxlength="3" value="${typed("currency", "TRY")}" ${box("currency")}>${error("currency")}</label>
      <label>${labels.decimal} <select ${box("decimal")} name="numbers">${[
        [",.", "1.500,75"],
        [".,", "1,500.75"],
        [", ", "1 500,75"],
      ].map(
        ([v, shown]) => html`<option value="${v}" ${choice("numbers", v ?? "", ",.")}>${shown}</option>`,
      )}</select></label>
      <p><button type="submit">${t("Add the layout", "Düzeni ekle")}</button></p>
    </form></section>`;
}

/** Adding and removing a layout, by the same rules and messages as the control API's. */
export function registerLayoutActions(
  dashboard: FastifyInstance,
  ctx: DashboardContext,
  reconciliations: Reconciliations,
  page: (
    request: FastifyRequest,
    reply: FastifyReply,
    status?: number,
    problems?: { readonly layout?: FormProblems; readonly entered?: Readonly<Record<string, string>> },
  ) => unknown,
): void {
  const signedIn = { preHandler: ctx.requireSession };
  const field = (request: FastifyRequest, name: string) => formField(request, name)?.trim() || undefined;

  // The form's address opened by itself (a reload after a refusal, a bookmark): the section it lives
  // in. Registered so, since `/reconciliation/:id` (a run's page) would otherwise say "no such run".
  dashboard.get(PATH, signedIn, (_request, reply) => reply.redirect(`${DASHBOARD}/reconciliation#layouts`, 303));

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
    try {
      await reconciliations.saveLayouts(key, { mappings: [...(await reconciliations.layouts(key)), added] });
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      const entered = Object.fromEntries(
        [...BOXES, "numbers"].map((name) => [name, typedAgain(formField(request, name) ?? "")]),
      );
      return page(request, reply, 400, { layout: layoutProblems(error.paymentsBody()), entered });
    }
    return ctx.redirect(request, reply, `${DASHBOARD}/reconciliation`, {
      notice: t(`Layout "${added.name}" added.`, `"${added.name}" düzeni eklendi.`),
    });
  });

  confirmableAction<{ Params: { n: string } }>(dashboard, `${PATH}/:n/remove`, signedIn, async (request, reply) => {
    const key = request.dashboardKey;
    const layouts = await reconciliations.layouts(key);
    const n = Number(request.params.n);
    const layout = layouts[n];
    if (!layout)
      return ctx.redirect(request, reply, `${DASHBOARD}/reconciliation`, {
        error: t("No such layout.", "Böyle bir düzen yok."),
      });
    if (!confirmed(request)) {
      return confirmPage(ctx, request, reply, {
        title: t("Remove this layout?", "Bu düzen kaldırılsın mı?"),
        question: t(
          `Remove the CSV layout "${layout.name}"? Its bank's files are then read only if a built-in layout fits them.`,
          `"${layout.name}" CSV düzeni kaldırılsın mı? O bankanın dosyaları bundan sonra yalnızca yerleşik bir düzene uyarsa okunur.`,
        ),
        confirm: t(`Yes, remove "${layout.name}"`, `Evet, "${layout.name}" kaldırılsın`),
        back: `${DASHBOARD}/reconciliation`,
        backLabel: t("No, keep it", "Hayır, kalsın"),
      });
    }
    await reconciliations.saveLayouts(key, { mappings: layouts.filter((_, i) => i !== n) });
    return ctx.redirect(request, reply, `${DASHBOARD}/reconciliation`, {
      notice: t(`Layout "${layout.name}" removed.`, `"${layout.name}" düzeni kaldırıldı.`),
    });
  });
}
