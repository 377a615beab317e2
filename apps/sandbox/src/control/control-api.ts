import { PassThrough } from "node:stream";
import { zPaymentCreate, zPaymentStatus } from "@payspec/payments-zod";
import { ApiFailure, assertStorableText, credentialsFor, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ApiKeys } from "../api-keys/api-keys.js";
import { UNKNOWN_KEY } from "../api-keys/api-keys.js";
import { GATEWAY_SCOPE, type SandboxClocks, workspaceScope } from "../clock.js";
import type { ExportQueue } from "../exports/export-queue.js";
import type { DeclaredFaults } from "../faults/declared-faults.js";
import { isLiveToken } from "../gateway/gateway-api.js";
import type { Mailer } from "../mail/mailer.js";
import { approvePayment, submitFromDashboard } from "../payments/dashboard-actions.js";
import { applyElapsedTime } from "../payments/elapsed-time.js";
import { paymentToApi } from "../payments/serialize.js";
import { writeReportCsv } from "../reconciliation/report-csv.js";
import { runToApi, summaryToApi } from "../reconciliation/run-json.js";
import { readStatement, STATEMENT_MAX_BYTES } from "../reconciliation/statement-file.js";
import type { ReportSchedules } from "../scheduled-reports/report-schedules.js";
import type { GatewayStore, PaymentsStore } from "../store/index.js";
import { readCappedBody } from "./capped-body.js";
import { registerFaultControls } from "./fault-controls.js";
import { registerMailAndExportControls } from "./mail-and-exports.js";

export interface ControlApiDeps {
  readonly apiKeys: ApiKeys;
  readonly payments: PaymentsStore;
  readonly gateway: GatewayStore;
  /** Faults each workspace (and the gateway) asked for. */
  readonly faults: DeclaredFaults;
  readonly clocks: SandboxClocks;
  /** One workspace back to how the sandbox starts it (seed accounts, sample payments if configured). */
  readonly resetWorkspace: (apiKey: string) => Promise<void>;
  /** The gateway's card payments cleared (tokens kept), its dashboard sessions ended. */
  readonly resetGateway: () => Promise<void>;
  readonly completeAfterMs: number;
  readonly mailer: Mailer;
  readonly exports: ExportQueue;
  readonly schedules: ReportSchedules;
}

/** Whom a control call acts for: one payments workspace (its API key) or the gateway (an access token). */
type ControlScope = { readonly kind: "workspace"; readonly apiKey: string } | { readonly kind: "gateway" };

declare module "fastify" {
  interface FastifyRequest {
    controlScope?: ControlScope;
  }
}

const forceStatus = z.object({ body: z.strictObject({ status: zPaymentStatus }) });
/** Every status but `reconciled`, which is final (see the forced-status route). */
const FORCEABLE_FROM = zPaymentStatus.options.filter((status) => status !== "reconciled");
const enabledSetting = z.object({ body: z.strictObject({ enabled: z.boolean() }) });
const dashboardSubmit = z.object({ body: zPaymentCreate });
const advanceClock = z.object({ body: z.strictObject({ seconds: z.number().positive() }) });

function clockScope(scope: ControlScope): string {
  return scope.kind === "gateway" ? GATEWAY_SCOPE : workspaceScope(scope.apiKey);
}

/**
 * /_sandbox: test controls that are not part of either public API (off with PAYSPEC_SANDBOX_CONTROL=off).
 * Every call authenticates like the API it controls and acts on that caller's scope only:
 * `Bearer <API key>` is one workspace (its payments, its clock, its reset), `Bearer <access token>`
 * is the gateway. Errors use the payments API's shape.
 */
