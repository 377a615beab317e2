/**
 * Exports: payments as CSV or PDF for people, downloaded at once or, when large, queued, written in
 * the background (any instance takes the job under a lease) and e-mailed as a signed link; the job
 * store, control routes and the Exports page.
 */
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { workspaceTag } from "../infrastructure/workspaces/workspace-tag.js";
import { registerExportControls } from "./export-controls.js";
import type { ExportJobStore } from "./export-job-store.js";
import type { ExportQueue } from "./export-queue.js";
import { type ExportsPagesDeps, exportsPages } from "./exports-pages.js";
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
