import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { confirmableAction, confirmed, confirmPage } from "../infrastructure/dashboard-shell/confirm.js";
import type { DashboardContext, DashboardPages } from "../infrastructure/dashboard-shell/context.js";
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
import { DASHBOARD, statusBadge } from "../infrastructure/dashboard-shell/layout.js";
import { localTime, timeHeading } from "../infrastructure/dashboard-shell/local-time.js";
import { calendarDay } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { ApiKeys } from "./api-keys.js";

async function keysPage(
  apiKeys: ApiKeys,
  ctx: DashboardContext,
  request: FastifyRequest,
  reply: FastifyReply,
  notice?: SafeHtml,
  status = 200,
  entered: { readonly name?: string; readonly expires?: string } = {},
  problems: FormProblems = {},
) {
  const labels = { name: t("Name", "Ad"), expires_on: t("Expires on", "Son geçerlilik tarihi") };
  const keys = await apiKeys.list(request.dashboardKey);
  const rows = keys.map(
    (
      k,
    ) => html`<tr><td class="name">${k.name}</td><td class="status">${statusBadge(k.status)}</td><td class="detail" data-label="${t("Key", "Anahtar")}"><code>${k.masked}</code></td>
    <td class="detail" data-label="${timeHeading("Created", "Oluşturulma", "sandbox")}">${k.created_at ? localTime(k.created_at) : t("at start", "açılışta")}</td><td class="detail" data-label="${t("Expires", "Son geçerlilik")}">${k.expires_on ? calendarDay(k.expires_on) : t("never", "hiçbir zaman")}</td><td class="detail" data-label="${timeHeading("Last used", "Son kullanım", "sandbox")}">${localTime(k.last_used_at)}</td>
    <td class="decision">${
      k.source === "created" && k.status !== "revoked"
        ? html`<form method="post" action="${DASHBOARD}/settings/api-keys/${k.id}/revoke" class="inline">${csrfField(ctx, request)}
            <button type="submit" class="danger" aria-label="${t("Revoke", "İptal et:")} ${k.name}">${t("Revoke", "İptal et")}</button></form>`
        : k.source === "environment"
          ? t("configured (PAYSPEC_API_KEYS)", "yapılandırmada (PAYSPEC_API_KEYS)")
          : ""
    }</td></tr>`,
  );
  return ctx.render(
    request,
    reply,
    t("API keys", "API anahtarları"),
    html`${notice ?? ""}
  <table class="cards" aria-label="${t("API keys", "API anahtarları")}"><thead><tr><th>${t("Name", "Ad")}</th><th>${t("Status", "Durum")}</th><th>${t("Key", "Anahtar")}</th><th>${timeHeading("Created", "Oluşturulma", "sandbox")}</th><th>${t("Expires", "Son geçerlilik")}</th><th>${timeHeading("Last used", "Son kullanım", "sandbox")}</th><th></th></tr></thead>
  <tbody>${rows}</tbody></table>
  <section aria-labelledby="new-key"><h2 id="new-key">${t("Create a key", "Anahtar oluştur")}</h2>
  ${errorSummary(problems, labels)}
  <form method="post" action="${DASHBOARD}/settings/api-keys" class="stacked" novalidate>${csrfField(ctx, request)}
    <label>${labels.name} <input name="name" required maxlength="100" value="${entered.name ?? ""}" ${fieldAttributes(problems, "name")}>${fieldError(problems, "name")}</label>
    <label>${t("Expires on (optional; valid through the end of that day, Europe/Istanbul)", "Son geçerlilik tarihi (isteğe bağlı; o günün sonuna kadar, İstanbul saatiyle)")} <input name="expires_on" type="date" value="${entered.expires ?? ""}" ${fieldAttributes(problems, "expires_on")}>${fieldError(problems, "expires_on")}</label>
    <p><button type="submit">${t("Create key", "Anahtarı oluştur")}</button></p>
  </form></section>`,
    status,
  );
}

