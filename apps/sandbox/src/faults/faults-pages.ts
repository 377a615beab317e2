import { ApiFailure, FAULT_NAMES, FAULTS, type FaultName } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { workspaceScope } from "../clock/index.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { csrfField } from "../infrastructure/dashboard-shell/csrf-field.js";
import {
  errorSummary,
  type FormProblems,
  fieldAttributes,
  fieldError,
  problemsOfRefusal,
} from "../infrastructure/dashboard-shell/error-summary.js";
import { formField, queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD } from "../infrastructure/dashboard-shell/layout.js";
import { t } from "../infrastructure/i18n/locale.js";
import { DECLARATION_FIELDS, type DeclaredFaults, type FaultView } from "./declared-faults.js";
import { operationNames } from "./operation-names.js";

const OPERATIONS = operationNames().namesFor("payments");

/** What the page's forms reported, by the code their redirect carries. */
const DONE: Record<string, readonly [en: string, tr: string]> = {
  declared: [
    "Fault declared: it strikes this workspace's next matching requests.",
    "Hata tanımlandı: bu çalışma alanının uyan sonraki isteklerine denk gelecek.",
  ],
  cleared: ["Every fault of this workspace cleared.", "Bu çalışma alanının tüm hataları temizlendi."],
};

function modeText(mode: FaultView["mode"]): string {
  return "next" in mode
    ? t(`the next ${mode.next}`, `sonraki ${mode.next} istek`)
    : t(
        `probability ${mode.probability} (seed ${mode.seed}), at most ${mode.max}`,
        `olasılık ${mode.probability} (tohum ${mode.seed}), en çok ${mode.max}`,
      );
}

/** The payments API's operations in words, for people; the operationId (what the control API takes) beside. */
const OPERATION_WORDS: Readonly<Record<string, readonly [en: string, tr: string]>> = {
  listAccounts: ["List accounts", "Hesapları listele"],
  createPayment: ["Create a payment", "Ödeme oluştur"],
  listPayments: ["List payments", "Ödemeleri listele"],
  getPayment: ["Get a payment", "Ödemeyi getir"],
  cancelPayment: ["Cancel a payment", "Ödemeyi iptal et"],
  createPaymentBatch: ["Create a batch of payments", "Toplu ödeme oluştur"],
};

/** The operationId of each "METHOD /template", which is how a declared fault lists what it strikes. */
const ID_OF_KEY = new Map(OPERATIONS.map((id) => [operationNames().resolve(id, "payments") ?? id, id]));

/** An operation (by operationId, or "METHOD /template") as a person reads it: its words, the code in brackets. */
const operationInWords = (operation: string) => {
  const words = OPERATION_WORDS[ID_OF_KEY.get(operation) ?? operation];
  return words ? `${t(...words)} (${operation})` : operation;
};

/** The form's boxes by name, as the error summary lists them. */
const BOX_LABELS = (): Record<string, string> => ({
  operation: t("Operation", "İşlem"),
  fault: t("Fault", "Hata"),
  next: t("Strike the next N requests", "Sonraki N isteğe denk gelsin"),
  probability: t("Or each with probability", "Ya da her birine şu olasılıkla"),
  seed: t("Seed", "Tohum"),
  max: t("At most", "En çok"),
  latencyMs: t("Latency in ms", "Gecikme (ms)"),
  retryAfterSeconds: t("Retry-After seconds", "Retry-After saniyesi"),
  results: t("Results before the cut", "Kesintiden önceki sonuç sayısı"),
});

/** What the client sees of each fault, in Turkish (the catalogue's own words are the English). */
const CLIENT_SEES_TR: Record<FaultName, string> = {
  "latency-before": "yanıt, gecikmeli (latencyMs, sabit ya da [en az, en çok] aralığı)",
  "latency-after": "yanıt, gecikmeli: gecikmeden kısa bir istemci zaman aşımı hiçbir şey görmez",
  "error-500": "API'nin hata biçiminde 500",
  "error-503": "API'nin hata biçiminde 503, Retry-After ile (retryAfterSeconds, varsayılan 1)",
  "rate-limit": "API'nin hata biçiminde 429, Retry-After ile (retryAfterSeconds, varsayılan 1)",
  "reset-before": "bağlantı sıfırlanır (ECONNRESET), yanıt yok",
  "reset-after-commit": "bağlantı sıfırlanır (ECONNRESET), yanıt yok",
  stall: "durum satırı, başlıklar ve gövdenin bir kısmı, sonra istemci vazgeçene kadar hiçbir şey",
  "truncated-body": "vaat edilen Content-Length, gövdenin yarısı, sonra bağlantı kapanır",
  "wrong-content-type": "doğru gövde, Content-Type: text/html etiketiyle",
  "batch-partial": "`results` sonuçtan (varsayılan 1) sonra kesilen bir toplu yanıt, sonra bağlantı kapanır",
};

