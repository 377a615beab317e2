import { currencyExponent, toMinorUnits } from "@payspec/client-core";
import { type PaymentCreate, zPaymentCreate, zPaymentMethod } from "@payspec/payments-zod";
import {
  ApiFailure,
  containsCardNumber,
  type FieldProblems,
  firstUnstorableField,
  validateFields,
} from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SandboxClocks } from "../../clock/index.js";
import { workspaceScope } from "../../clock/index.js";
import type { DashboardContext, DashboardPages } from "../../infrastructure/dashboard-shell/context.js";
import { errorSummary, fieldAttributes, fieldError } from "../../infrastructure/dashboard-shell/error-summary.js";
import { formField, typedAgain } from "../../infrastructure/dashboard-shell/form-fields.js";
import { inWords } from "../../infrastructure/dashboard-shell/form-messages.js";
import { html, type SafeHtml } from "../../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../../infrastructure/dashboard-shell/layout.js";
import { signerOf } from "../../infrastructure/dashboard-shell/signed-in-session.js";
import { money, moneyOfDecimal } from "../../infrastructure/i18n/formats.js";
import { activeLocale, t } from "../../infrastructure/i18n/locale.js";
import { methodWord } from "../../infrastructure/i18n/method-words.js";
import { readAmount, typedAmount } from "../../infrastructure/i18n/typed-amount.js";
import type { WorkspaceSetting } from "../../workspaces/index.js";
import type { PaymentsStore, StoredAccount, StoredPayment } from "../store/payments-store.js";
import { submitFromDashboard } from "./dashboard-submit.js";

/** The seed: "The dashboard form additionally lists direct debit as a method; the API accepts only the four values above." */
const DIRECT_DEBIT = "direct_debit";
const FIELDS = ["amount", "currency", "method", "from_account", "to_account", "description", "reference"] as const;
type Field = (typeof FIELDS)[number];
type FormValues = Partial<Record<Field, string>>;

/**
 * The form as the API's schema takes it; empty optional fields go. The amount is typed in major
 * units as people write money in the page's language ("1.250,50" in Turkish, "1,250.50" in
 * English), and sent in minor units; one that cannot be read so, or has more decimals than the
 * currency, stays text, for the schema to refuse.
 */
function candidate(values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = values[field];
    if (value === undefined || value === "") continue;
    out[field] = field === "amount" ? minorUnits(typedAmount(value, activeLocale()) ?? value, values.currency) : value;
  }
  return out;
}

/** An ISO 4217-shaped code: what the exponent lookup takes; anything else is never looked up or repeated back. */
const isCurrencyCode = (currency: string | undefined): currency is string =>
  currency !== undefined && /^[A-Z]{3}$/.test(currency);

function minorUnits(amount: string, currency: string | undefined): number | string {
  if (!isCurrencyCode(currency) || !/^-?\d{1,13}(?:\.\d{1,4})?$/.test(amount.trim())) return amount;
  try {
    return toMinorUnits(amount.trim(), currency, { exact: true });
  } catch {
    return amount;
  }
}

/** The free-text boxes: what the API refuses a card number in, and the form too. */
const FREE_TEXT = ["description", "reference"] as const;

/** What was typed, for the form shown again (see typedAgain). */
function shownAgain(values: FormValues): FormValues {
  return Object.fromEntries(Object.entries(values).map(([field, value]) => [field, value && typedAgain(value)]));
}

/** A card number in a free-text box: an error beside it, whatever else is wrong. */
function cardNumberProblems(values: FormValues): FieldProblems {
  const problems: Record<string, string> = {};
  for (const field of FREE_TEXT) {
    const value = values[field];
    if (value !== undefined && containsCardNumber(value))
      problems[field] = t(
        "This looks like a card number, which a payment may not carry. Type the text again without it.",
        "Bu bir kart numarasına benziyor; bir ödeme kart numarası taşıyamaz. Metni kart numarası olmadan yeniden yazın.",
      );
  }
  return problems;
}

