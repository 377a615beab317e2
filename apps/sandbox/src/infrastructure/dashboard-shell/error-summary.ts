import { t } from "../i18n/locale.js";
import { inWords } from "./form-messages.js";
import { html, type SafeHtml } from "./html.js";

/** What is wrong with a form, by the name of its box; "" holds what belongs to no box. */
export type FormProblems = Readonly<Record<string, string>>;

/** A refusal of the control API (or the payments API): its message, the box it names, every schema problem. */
interface Refusal {
  readonly message?: string;
  readonly param?: string;
  readonly errors?: readonly { readonly field: string; readonly message: string }[];
}

/**
 * The API's refusal said of the form's own boxes: every problem the schema found (`errors`), else the
 * one rule its `param` names, in plain words. A field path (`recipients[2]`) belongs to its box.
 */
export function problemsOfRefusal(refusal: Refusal, boxes: readonly string[]): FormProblems {
  const boxOf = (field: string | undefined) => {
    const box = field?.split(/[.[]/, 1)[0] ?? "";
    return boxes.includes(box) ? box : "";
  };
  const problems: Record<string, string> = {};
  const found = refusal.errors?.length
    ? refusal.errors
    : [{ field: refusal.param ?? "", message: refusal.message ?? "" }];
  for (const { field, message } of found) {
    const box = boxOf(field);
    // The API names the field before its message ("name: at most 100 characters"): the page's box
    // already says which, so only the message is kept.
    const said = inWords(message.replace(/^[\w.[\]]+: /, ""));
    problems[box] = problems[box] ? `${problems[box]} ${said}` : said;
  }
  return problems;
}

/**
 * The GOV.UK error summary: how many boxes need attention, each problem linking to its box (which
 * has `id="field-<name>"`, see fieldAttributes), in the form's order (`labels`' order). Announced as
 * an alert; "" when nothing is wrong.
 */
export function errorSummary(problems: FormProblems, labels: Readonly<Record<string, string>>): SafeHtml | "" {
  // In the form's order (the labels'), then any box the labels do not name.
  const boxes = [
    ...Object.keys(labels).filter((box) => problems[box]),
    ...Object.keys(problems).filter((box) => box !== "" && !(box in labels)),
  ];
  const general = problems[""];
  if (boxes.length === 0 && !general) return "";
  const heading =
    boxes.length === 1
      ? t("One box needs attention", "Bir kutu düzeltilmeli")
      : boxes.length > 1
        ? t(`${boxes.length} boxes need attention`, `${boxes.length} kutu düzeltilmeli`)
        : t("This could not be done", "Bu yapılamadı");
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
    <h2 id="error-summary-title">${heading}</h2>
    <ul>${general ? html`<li>${general}</li>` : ""}${boxes.map(
      (box) => html`<li><a href="#field-${box}">${labels[box] ?? box}: ${problems[box]}</a></li>`,
    )}</ul></div>`;
}

/** A box's id (what the summary links to) and, when it has a problem, the attributes that tie them. */
export function fieldAttributes(problems: FormProblems, box: string): SafeHtml {
  return html`id="field-${box}" ${problems[box] ? html`aria-invalid="true" aria-describedby="${box}-error"` : ""}`;
}

/** The problem beside its box. */
export function fieldError(problems: FormProblems, box: string): SafeHtml | "" {
  return problems[box] ? html`<span class="field-error" id="${box}-error">${problems[box]}</span>` : "";
}