/** What the client sees of a fault, in the page's language. */
const clientSees = (fault: string) =>
  fault in CLIENT_SEES_TR ? t(FAULTS[fault as FaultName].clientSees, CLIENT_SEES_TR[fault as FaultName]) : fault;

/** A whole number as a number (so the control API judges its range); any other text as text, which it names. */
function numeric(value: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/** The form's fields as the control API's body: only what was filled in. */
function declaration(request: FastifyRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    operation: formField(request, "operation") ?? "",
    fault: formField(request, "fault") ?? "",
  };
  const filled = (name: string) => {
    const value = formField(request, name)?.trim();
    return value ? value : undefined;
  };
  const probability = filled("probability");
  if (probability !== undefined) {
    body.probability = numeric(probability);
    for (const name of ["seed", "max"]) if (filled(name) !== undefined) body[name] = numeric(filled(name) as string);
  } else {
    body.next = numeric(filled("next") ?? "1");
  }
  const latency = filled("latencyMs");
  if (latency !== undefined) {
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(latency);
    body.latencyMs = range ? [Number(range[1]), Number(range[2])] : numeric(latency);
  }
  for (const name of ["retryAfterSeconds", "results"]) {
    if (filled(name) !== undefined) body[name] = numeric(filled(name) as string);
  }
  return body;
}

/**
 * Faults on demand by hand: the workspace's declared faults, how often each struck, a form to declare
 * one and a button to clear them. The page declares through the same `DeclaredFaults` as the control
 * API, so its rules and messages are the only ones.
 */