/** The currency named in a message only when it is one (a typed "usd" or markup is not repeated back). */
function amountHint(currency: string | undefined): string {
  const known = isCurrencyCode(currency);
  const digits = known ? currencyExponent(currency) : 2;
  return t(
    `Enter an amount such as 1,250.50, with at most ${digits} decimals${known ? ` for ${currency}` : ""}.`,
    `1.250,50 gibi bir tutar girin; ${known ? `${currency} için ` : ""}en çok ${digits} ondalık basamakla.`,
  );
}

/**
 * What the amount's reading leaves open, said before anything is made: an empty box, an amount that
 * reads two ways in this language (`1,500` on a Turkish page: 1,50 ₺ or 1.500,00 ₺), never guessed,
 * and a money sign that names another currency than the form's.
 */
function readingProblems(values: FormValues): FieldProblems {
  const typed = values.amount?.trim() ?? "";
  if (typed === "") return { amount: t("Enter an amount.", "Tutar girin.") };
  const reading = readAmount(typed, activeLocale());
  const currency = values.currency;
  if (reading.kind === "ambiguous") {
    const shown = isCurrencyCode(currency) ? currency : "TRY";
    const [small, large] = [moneyOfDecimal(reading.asDecimals, shown), moneyOfDecimal(reading.asThousands, shown)];
    // Each reading typed so that it reads one way only: decimals without grouping, thousands grouped
    // with the language's own mark, plus the decimal mark.
    const [typeSmall, typeLarge] = [small.split(" ")[0], large.split(" ")[0]];
    return {
      amount: t(
        `This amount reads two ways: ${small} or ${large}. Type ${typeSmall} or ${typeLarge} to say which.`,
        `Bu tutar iki türlü okunabilir: ${small} ya da ${large}. Hangisi olduğunu ${typeSmall} ya da ${typeLarge} yazarak belirtin.`,
      ),
    };
  }
  if (reading.kind === "amount" && reading.currency && isCurrencyCode(currency) && reading.currency !== currency)
    return {
      amount: t(
        `The amount is written in ${reading.currency} and the payment is in ${currency}: remove the sign, or choose ${reading.currency} as the currency.`,
        `Tutar ${reading.currency} olarak yazılmış, ödeme ise ${currency}: işareti silin ya da para birimi olarak ${reading.currency} seçin.`,
      ),
    };
  return {};
}

/**
 * What can be read only one way is read, not refused: a currency in any case or with spaces around
 * (`usd`, ` USD `), a method's code in capitals (`EFT`). Amounts are not: their reading is asked.
 */
function normalised(values: FormValues): FormValues {
  return {
    ...values,
    ...(values.currency === undefined ? {} : { currency: values.currency.trim().toUpperCase() }),
    ...(values.method === undefined ? {} : { method: values.method.trim().toLowerCase() }),
  };
}

/** Each box as the form labels it: what the error summary names (English, Turkish). */
const LABELS: Record<Field, readonly [string, string]> = {
  amount: ["Amount", "Tutar"],
  currency: ["Currency", "Para birimi"],
  method: ["Method", "Yöntem"],
  from_account: ["From account", "Gönderen hesap"],
  to_account: ["To account", "Alıcı hesap"],
  description: ["Description", "Açıklama"],
  reference: ["Reference", "Referans"],
};
const label = (field: Field) => t(...LABELS[field]);

/**
 * The API's business rules for a create, said of the form's own boxes and checked whatever else is
 * wrong, so every problem shows at once: two different accounts, both holding the chosen currency.
 */