export function registerControlApi(
  app: FastifyInstance,
  {
    apiKeys,
    payments,
    gateway,
    clocks,
    resetWorkspace,
    resetGateway,
    completeAfterMs,
    mailer,
    exports,
    schedules,
    faults,
  }: ControlApiDeps,
): void {
  const scopeOf = (request: FastifyRequest): ControlScope => request.controlScope as ControlScope;

  app.register(async (control) => {
    control.addHook("onRequest", async (request) => {
      const credential = credentialsFor("Bearer", request.headers.authorization) ?? "";
      const workspace = await apiKeys.authenticate(credential);
      if (workspace.ok) request.controlScope = { kind: "workspace", apiKey: workspace.workspace };
      else if (await isLiveToken(gateway, clocks, credential)) request.controlScope = { kind: "gateway" };
      else if (workspace.message !== UNKNOWN_KEY) throw new ApiFailure("unauthorized", workspace.message);
      else {
        throw new ApiFailure(
          "unauthorized",
          "Send a workspace's API key or a gateway access token as 'Authorization: Bearer <credential>'; the control API acts on that workspace or on the gateway only.",
        );
      }
    });

    registerFaultControls(control, faults, (request) => {
      const scope = scopeOf(request);
      return { scope: clockScope(scope), api: scope.kind === "gateway" ? "gateway" : "payments" };
    });

    control.post("/_sandbox/reset", async (request) => {
      const scope = scopeOf(request);
      await clocks.reset(clockScope(scope));
      // A reset is a new workspace (or gateway): its faults go with it.
      faults.clear(clockScope(scope));
      if (scope.kind === "workspace") await resetWorkspace(scope.apiKey);
      else await resetGateway();
      return { reset: scope.kind, now: new Date(await clocks.now(clockScope(scope))).toISOString() };
    });

    control.post<{ Params: { id: string } }>("/_sandbox/payments/:id/status", async (request) => {
      const { body } = parseRequest(forceStatus, { body: request.body });
      const scope = scopeOf(request);
      const id = request.params.id;
      if (scope.kind !== "workspace") {
        throw new ApiFailure("not_found", `No payment ${id}: forcing a status needs the workspace's API key.`, {
          param: "id",
        });
      }
      const at = await clocks.now(clockScope(scope));
      // A reconciled payment is matched to a bank statement line: moving it would leave that run's
      // report saying something no longer true, so it is final here (the seed's last state).
      const result = await payments.transition(scope.apiKey, id, FORCEABLE_FROM, body.status, at, "control");
      if (result.ok) return paymentToApi(result.payment);
      if (result.reason === "not_found") {
        throw new ApiFailure("not_found", `No payment ${id} in this workspace.`, { param: "id" });
      }
      if (result.reason === "status") {
        throw new ApiFailure(
          "invalid_request",
          `Payment ${id} is reconciled: a reconciliation run matched it to a statement line, so its status can no longer be forced. Reset the workspace to start again.`,
          { status: 409, param: "status" },
        );
      }
      const account = body.status === "completed" ? "debit account" : "account to take the money back from";
      throw new ApiFailure(
        "invalid_request",
        `Payment ${id} cannot go from ${result.payment.status} to ${body.status}: the ${account} cannot cover it, and balances must always match completed payments.`,
        { status: 409, param: "status" },
      );
    });

    /** The workspace's API key: the dashboard's paths are a workspace's, never the gateway's. */
    const workspaceOf = (request: FastifyRequest, what: string): string => {
      const scope = scopeOf(request);
      if (scope.kind !== "workspace") {
        throw new ApiFailure("forbidden", `${what} needs a workspace's API key, not a gateway token.`);
      }
      return scope.apiKey;
    };

    // The dashboard's paths over HTTP (the seed's state table): its approval-workflow setting, a
    // dashboard submit, an approver's approval. Tests and the contract verifier drive them here.
    control.put("/_sandbox/settings/approval-workflow", async (request) => {
      const { body } = parseRequest(enabledSetting, { body: request.body });
      await payments.setApprovalWorkflow(workspaceOf(request, "The approval workflow"), body.enabled);
      return { enabled: body.enabled };
    });

    control.post("/_sandbox/payments", async (request, reply) => {
      const key = workspaceOf(request, "A dashboard submit");
      assertStorableText(request.body);
      const { body } = parseRequest(dashboardSubmit, { body: request.body });
      const payment = await submitFromDashboard(payments, key, body, await clocks.now(workspaceScope(key)));
      return reply.code(201).send(paymentToApi(payment));
    });

    control.post<{ Params: { id: string } }>("/_sandbox/payments/:id/approve", async (request) => {
      const key = workspaceOf(request, "Approving");
      const id = request.params.id;
      const result = await approvePayment(payments, key, id, await clocks.now(workspaceScope(key)));
      if (result.ok) return paymentToApi(result.payment);
      if (result.reason === "not_found") {
        throw new ApiFailure("not_found", `No payment ${id} in this workspace.`, { param: "id" });
      }
      throw new ApiFailure(
        "invalid_request",
        `Payment ${id} is not waiting for an approver (it is ${result.payment.status}); only a dashboard payment made with the approval workflow on can be approved, once.`,
        { status: 409 },
      );
    });

    registerMailAndExportControls(control, { payments, mailer, exports, schedules }, workspaceOf);

    // Settings → API keys, for scripted tests: the key is in the answer to its creation only.
    control.post("/_sandbox/api-keys", async (request, reply) => {
      const created = await apiKeys.create(workspaceOf(request, "An API key"), request.body);
      return reply.code(201).send({ ...created.view, key: created.key });
    });

    control.get("/_sandbox/api-keys", async (request) => ({
      data: await apiKeys.list(workspaceOf(request, "Listing API keys")),
    }));

    control.delete<{ Params: { id: string } }>("/_sandbox/api-keys/:id", async (request) =>
      apiKeys.revoke(workspaceOf(request, "Revoking an API key"), request.params.id),
    );

    control.put("/_sandbox/settings/settlement", async (request) => {
      const { body } = parseRequest(enabledSetting, { body: request.body });
      await payments.setAutoSettlement(workspaceOf(request, "The settlement setting"), body.enabled);
      return { enabled: body.enabled };
    });

    // A bank statement, as CSV: read whole (bounded) before anything changes, then reconciled in one go.
    control.addContentTypeParser("text/csv", (_request, payload, done) => {
      readCappedBody(payload, STATEMENT_MAX_BYTES).then(
        (bytes) => done(null, bytes),
        (error: Error) => done(error),
      );
    });

    control.post("/_sandbox/reconciliations", async (request, reply) => {
      const key = workspaceOf(request, "Reconciliation");
      if (!Buffer.isBuffer(request.body)) {
        throw new ApiFailure("invalid_request", "Send the statement file as the body, with Content-Type: text/csv.", {
          param: "Content-Type",
        });
      }
      const statement = readStatement(request.body);
      const at = await clocks.now(workspaceScope(key));
      // Statuses as of now: a payment that completed and settled by the clock is reconcilable.
      await applyElapsedTime(payments, key, at, completeAfterMs);
      const run = await payments.reconcile(key, statement, at);
      return reply.code(201).header("Location", `/_sandbox/reconciliations/${run.id}`).send(runToApi(run));
    });

    control.get("/_sandbox/reconciliations", async (request) => ({
      data: (await payments.reconciliationRuns(workspaceOf(request, "Reconciliation"))).map(summaryToApi),
    }));

    const runOf = async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const run = await payments.reconciliationRun(workspaceOf(request, "Reconciliation"), request.params.id);
      if (!run)
        throw new ApiFailure("not_found", "No reconciliation run with that id in this workspace.", { param: "id" });
      return run;
    };

    control.get<{ Params: { id: string } }>("/_sandbox/reconciliations/:id", async (request) =>
      runToApi(await runOf(request)),
    );

    control.get<{ Params: { id: string } }>("/_sandbox/reconciliations/:id/report.csv", async (request, reply) => {
      const run = await runOf(request);
      const body = new PassThrough();
      reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="reconciliation-${run.id}.csv"`)
        .send(body);
      await writeReportCsv(run, body);
      return reply;
    });

    control.post("/_sandbox/clock/advance", async (request) => {
      const { body } = parseRequest(advanceClock, { body: request.body });
      const now = await clocks.advance(clockScope(scopeOf(request)), body.seconds);
      return { now: new Date(now).toISOString() };
    });

    control.post("/_sandbox/clock/rewind", async (request) => {
      const { body } = parseRequest(advanceClock, { body: request.body });
      const now = await clocks.rewind(clockScope(scopeOf(request)), body.seconds);
      return { now: new Date(now).toISOString() };
    });
  });
}