export const faultsPages =
  (faults: DeclaredFaults): DashboardPages =>
  (dashboard: FastifyInstance, ctx: DashboardContext): void => {
    const signedIn = { preHandler: ctx.requireSession };

    async function faultsPage(
      request: FastifyRequest,
      reply: FastifyReply,
      notice?: SafeHtml,
      status = 200,
      /** A refused declaration's boxes as they were filled in. */
      entered: Readonly<Record<string, string>> = {},
      /** What was wrong with them, by box: flagged beside it and listed in the summary. */
      problems: FormProblems = {},
    ) {
      const box = (name: string) => fieldAttributes(problems, name);
      const typed = (name: string, fallback = "") => entered[name] ?? fallback;
      const chosen = (name: string, value: string, label: string = value) =>
        html`<option value="${value}" ${entered[name] === value ? html`selected` : ""}>${label}</option>`;
      const declared = faults.list(workspaceScope(request.dashboardKey));
      const rows = declared.map(
        (
          f,
        ) => html`<tr><td>${f.id}</td><td>${f.operations.map(operationInWords).join(", ")}</td><td><strong>${f.fault}</strong></td>
        <td>${clientSees(f.fault)}</td><td>${modeText(f.mode)}</td><td class="money">${f.struck}</td><td>${f.active ? t("active", "etkin") : t("spent", "tükendi")}</td></tr>`,
      );
      return ctx.render(
        request,
        reply,
        t("Faults", "Hatalar"),
        html`${notice ?? ""}
      <p>${t(
        "Make this workspace's API fail the way production does, to test a client's retries. Faults strike only this workspace's requests; a reset clears them.",
        "Bir istemcinin yeniden denemelerini sınamak için bu çalışma alanının API'sini üretimdeki gibi hata verdirin. Hatalar yalnızca bu çalışma alanının isteklerine denk gelir; sıfırlama onları temizler.",
      )}</p>
      ${
        declared.length === 0
          ? html`<p id="fault-count">${t("No faults declared.", "Tanımlı hata yok.")}</p>`
          : html`<table aria-label="${t("Declared faults", "Tanımlı hatalar")}"><thead><tr><th>${t("Id", "Kimlik")}</th><th>${t("Operations", "İşlemler")}</th><th>${t("Fault", "Hata")}</th><th>${t("The client sees", "İstemcinin gördüğü")}</th><th>${t("When", "Ne zaman")}</th><th class="money">${t("Struck", "Denk geldi")}</th><th></th></tr></thead>
            <tbody>${rows}</tbody></table>
            <form method="post" action="${DASHBOARD}/faults/clear" class="inline">${csrfField(ctx, request)}
              <button type="submit">${t("Clear all faults", "Tüm hataları temizle")}</button></form>`
      }
      <section aria-labelledby="new-fault"><h2 id="new-fault">${t("Declare a fault", "Hata tanımla")}</h2>
      ${errorSummary(problems, BOX_LABELS())}
      <form method="post" action="${DASHBOARD}/faults" class="stacked" novalidate>${csrfField(ctx, request)}
        <label>${t("Operation", "İşlem")} <select name="operation" required ${box("operation")}>${OPERATIONS.map((o) => chosen("operation", o, operationInWords(o)))}</select>${fieldError(problems, "operation")}</label>
        <label>${t("Fault", "Hata")} <select name="fault" required ${box("fault")}>${FAULT_NAMES.map((f) => chosen("fault", f, `${f}: ${clientSees(f)}`))}</select>${fieldError(problems, "fault")}</label>
        <label>${t("Strike the next N requests", "Sonraki N isteğe denk gelsin")} <input name="next" type="number" min="1" step="1" value="${typed("next", "1")}" ${box("next")}>${fieldError(problems, "next")}</label>
        <label>${t("Or each with probability (0–1, replaces N)", "Ya da her birine şu olasılıkla (0–1, N'nin yerine)")} <input name="probability" inputmode="decimal" value="${typed("probability")}" ${box("probability")}>${fieldError(problems, "probability")}</label>
        <label>${t("Seed (with a probability)", "Tohum (olasılıkla birlikte)")} <input name="seed" type="number" min="0" step="1" value="${typed("seed")}" ${box("seed")}>${fieldError(problems, "seed")}</label>
        <label>${t("At most (with a probability)", "En çok (olasılıkla birlikte)")} <input name="max" type="number" min="1" step="1" value="${typed("max")}" ${box("max")}>${fieldError(problems, "max")}</label>
        <label>${t("Latency in ms, or a range such as 200-800 (latency faults)", "Gecikme (ms) ya da 200-800 gibi bir aralık (gecikme hataları)")} <input name="latencyMs" value="${typed("latencyMs")}" ${box("latencyMs")}>${fieldError(problems, "latencyMs")}</label>
        <label>${t("Retry-After seconds (error-503, rate-limit)", "Retry-After saniyesi (error-503, rate-limit)")} <input name="retryAfterSeconds" type="number" min="0" step="1" value="${typed("retryAfterSeconds")}" ${box("retryAfterSeconds")}>${fieldError(problems, "retryAfterSeconds")}</label>
        <label>${t("Results before the cut (batch-partial)", "Kesintiden önceki sonuç sayısı (batch-partial)")} <input name="results" type="number" min="0" step="1" value="${typed("results")}" ${box("results")}>${fieldError(problems, "results")}</label>
        <p><button type="submit">${t("Declare the fault", "Hatayı tanımla")}</button></p>
      </form></section>`,
        status,
      );
    }

    dashboard.get(`${DASHBOARD}/faults`, signedIn, async (request, reply) => {
      const done = DONE[queryField(request, "done") ?? ""];
      return faultsPage(request, reply, done ? html`<p class="notice" role="status">${t(...done)}</p>` : undefined);
    });

    dashboard.post(`${DASHBOARD}/faults`, signedIn, async (request, reply) => {
      try {
        faults.declare(workspaceScope(request.dashboardKey), declaration(request), "payments");
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        const entered = Object.fromEntries(DECLARATION_FIELDS.map((name) => [name, formField(request, name) ?? ""]));
        const problems = problemsOfRefusal(error.paymentsBody(), DECLARATION_FIELDS);
        return faultsPage(request, reply, undefined, 400, entered, problems);
      }
      return reply.redirect(`${DASHBOARD}/faults?done=declared`, 303);
    });

    dashboard.post(`${DASHBOARD}/faults/clear`, signedIn, async (request, reply) => {
      faults.clear(workspaceScope(request.dashboardKey));
      return reply.redirect(`${DASHBOARD}/faults?done=cleared`, 303);
    });
  };