function ruleProblems(values: FormValues, accounts: readonly StoredAccount[]): FieldProblems {
  const problems: Record<string, string> = {};
  const from = accounts.find((a) => a.id === values.from_account);
  const to = accounts.find((a) => a.id === values.to_account);
  if (from && to && from.id === to.id)
    problems.to_account = t(
      "Choose a To account other than the From account.",
      "Gönderen hesaptan farklı bir alıcı hesap seçin.",
    );
  else if (from && to && from.currency !== to.currency)
    problems.to_account = t(
      `The To account (${to.name}) holds ${to.currency} and the From account ${from.currency}: choose two accounts of one currency.`,
      `Alıcı hesap (${to.name}) ${to.currency}, gönderen hesap ${from.currency} tutuyor: aynı para biriminde iki hesap seçin.`,
    );
  const currency = values.currency;
  if (currency && from && from.currency !== currency) {
    problems.currency = t(
      `The From account (${from.name}) holds ${from.currency}: choose ${from.currency}, or a From account in ${currency}.`,
      `Gönderen hesap (${from.name}) ${from.currency} tutuyor: ${from.currency} seçin ya da ${currency} tutan bir gönderen hesap seçin.`,
    );
    // Either box can be the one to change: both are flagged, each saying what would fix it (a
    // currency that is no currency at all is the currency box's problem alone).
    if (isCurrencyCode(currency))
      problems.from_account = t(
        `The From account (${from.name}) holds ${from.currency}, not ${currency}: choose an account in ${currency}, or ${from.currency} as the currency.`,
        `Gönderen hesap (${from.name}) ${currency} değil ${from.currency} tutuyor: ${currency} tutan bir hesap seçin ya da para birimi olarak ${from.currency} seçin.`,
      );
  } else if (currency && to && to.currency !== currency && !problems.to_account) {
    problems.to_account = t(
      `The To account (${to.name}) holds ${to.currency}: choose an account in ${currency}.`,
      `Alıcı hesap (${to.name}) ${to.currency} tutuyor: ${currency} tutan bir hesap seçin.`,
    );
  }
  return problems;
}

export interface NewPaymentPageDeps {
  readonly payments: PaymentsStore;
  readonly clocks: SandboxClocks;
  /** The approval-workflow feature's setting: the page says whether the payment will wait for an approver. */
  readonly approvalWorkflow: WorkspaceSetting<boolean>;
}

