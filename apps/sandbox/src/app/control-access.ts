import { type ApiKeys, UNKNOWN_KEY } from "../api-keys/index.js";
import type { SandboxClocks } from "../clock/index.js";
import { type GatewayStore, isLiveToken } from "../gateway/index.js";
import type { ControlAuthenticator } from "../infrastructure/control-api/control-api.js";

/** Who a control call acts for: a workspace's live API key, or a live gateway access token. */
export function controlAuthenticator(
  apiKeys: ApiKeys,
  gateway: GatewayStore,
  clocks: SandboxClocks,
  /** Who acts with a key, as histories record it (never the key). */
  signerOf: (key: string) => string,
): ControlAuthenticator {
  return async (credential) => {
    const workspace = await apiKeys.authenticate(credential);
    if (workspace.ok) return { kind: "workspace", apiKey: workspace.workspace, signer: signerOf(credential) };
    if (await isLiveToken(gateway, clocks, credential)) return { kind: "gateway" };
    if (workspace.message !== UNKNOWN_KEY) return { refused: workspace.message };
    return {
      refused:
        "Send a workspace's API key or a gateway access token as 'Authorization: Bearer <credential>'; the control API acts on that workspace or on the gateway only.",
    };
  };
}
