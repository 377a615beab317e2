import { CannotRun } from "./cannot-run.js";

/**
 * Credentials the provider refuses make every check fail for a reason that is not the provider's
 * fault: that is "could not run" (exit 2), said once, not dozens of violations (exit 1). Asked of
 * each API the run will call: the payments API's key with `GET /v1/accounts`, the gateway's key and
 * secret with its login.
 */
export async function assertCredentialsAccepted(apis: {
  readonly payments?: { readonly url: string; readonly apiKey: string };
  readonly gateway?: { readonly url: string; readonly basic: string };
  readonly timeoutMs: number;
}): Promise<void> {
  const refused = (status: number) => status === 401 || status === 403;
  const at = (base: string, path: string) => new URL(path, `${base.replace(/\/$/, "")}/`);
  if (apis.payments) {
    const answer = await fetch(at(apis.payments.url, "v1/accounts"), {
      headers: { authorization: `Bearer ${apis.payments.apiKey}` },
      signal: AbortSignal.timeout(apis.timeoutMs),
    });
    await answer.arrayBuffer();
    if (refused(answer.status))
      throw new CannotRun(
        `the provider refused the credentials (${answer.status} for GET /v1/accounts): check --api-key (or PAYSPEC_VERIFY_API_KEY).`,
      );
  }
  if (apis.gateway) {
    const answer = await fetch(at(apis.gateway.url, "auth/login"), {
      method: "POST",
      headers: { authorization: apis.gateway.basic },
      signal: AbortSignal.timeout(apis.timeoutMs),
    });
    await answer.arrayBuffer();
    if (refused(answer.status))
      throw new CannotRun(
        `the provider refused the credentials (${answer.status} for POST /auth/login): check --gateway-key and --gateway-secret (or PAYSPEC_VERIFY_GATEWAY_KEY / _SECRET).`,
      );
  }
}
