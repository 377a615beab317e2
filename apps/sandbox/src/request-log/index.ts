/**
 * The request log: the payments API's recent requests per workspace (bodies redacted, card data
 * never kept), shown live on the Request log page.
 */
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { ApiRequestLog } from "./api-request-log.js";
import { requestLogPage } from "./request-log-pages.js";

/** With the control API only (its page is the dashboard's); undefined when it is off. */
export const requestLogDeclaration: FeatureDeclaration<ApiRequestLog | undefined> = {
  name: "request-log",
  needs: [],
  build: ({ config }) => {
    if (!config.control) return { provides: undefined };
    const log = new ApiRequestLog();
    return { provides: log, feature: requestLogFeature(log, config.apiKeys) };
  },
};

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
export { ApiRequestLog };