/** The new payment form, validated by the generated zod schema, with errors beside each field. */
export function newPaymentPage(deps: NewPaymentPageDeps): DashboardPages {
  return (dashboard: FastifyInstance, ctx: DashboardContext) => {
    const show = async (
      request: FastifyRequest,
      reply: FastifyReply,
      values: FormValues = {},
      problems: FieldProblems = {},
      /** Said before a payment the debit account cannot cover is made: the form then asks again. */
      shortWarning?: SafeHtml,
    ) => {
      const key = request.dashboardKey;
      const accounts = await deps.payments.accounts(key);
      const workflow = await deps.approvalWorkflow.get(key);
      const invalid = Object.keys(problems).length > 0;
      // A fresh form suggests a payment that can be made: from the first account to another account in
      // its currency, never to itself.
      const [first] = accounts;
      const other = accounts.find((a) => a !== first && a.currency === first?.currency);
      if (first && other && values.from_account === undefined && values.to_account === undefined) {
        values = { ...values, from_account: first.id, to_account: other.id, currency: first.currency };
      }
      return ctx.render(
        request,
        reply,
        t("New payment", "Yeni ödeme"),
        newPaymentForm(ctx.csrf(request), accounts, workflow, values, problems, shortWarning),
        invalid ? 400 : 200,
      );
    };

    dashboard.get(`${DASHBOARD}/payments/new`, { preHandler: ctx.requireSession }, (request, reply) =>
      show(request, reply),
    );

    dashboard.post(
      `${DASHBOARD}/payments`,
      { preHandler: ctx.requireSession, config: { formPage: `${DASHBOARD}/payments/new` } },
      async (request, reply) => {
        const key = request.dashboardKey;
        const values = normalised(Object.fromEntries(FIELDS.map((f) => [f, formField(request, f)])) as FormValues);
        const checked = validateFields(zPaymentCreate, candidate(values));
        const cardNumbers = cardNumberProblems(values);
        const rules = ruleProblems(values, await deps.payments.accounts(key));
        const problems = formProblems(values, checked, rules, { ...readingProblems(values), ...cardNumbers });
        if (problems || !checked.ok) return show(request, reply, shownAgain(values), problems ?? {});
        const input: PaymentCreate = checked.data;
        // A payment the debit account cannot cover now fails when it completes, unless money arrives
        // first: say so before it is made, and make it only when asked again.
        if (formField(request, "short") !== "yes") {
          const from = (await deps.payments.accounts(key)).find((a) => a.id === input.from_account);
          const needed = input.amount;
          if (from && from.currency === input.currency && from.balanceMinor < needed) {
            const warning = html`${from.name} (<code>${from.id}</code>) ${t(
              `holds ${money(from.balanceMinor, from.currency)} now; this payment needs ${money(needed, input.currency)}. Unless money arrives first, it will fail when it completes. Change the amount or the account, or create it anyway.`,
              `hesabında şu an ${money(from.balanceMinor, from.currency)} var; bu ödeme ${money(needed, input.currency)} gerektiriyor. Önce para gelmezse ödeme tamamlanırken başarısız olur. Tutarı ya da hesabı değiştirin veya yine de oluşturun.`,
            )}`;
            return show(request, reply, shownAgain(values), {}, warning);
          }
        }
        const now = await deps.clocks.now(workspaceScope(key));
        let payment: StoredPayment;
        try {
          const signer = signerOf(request.dashboardSession);
          payment = await submitFromDashboard(deps.payments, deps.approvalWorkflow, key, input, now, signer);
        } catch (failure) {
          if (!(failure instanceof ApiFailure)) throw failure;
          return show(request, reply, shownAgain(values), { [failure.options.param ?? "amount"]: failure.message });
        }
        return reply.redirect(`${DASHBOARD}/payments/${payment.id}?done=created`, 303);
      },
    );
  };
}

/**
 * Every problem of a submitted form in plain words (the schema's, the card-number check's, the
 * rules'), or undefined when there is none.
 */
function formProblems(
  values: FormValues,
  checked: { readonly ok: true } | { readonly ok: false; readonly problems: Readonly<Record<string, string>> },
  rules: FieldProblems,
  /** The form's own checks (the amount's reading, card numbers): said whatever the schema says. */
  ownChecks: FieldProblems,
): FieldProblems | undefined {
  if (checked.ok && Object.keys(ownChecks).length === 0 && Object.keys(rules).length === 0) return undefined;
  const problems: Record<string, string> = checked.ok ? {} : { ...checked.problems };
  if (values.method === DIRECT_DEBIT) {
    problems.method = t(
      "Direct debit is listed by the dashboard, but the API accepts only bank transfer, card, virtual account and EFT: choose one of those.",
      "Otomatik ödeme talimatı panelde listelenir, ama API yalnızca havale, kart, sanal hesap ve EFT kabul eder: bunlardan birini seçin.",
    );
  }
  // The spec's pattern for description and reference, in words rather than as its regex.
  for (const field of ["description", "reference"] as const) {
    if (problems[field] && firstUnstorableField(values[field]) !== undefined)
      problems[field] = t(
        "Remove the NUL character or lone surrogate: no text can hold it.",
        "NUL karakterini ya da tek başına kalmış vekil karakteri silin: hiçbir metin onu tutamaz.",
      );
  }
  for (const [field, message] of Object.entries(problems)) problems[field] = inWords(message);
  if (problems.currency && !isCurrencyCode(values.currency))
    problems.currency = t(
      "Choose a currency: three capital letters, such as TRY.",
      "Bir para birimi seçin: TRY gibi üç büyük harf.",
    );
  const amount = candidate(values).amount;
  if (problems.amount && typeof amount === "number")
    // A bound, said in the money people typed rather than in minor units ("At least 1.").
    problems.amount = t(
      `Enter an amount of at least ${money(1, values.currency ?? "")}.`,
      `En az ${money(1, values.currency ?? "")} tutarında bir tutar girin.`,
    );
  else if (problems.amount && !isCurrencyCode(values.currency) && typedAmount(values.amount ?? "", activeLocale()))
    // The amount reads well; only the currency's decimals are unknown: the currency's error says it.
    delete problems.amount;
  else if (problems.amount) problems.amount = amountHint(values.currency);
  // The schema's word on a box first (its value is not even well-formed), then the rules'.
  return { ...rules, ...problems, ...ownChecks };
}

