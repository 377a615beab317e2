/**
 * Exports: payments as CSV or PDF for people, downloaded at once or, when large, queued, written in
 * the background (any instance takes the job under a lease) and e-mailed as a signed link; the job
 * store, control routes and the Exports page.
 */
import { clockDeclaration } from "../clock/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { type MailStores, mailDeclaration } from "../mail/index.js";
import { paymentsDeclaration } from "../payments/index.js";
import { workspaceTag } from "../workspaces/index.js";
import { registerExportControls } from "./export-controls.js";
import type { ExportJobStore } from "./export-job-store.js";
import { ExportQueue } from "./export-queue.js";
import { type ExportsPagesDeps, exportsPages } from "./exports-pages.js";
import type { ExportStores } from "./open-export-stores.js";
import { type PaymentExportsDeps, paymentExportsPages } from "./payment-exports-pages.js";

export function exportsFeature(
  deps: ExportsPagesDeps & PaymentExportsDeps & { readonly jobs: ExportJobStore },
): SandboxFeature {
  const listing = exportsPages(deps);
  const downloads = paymentExportsPages(deps);
  const queue: ExportQueue = deps.exports;
  return {
    name: "exports",
    controlRoutes: (control, ctx) => registerExportControls(control, queue, ctx),
    dashboardPages: (dashboard, ctx) => {
      downloads(dashboard, ctx);
      listing(dashboard, ctx);
    },
    resetWorkspace: (apiKey) => deps.jobs.deleteFor(workspaceTag(apiKey)),
    reset: () => deps.jobs.deleteFor(),
    start: () => queue.start(),
    stop: () => queue.stop(),
    backgroundLoops: () => [queue.loopStatus()],
  };
}
export { signedDownloadUrl } from "./download-link.js";
export { exportFilename } from "./export-filename.js";
export type { ExportJob, ExportJobStore } from "./export-job-store.js";
export { ExportQueue } from "./export-queue.js";
export { EXPORT_PAGE } from "./listing-stream.js";
export { type ExportStores, openExportStores } from "./open-export-stores.js";
export { paymentsFile } from "./payments-file.js";

/** Queued exports, written by any instance under a lease and mailed as a signed link. */
export const exportsDeclaration: FeatureDeclaration<undefined, ExportStores & MailStores> = {
  name: "exports",
  needs: [mailDeclaration, paymentsDeclaration, clockDeclaration],
  build: ({ config, stores, secret, metrics, linkBase, use }) => {
    const byTag = new Map(config.apiKeys.map((key) => [workspaceTag(key), key]));
    const shared = {
      payments: use(paymentsDeclaration).payments,
      reportRecipients: stores.reportRecipients,
      secret,
      clocks: use(clockDeclaration),
    };
    const exports = new ExportQueue({
      ...shared,
      jobs: stores.exportJobs,
      mailer: use(mailDeclaration),
      workspaceOf: (tag) => byTag.get(tag),
      baseUrl: linkBase,
      linkHours: config.exportLinkHours,
      leaseMs: config.jobLeaseSeconds * 1000,
    });
    return {
      provides: undefined,
      feature: exportsFeature({
        ...shared,
        exports,
        jobs: stores.exportJobs,
        workspaceKeys: config.apiKeys,
        exportQueueRows: config.exportQueueRows,
        metrics,
      }),
    };
  },
};
