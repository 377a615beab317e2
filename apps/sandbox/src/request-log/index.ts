/**
 * The request log: the payments API's recent requests per workspace (bodies redacted, card data
 * never kept), shown live on the Request log page.
 */
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import type { ApiRequestLog } from "./api-request-log.js";
import { requestLogPage } from "./request-log-pages.js";

export function requestLogFeature(log: ApiRequestLog, workspaceKeys: readonly string[]): SandboxFeature {
  return {
    name: "request-log",
    dashboardPages: requestLogPage(log),
    resetWorkspace: async (apiKey) => log.clear(apiKey),
    reset: async () => {
      for (const key of workspaceKeys) log.clear(key);
    },
  };
}
export { ApiRequestLog } from "./api-request-log.js";
