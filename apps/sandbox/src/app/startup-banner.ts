import {
  DEMO_API_KEYS,
  DEMO_GATEWAY_KEY,
  DEMO_GATEWAY_SECRET,
  type SandboxConfig,
  VERIFY_API_KEY,
} from "../infrastructure/config/config.js";
import { seedWorkspace } from "../payments/index.js";

/** `sk_live_…a1b2`: enough to tell keys apart, too little to use one. */
export function maskSecret(value: string): string {
  const prefix = value.slice(0, value.lastIndexOf("_") + 1).slice(0, 12);
  return value.length <= 8 ? "…" : `${prefix}…${value.slice(-4)}`;
}

function shown(value: string, demo: readonly string[]): string {
  return demo.includes(value) ? value : maskSecret(value);
}

/** The demo login in full (the README publishes it); a login of one's own masked, its secret never shown. */
function gatewayLogin(config: SandboxConfig): string {
  return config.gatewayKey === DEMO_GATEWAY_KEY && config.gatewaySecret === DEMO_GATEWAY_SECRET
    ? `demo login ${DEMO_GATEWAY_KEY} / ${DEMO_GATEWAY_SECRET}`
    : `key ${maskSecret(config.gatewayKey)} (its secret is yours: PAYSPEC_GATEWAY_SECRET)`;
}

/**
 * What the sandbox prints when it starts. Only the documented demo keys appear in full: a key of
 * one's own may be pasted from somewhere real, and start-up output ends up in CI logs. Secrets and
 * Basic headers never appear.
 */
export function startupBanner(config: SandboxConfig, url: string): string {
  return [
    `payspec sandbox listening on ${url}`,
    "",
    "Payments and accounts API (Authorization: Bearer <key>):",
    ...config.apiKeys.map(
      (key) =>
        `  key ${shown(key, [...DEMO_API_KEYS, VERIFY_API_KEY])}: accounts ${seedWorkspace(key)
          .accounts.map((a) => a.id)
          .join(", ")}${key === VERIFY_API_KEY ? " (kept for payspec-verify: emptied before each run)" : ""}`,
    ),
    "",
    `Card gateway: POST ${url}/auth/login with Basic base64(<key>:<secret>), ${gatewayLogin(config)}`,
    `  tokens live ${config.tokenTtlSeconds} s; payments complete after ${config.completeAfterSeconds} s`,
    "",
    ...(config.control
      ? [
          `Dashboard: ${url}/_sandbox/dashboard (sign in with a key above, or the gateway's login)`,
          "Control API /_sandbox: on (reset, clock, forced states; see the sandbox README)",
        ]
      : ["Dashboard and control API /_sandbox: off (PAYSPEC_SANDBOX_CONTROL=off)"]),
    `Request log: ${config.logRequests ? "on" : "off (PAYSPEC_LOG=requests)"}; API reference: pnpm build:docs (in a clone of payspec)`,
    "",
  ].join("\n");
}
