import escapeHtml from "escape-html";

/** Markup that is already safe: produced by `html`, never by concatenating user text. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = SafeHtml | string | number | undefined | null | false | readonly Value[];

function render(value: Value): string {
  if (value === undefined || value === null || value === false) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/**
 * HTML template: every interpolated value is escaped unless it is itself `html` output, so a payment
 * description `<script>` is shown as text. Arrays are joined.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}
