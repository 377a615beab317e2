/**
 * Scheduled reports: daily or weekly CSV/PDF reports of a workspace's payments, due on its sandbox
 * clock, delivered by e-mail (large ones as a queued export's link) by any instance under a lease;
 * their store, control routes and the Schedules pages.
 */
import { clockDeclaration } from "../clock/index.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import { type MailStores, mailDeclaration } from "../mail/index.js";
import { paymentsDeclaration } from "../payments/index.js";
import { workspaceTag } from "../workspaces/index.js";
import type { ScheduleStores } from "./open-schedule-stores.js";
import { ReportSchedules } from "./report-schedules.js";
import { registerScheduleControls } from "./schedule-controls.js";
import type { ScheduleStore } from "./schedule-store.js";
import { schedulesPages } from "./schedules-pages.js";

export function scheduledReportsFeature(schedules: ReportSchedules, store: ScheduleStore): SandboxFeature {
  return {
    name: "scheduled-reports",
    controlRoutes: (control, ctx) => registerScheduleControls(control, schedules, ctx),
    dashboardPages: schedulesPages(schedules),
    resetWorkspace: (apiKey) => store.deleteFor(workspaceTag(apiKey)),
    reset: () => store.deleteFor(),
    start: () => schedules.start(),
    stop: () => schedules.stop(),
    backgroundLoops: () => [schedules.loopStatus()],
  };
}
export { openScheduleStores, type ScheduleStores } from "./open-schedule-stores.js";
export type { ScheduleStore } from "./schedule-store.js";
export { ReportSchedules };

export const scheduledReportsDeclaration: FeatureDeclaration<undefined, ScheduleStores & MailStores> = {
  name: "scheduled-reports",
  needs: [mailDeclaration, paymentsDeclaration, clockDeclaration],
  build: ({ config, stores, secret, linkBase, use }) => {
    const schedules = new ReportSchedules({
      store: stores.schedules,
      payments: use(paymentsDeclaration).payments,
      reportRecipients: stores.reportRecipients,
      clocks: use(clockDeclaration),
      secret,
      mailer: use(mailDeclaration),
      workspaceKeys: config.apiKeys,
      completeAfterMs: config.completeAfterSeconds * 1000,
      attachRows: config.exportQueueRows,
      linkHours: config.exportLinkHours,
      baseUrl: linkBase,
    });
    return { provides: undefined, feature: scheduledReportsFeature(schedules, stores.schedules) };
  },
};