/** Creates a key and shows it once; a refusal keeps what was typed, every problem at once. */
async function createKey(apiKeys: ApiKeys, ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply) {
  const expires = formField(request, "expires_on");
  const name = formField(request, "name") ?? "";
  let made: { readonly key: string; readonly name: string };
  try {
    const created = await apiKeys.create(request.dashboardKey, {
      name,
      ...(expires ? { expires_on: expires } : {}),
    });
    made = { key: created.key, name: created.view.name };
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    // What was typed stays, to be corrected, every problem beside its box.
    const entered = { name: typedAgain(name), ...(expires ? { expires } : {}) };
    const problems = problemsOfRefusal(error.paymentsBody(), ["name", "expires_on"]);
    return keysPage(apiKeys, ctx, request, reply, undefined, 400, entered, problems);
  }
  // Shown once, on the page the action redirects to: a reload of that page shows it no more, and
  // cannot post the form again to mint a second key.
  return ctx.redirect(request, reply, `${DASHBOARD}/settings/api-keys`, {
    notice: t(
      `Key "${made.name}" created. Copy it now: it will not be shown again.`,
      `"${made.name}" anahtarı oluşturuldu. Şimdi kopyalayın: bir daha gösterilmeyecek.`,
    ),
    once: { id: "new-api-key", label: t("The new key:", "Yeni anahtar:"), value: made.key },
  });
}

/** Revokes a created key, after a question (a GET of the address asks it too). */
async function revokeKey(
  apiKeys: ApiKeys,
  ctx: DashboardContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  const keysPath = `${DASHBOARD}/settings/api-keys`;
  if (!confirmed(request)) {
    const key = (await apiKeys.list(request.dashboardKey)).find((k) => k.id === request.params.id);
    if (!key)
      return ctx.redirect(request, reply, keysPath, {
        error: t("No such key in this workspace.", "Bu çalışma alanında böyle bir anahtar yok."),
      });
    return confirmPage(ctx, request, reply, {
      title: t("Revoke this key?", "Bu anahtar iptal edilsin mi?"),
      question: t(
        `Revoke the key "${key.name}" (${key.masked})? Every request with it is refused from now on; a revoked key cannot be used again.`,
        `"${key.name}" anahtarı (${key.masked}) iptal edilsin mi? Bundan sonra onunla gelen her istek reddedilir; iptal edilen bir anahtar yeniden kullanılamaz.`,
      ),
      confirm: t(`Yes, revoke "${key.name}"`, `Evet, "${key.name}" iptal edilsin`),
      back: keysPath,
      backLabel: t("No, keep it", "Hayır, kalsın"),
    });
  }
  let flash: { notice: string } | { error: string };
  try {
    const { name } = await apiKeys.revoke(request.dashboardKey, request.params.id);
    flash = { notice: t(`Key "${name}" revoked.`, `"${name}" anahtarı iptal edildi.`) };
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    flash = { error: error.message };
  }
  return ctx.redirect(request, reply, `${DASHBOARD}/settings/api-keys`, flash);
}

/**
 * Settings → API keys: keys made, listed and revoked by hand, each shown once. Every action goes
 * through the same `ApiKeys` as the control API, so its rules and messages are the only ones.
 */
export const apiKeysPages =
  (apiKeys: ApiKeys): DashboardPages =>
  (dashboard: FastifyInstance, ctx: DashboardContext): void => {
    const signedIn = { preHandler: ctx.requireSession };

    dashboard.get(`${DASHBOARD}/settings/api-keys`, signedIn, async (request, reply) =>
      keysPage(apiKeys, ctx, request, reply),
    );

    dashboard.post(`${DASHBOARD}/settings/api-keys`, signedIn, (request, reply) =>
      createKey(apiKeys, ctx, request, reply),
    );

    confirmableAction<{ Params: { id: string } }>(
      dashboard,
      `${DASHBOARD}/settings/api-keys/:id/revoke`,
      signedIn,
      (request, reply) => revokeKey(apiKeys, ctx, request, reply),
    );
  };