function newPaymentForm(
  csrf: string,
  accounts: readonly StoredAccount[],
  workflow: boolean,
  values: FormValues,
  problems: FieldProblems,
  shortWarning?: SafeHtml,
): SafeHtml {
  const error = (field: Field) => fieldError(problems, field);
  const aria = (field: Field) => fieldAttributes(problems, field);
  const option = (field: Field, value: string, label = value) =>
    html`<option value="${value}" ${values[field] === value ? html`selected` : ""}>${label}</option>`;
  const accountSelect = (field: "from_account" | "to_account") =>
    html`<select name="${field}" ${aria(field)}>${accounts.map((a) => option(field, a.id, `${a.name} (${a.currency}) · ${a.id}`))}</select>`;
  const currencies = [...new Set(accounts.map((a) => a.currency))];
  const methods = [
    ...zPaymentMethod.options.map((m) => [m, methodWord(m)] as const),
    [DIRECT_DEBIT, methodWord(DIRECT_DEBIT)] as const,
  ];
  return html`<p>${
    workflow
      ? t(
          "The approval workflow is on: this payment will wait as pending until an approver approves it.",
          "Onay akışı açık: bu ödeme bir onaylayıcı onaylayana kadar onay bekler.",
        )
      : t(
          "The approval workflow is off: this payment goes straight to processing and then completes.",
          "Onay akışı kapalı: bu ödeme doğrudan işleme alınır ve sonra tamamlanır.",
        )
  }</p>
  ${shortWarning ? html`<p class="warning" role="alert" id="short-warning">${shortWarning}</p>` : ""}
  ${errorSummary(problems, Object.fromEntries(FIELDS.map((field) => [field, label(field)])))}
  <form class="stacked" method="post" action="${DASHBOARD}/payments" novalidate aria-label="${t("New payment", "Yeni ödeme")}">
    <input type="hidden" name="_csrf" value="${csrf}">
 <label>${t("Amount (such as 1,250.50, in the chosen currency)", "Tutar (1.250,50 gibi, seçilen para biriminde)")}
      <input name="amount" inputmode="decimal" value="${values.amount ?? ""}" ${aria("amount")}>${error("amount")}</label>
    <label>${label("currency")} <select name="currency" ${aria("currency")}>${currencies.map((c) => option("currency", c))}</select>${error("currency")}</label>
    <label>${label("method")} <select name="method" ${aria("method")}>${methods.map(([value, label]) => option("method", value, label))}</select>${error("method")}</label>
    <label>${label("from_account")} ${accountSelect("from_account")}${error("from_account")}</label>
    <label>${label("to_account")} ${accountSelect("to_account")}${error("to_account")}</label>
    <label>${t("Description (optional)", "Açıklama (isteğe bağlı)")} <input name="description" value="${values.description ?? ""}" ${aria("description")}>${error("description")}</label>
    <label>${t("Reference (optional)", "Referans (isteğe bağlı)")} <input name="reference" value="${values.reference ?? ""}" ${aria("reference")}>${error("reference")}</label>
    ${shortWarning ? html`<input type="hidden" name="short" value="yes">` : ""}
    <p>${shortWarning ? html`<button type="submit" class="warning">${t("Create it anyway", "Yine de oluştur")}</button>` : html`<button type="submit" class="primary">${t("Create payment", "Ödemeyi oluştur")}</button>`}</p>
  </form>`;
}
