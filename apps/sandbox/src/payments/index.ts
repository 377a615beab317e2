/**
 * Payments: the payments API (accounts, payments and their state machine, batches, the
 * cursor-paginated listing), the ledger that keeps balances equal to completed payments (completion,
 * the settlement cut-off), workspaces and their seed, the payments store (memory and PostgreSQL), the
 * forced-status control route and the overview, payment and new-payment pages.
 */
import { apiKeysDeclaration } from "../api-keys/index.js";
import type { SandboxClocks } from "../clock/index.js";
import { clockDeclaration, workspaceScope } from "../clock/index.js";
import { faultsDeclaration } from "../faults/index.js";
import { VERIFY_API_KEY } from "../infrastructure/config/config.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import type { WorkspaceSetting } from "../workspaces/index.js";
import { DueWork } from "./due-work.js";
import { type ElapsedTime, elapsedTime } from "./elapsed-time.js";
import { newPaymentPage } from "./new-payment-pages.js";
import type { PaymentsStores } from "./open-payments-stores.js";
import { registerPaymentControls } from "./payment-controls.js";
import { registerPaymentsApi } from "./payments-api.js";
import { paymentsPages } from "./payments-pages.js";
import type { PaymentsStore } from "./payments-store.js";
import { addSamplePayments } from "./sample-payments.js";
import { seedWorkspace } from "./seed.js";

export interface PaymentsFeatureDeps {
  readonly payments: PaymentsStore;
  readonly clocks: SandboxClocks;
  readonly approvalWorkflow: WorkspaceSetting<boolean>;
  /** The four-eyes rule: what a payment's page offers the person who submitted it. */
  readonly fourEyes: WorkspaceSetting<boolean>;
  readonly autoSettlement: WorkspaceSetting<boolean>;
  /** The configured keys: each is one workspace, seeded with accounts. */
  readonly workspaceKeys: readonly string[];
  /** Whether a (re)seeded workspace gets sample payments (never the verifier's workspace). */
  readonly samplesFor: (apiKey: string) => boolean;
  readonly completeAfterMs: number;
}

export function paymentsFeature(deps: PaymentsFeatureDeps): SandboxFeature & {
  /** Seeds the workspaces the store does not have yet (a shared store keeps the others). */
  ensureWorkspaces(): Promise<void>;
} {
  const { payments, clocks } = deps;
  const overview = paymentsPages(deps);
  const newPayment = newPaymentPage(deps);
  const dueWork = new DueWork(deps);
  const addSamples = async (apiKey: string) => {
    if (!deps.samplesFor(apiKey)) return;
    const now = await clocks.now(workspaceScope(apiKey));
    await addSamplePayments(payments, seedWorkspace(apiKey), now, deps.completeAfterMs);
  };
  return {
    name: "payments",
    controlRoutes: (control, ctx) => registerPaymentControls(control, deps, ctx),
    dashboardPages: (dashboard, ctx) => {
      overview(dashboard, ctx);
      newPayment(dashboard, ctx);
    },
    resetWorkspace: async (apiKey) => {
      await payments.resetWorkspace(seedWorkspace(apiKey));
      await addSamples(apiKey);
    },
    reset: async () => {
      await payments.reset(deps.workspaceKeys.map(seedWorkspace));
      for (const key of deps.workspaceKeys) await addSamples(key);
    },
    start: () => dueWork.start(),
    stop: () => dueWork.stop(),
    backgroundLoops: () => [dueWork.loopStatus()],
    dueBacklog: async () => ({ "payments-due": await dueWork.backlog() }),
    ensureWorkspaces: async () => {
      const created = new Set(await payments.ensureWorkspaces(deps.workspaceKeys.map(seedWorkspace)));
      for (const key of deps.workspaceKeys) if (created.has(key)) await addSamples(key);
    },
  };
}
export type { CursorState } from "./cursor.js";
export { encodeCursor } from "./cursor.js";
export { awaitsApproval, submitFromDashboard, submittedBy } from "./dashboard-submit.js";
export type { ElapsedTime } from "./elapsed-time.js";
export { applyElapsedTime, elapsedTime, REQUEST_CHUNKS } from "./elapsed-time.js";
export { fieldLabel, turkishFieldName } from "./field-names.js";
export { listingFilterFields } from "./filter-fields.js";
export { filterWords, type NamedAccount } from "./filter-words.js";
export type { ListingFilters } from "./list-payments.js";
export { listingFilters, listPayments, openListing } from "./list-payments.js";
export { openPaymentsStores, type PaymentsStores } from "./open-payments-stores.js";
export { registerPaymentsApi } from "./payments-api.js";
export { browsePayments } from "./payments-browse.js";
export { filtersOf, paymentPagePath } from "./payments-pages.js";
export {
  type Actor,
  type PaymentRecord,
  type PaymentsStore,
  type StatementCandidates,
  type StatementCandidatesQuery,
  type StoredPayment,
  sameActor,
  type TransitionResult,
} from "./payments-store.js";
export type { PaymentRow } from "./postgres-payment-rows.js";
export { seedWorkspace } from "./seed.js";
export { paymentToApi } from "./serialize.js";

export interface PaymentsLedger {
  readonly payments: PaymentsStore;
  /** Statuses brought up to a workspace's clock (completion, the settlement cut-off) before a read. */
  readonly catchUp: ElapsedTime;
}

/**
 * The ledger: every configured workspace seeded (a shared store keeps the ones it has) before the
 * sandbox answers, its due work in the background.
 */
export const paymentsDeclaration: FeatureDeclaration<
  PaymentsLedger,
  PaymentsStores & {
    readonly approvalWorkflow: WorkspaceSetting<boolean>;
    readonly fourEyes: WorkspaceSetting<boolean>;
    readonly autoSettlement: WorkspaceSetting<boolean>;
  }
> = {
  name: "payments",
  needs: [clockDeclaration],
  build: async ({ config, stores, use }) => {
    const completeAfterMs = config.completeAfterSeconds * 1000;
    const feature = paymentsFeature({
      payments: stores.payments,
      clocks: use(clockDeclaration),
      approvalWorkflow: stores.approvalWorkflow,
      fourEyes: stores.fourEyes,
      autoSettlement: stores.autoSettlement,
      workspaceKeys: config.apiKeys,
      samplesFor: (key) => config.samplePayments && key !== VERIFY_API_KEY,
      completeAfterMs,
    });
    await feature.ensureWorkspaces();
    return { provides: { payments: stores.payments, catchUp: elapsedTime(stores.payments, completeAfterMs) }, feature };
  },
};

/** The payments API (`/v1`): authenticated by the workspaces' keys, struck by their declared faults. */
export const paymentsApiDeclaration: FeatureDeclaration<undefined, PaymentsStores> = {
  name: "payments-api",
  needs: [paymentsDeclaration, clockDeclaration, apiKeysDeclaration, faultsDeclaration],
  build: ({ config, stores, secret, use }) => ({
    provides: undefined,
    feature: {
      name: "payments-api",
      apiRoutes: (app) =>
        registerPaymentsApi(app, {
          config,
          store: stores.payments,
          clocks: use(clockDeclaration),
          secret,
          apiKeys: use(apiKeysDeclaration).apiKeys,
          faults: use(faultsDeclaration),
        }),
    },
  }),
};
