import { DEMO_API_KEYS, DEMO_GATEWAY_KEY, type SandboxConfig } from "./config.js";
import { seedWorkspace } from "./payments/seed.js";

/** `sk_live_…a1b2`: enough to tell keys apart, too little to use one. */
export function maskSecret(value: string): string {
  const prefix = value.slice(0, value.lastIndexOf("_") + 1).slice(0, 12);
  return value.length <= 8 ? "…" : `${prefix}…${value.slice(-4)}`;
}

function shown(value: string, demo: readonly string[]): string {
  return demo.includes(value) ? value : maskSecret(value);
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
        `  key ${shown(key, DEMO_API_KEYS)}: accounts ${seedWorkspace(key)
          .accounts.map((a) => a.id)
          .join(", ")}`,
    ),
    "",
    `Card gateway: POST ${url}/auth/login with Basic base64(<key>:<secret>), key ${shown(config.gatewayKey, [DEMO_GATEWAY_KEY])}` +
      (config.gatewayKey === DEMO_GATEWAY_KEY ? " (the demo secret is in the README)" : ""),
    `  tokens live ${config.tokenTtlSeconds} s; payments complete after ${config.completeAfterSeconds} s`,
    `  control API /_sandbox: ${config.control ? "on" : "off"}; request log: ${config.logRequests ? "on" : "off (PAYSPEC_LOG=requests)"}`,
    "",
  ].join("\n");
}
