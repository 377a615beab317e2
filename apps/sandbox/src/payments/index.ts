/**
 * Payments: the payments API (accounts, payments and their state machine, batches, the
 * cursor-paginated listing), the ledger that keeps balances equal to completed payments (completion,
 * the settlement cut-off), the workspaces' seeded accounts, the payments store (memory and
 * PostgreSQL), the forced-status control route and the overview, payment and new-payment pages.
 * In rooms, each with its tests: `creation/` (a create from the API, a batch or the dashboard form,
 * the seed and sample payments), `lifecycle/` (time's work: completion and settlement as time passes,
 * a forced status), `listing/` (filters, cursors, pages of the listing and the dashboard's browsing),
 * `store/` (the contract, `memory/` and `postgres/`); the API, the pages and serialization here.
 */
import { apiKeysDeclaration } from "../api-keys/index.js";
import type { SandboxClocks } from "../clock/index.js";
import { clockDeclaration, workspaceScope } from "../clock/index.js";
import { faultsDeclaration } from "../faults/index.js";
import { VERIFY_API_KEY } from "../infrastructure/config/config.js";
import type { FeatureDeclaration } from "../infrastructure/features/feature-declaration.js";
import type { SandboxFeature } from "../infrastructure/features/sandbox-feature.js";
import type { WorkspaceSetting } from "../workspaces/index.js";
import { newPaymentPage } from "./creation/new-payment-pages.js";
import { addSamplePayments } from "./creation/sample-payments.js";
import { seedWorkspace } from "./creation/seed.js";
import { DueWork } from "./lifecycle/due-work.js";
import { type ElapsedTime, elapsedTime } from "./lifecycle/elapsed-time.js";
import { registerPaymentControls } from "./lifecycle/payment-controls.js";
import { registerPaymentsApi } from "./payments-api.js";
import { paymentsPages } from "./payments-pages.js";
import type { PaymentsStores } from "./store/open-payments-stores.js";
import type { PaymentsStore } from "./store/payments-store.js";

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
export { awaitsApproval, submitFromDashboard, submittedBy } from "./creation/dashboard-submit.js";
export { seedWorkspace } from "./creation/seed.js";
export type { ElapsedTime } from "./lifecycle/elapsed-time.js";
export { applyElapsedTime, elapsedTime, REQUEST_CHUNKS } from "./lifecycle/elapsed-time.js";
export type { CursorState } from "./listing/cursor.js";
export { encodeCursor } from "./listing/cursor.js";
export { fieldLabel, turkishFieldName } from "./listing/field-names.js";
export { listingFilterFields } from "./listing/filter-fields.js";
export { filterWords, type NamedAccount } from "./listing/filter-words.js";
export type { ListingFilters } from "./listing/list-payments.js";
export { listingFilters, listPayments, openListing } from "./listing/list-payments.js";
export { browsePayments } from "./listing/payments-browse.js";
export { registerPaymentsApi } from "./payments-api.js";
export { filtersOf, paymentPagePath } from "./payments-pages.js";
export { paymentToApi } from "./serialize.js";
export { openPaymentsStores, type PaymentsStores } from "./store/open-payments-stores.js";
export {
  type Actor,
  type PaymentRecord,
  type PaymentsStore,
  type StatementCandidates,
  type StatementCandidatesQuery,
  type StoredPayment,
  sameActor,
  type TransitionResult,
} from "./store/payments-store.js";
export type { PaymentRow } from "./store/postgres/postgres-payment-rows.js";

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
