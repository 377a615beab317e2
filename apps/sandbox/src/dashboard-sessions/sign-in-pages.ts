import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DashboardPages } from "../infrastructure/dashboard-shell/context.js";
import { nextPage, sendPage } from "../infrastructure/dashboard-shell/dashboard.js";
import { sameText } from "../infrastructure/dashboard-shell/dashboard-security.js";
import { formField, queryField } from "../infrastructure/dashboard-shell/form-fields.js";
import { html, type SafeHtml } from "../infrastructure/dashboard-shell/html.js";
import { DASHBOARD, page } from "../infrastructure/dashboard-shell/layout.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { DashboardSessions } from "./dashboard-sessions.js";

export interface SignInDeps {
  readonly sessions: DashboardSessions;
  /** The workspace a key opens (any live key: configured or made in the dashboard), or why not. */
  readonly authenticate: (
    key: string,
  ) => Promise<
    | { readonly ok: true; readonly tag: string; readonly signer: string }
    | { readonly ok: false; readonly message: string; readonly unknown: boolean }
  >;
  /** The gateway's Basic-login credentials: the only sign-in that shows the gateway's data. */
  readonly gatewayCredentials: { readonly key: string; readonly secret: string };
}

/** The sign-in page: a workspace's API key, or the gateway's credentials (`error`: why the last try failed). */
export function signInPage(sessions: DashboardSessions) {
  return (request: FastifyRequest, reply: FastifyReply, error?: string): FastifyReply => {
    // A reset ends every session of the workspace, the resetting one's too: say so where it lands.
    const notice = queryField(request, "done") === "reset" ? resetNotice() : undefined;
    return sendPage(
      reply,
      page(
        t("Sign in", "Oturum aç"),
        signInForms(
          sessions.signInToken(request, reply),
          error,
          notice,
          nextPage(queryField(request, "next") ?? formField(request, "next")),
        ),
        undefined,
        request.url,
      ),
      error ? 401 : 200,
    );
  };
}

/** Sign-in and sign-out: a server-side session for a workspace or for the gateway. */
export function signInPages({ sessions, authenticate, gatewayCredentials }: SignInDeps): DashboardPages {
  const signIn = signInPage(sessions);
  return (dashboard: FastifyInstance) => {
    dashboard.post(`${DASHBOARD}/sign-in`, async (request, reply) => {
      const key = formField(request, "apiKey");
      const gatewayKey = formField(request, "gatewayKey");
      if (key !== undefined) {
        const signedIn = await authenticate(key);
        if (!signedIn.ok) {
          // An expired or revoked key hears why; any other, what to use instead.
          const unknown = t(
            "That is not the API key of a workspace of this sandbox. Use one it printed at start.",
            "Bu, bu sandbox'taki bir çalışma alanının API anahtarı değil. Sandbox'ın açılışta yazdırdığı anahtarlardan birini kullanın.",
          );
          return signIn(request, reply, signedIn.unknown ? unknown : signedIn.message);
        }
        await sessions.signIn(request, reply, { kind: "workspace", tag: signedIn.tag, signer: signedIn.signer });
        return reply.redirect(nextPage(formField(request, "next")) ?? DASHBOARD, 303);
      }
      const secret = formField(request, "gatewaySecret") ?? "";
      if (
        gatewayKey === undefined ||
        !sameText(gatewayKey, gatewayCredentials.key) ||
        !sameText(secret, gatewayCredentials.secret)
      ) {
        return signIn(
          request,
          reply,
          t(
            "Those are not the gateway's API key and secret. Use the ones of its Basic login.",
            "Bunlar ödeme geçidinin API anahtarı ve parolası değil. Basic oturum açmasındakileri kullanın.",
          ),
        );
      }
      await sessions.signIn(request, reply, { kind: "gateway" });
      return reply.redirect(`${DASHBOARD}/gateway`, 303);
    });

    dashboard.post(`${DASHBOARD}/sign-out`, async (request, reply) => {
      await sessions.signOut(request, reply);
      return reply.redirect(DASHBOARD, 303);
    });
  };
}

const resetNotice = () =>
  t(
    "The workspace was reset, which ends every session of it. Sign in again.",
    "Çalışma alanı sıfırlandı; bu, tüm oturumlarını kapatır. Yeniden oturum açın.",
  );

function signInForms(csrf: string, error?: string, notice?: string, next?: string): SafeHtml {
  const token = html`<input type="hidden" name="_csrf" value="${csrf}">${
    next ? html`<input type="hidden" name="next" value="${next}">` : ""
  }`;
  const described = error ? html`aria-describedby="sign-in-error"` : "";
  return html`${error ? html`<p class="error" role="alert" id="sign-in-error">${error}</p>` : ""}
  ${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
  <section aria-labelledby="workspace-sign-in"><h2 id="workspace-sign-in">${t("A payments workspace", "Bir ödeme çalışma alanı")}</h2>
  <form method="post" action="${DASHBOARD}/sign-in">${token}
    <label>${t("Workspace API key (a sandbox key, such as sk_sandbox_demo_1)", "Çalışma alanının API anahtarı (sk_sandbox_demo_1 gibi bir sandbox anahtarı)")}
      <input name="apiKey" type="password" autocomplete="off" required ${described}></label>
    <p><button type="submit">${t("Sign in", "Oturum aç")}</button></p>
  </form></section>
  <section aria-labelledby="gateway-sign-in"><h2 id="gateway-sign-in">${t("The card gateway", "Kart ödeme geçidi")}</h2>
  <p>${t(
    "The gateway's card payments and reports are shown only to its own credentials (those of its Basic login).",
    "Ödeme geçidinin kart ödemeleri ve raporları yalnızca kendi kimlik bilgilerine (Basic oturum açmasındakilere) gösterilir.",
  )}</p>
  <form method="post" action="${DASHBOARD}/sign-in">${token}
    <label>${t("Gateway API key", "Ödeme geçidi API anahtarı")} <input name="gatewayKey" autocomplete="off" required></label>
    <label>${t("Gateway secret", "Ödeme geçidi parolası")} <input name="gatewaySecret" type="password" autocomplete="off" required></label>
    <p><button type="submit">${t("Sign in to the gateway", "Ödeme geçidine oturum aç")}</button></p>
  </form></section>`;
}
