import { PassThrough } from "node:stream";
import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SandboxClocks } from "../clock/index.js";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import type { WorkspaceSetting } from "../infrastructure/workspace-settings/workspace-setting.js";
import type { ElapsedTime } from "../payments/index.js";
import type { ReconciliationStore } from "./reconciliation-store.js";
import { writeReportCsv } from "./report-csv.js";
import { runToApi, summaryToApi } from "./run-json.js";
import { readStatement } from "./statement-file.js";
import type { CsvMapping } from "./statement-formats/bank-csv.js";
import { registerStatementMappingControls } from "./statement-mappings.js";
import { registerStatementUpload, statementBytes } from "./statement-upload.js";

export interface ReconciliationDeps {
  readonly reconciliation: ReconciliationStore;
  /** The workspace's own bank CSV layouts. */
  readonly statementMappings: WorkspaceSetting<readonly CsvMapping[]>;
  readonly clocks: SandboxClocks;
  /** Statuses brought up to the clock first: a payment that completed and settled by now is reconcilable. */
  readonly elapsedTime: ElapsedTime;
}

/** `/_sandbox/reconciliations`: a bank statement imported (the file as the body, or uploaded), the runs, each run and its CSV report. */
export function registerReconciliationControls(
  control: FastifyInstance,
  { reconciliation, statementMappings, clocks, elapsedTime }: ReconciliationDeps,
  ctx: ControlContext,
): void {
  const { workspaceOf, clockScopeOf } = ctx;
  registerStatementMappingControls(control, statementMappings, ctx);
  // The statement upload in a context of its own: it takes files as people send them, while the rest
  // of the control API keeps taking JSON only.
  control.register(async (upload) => {
    registerStatementUpload(upload);
    upload.post("/_sandbox/reconciliations", async (request, reply) => {
      const key = workspaceOf(request, "Reconciliation");
      const bytes = await statementBytes(request);
      const statement = readStatement(bytes, await statementMappings.get(key));
      const at = await clocks.now(clockScopeOf(request));
      await elapsedTime.apply(key, at);
      const run = await reconciliation.reconcile(key, statement, at);
      reply.code(201).header("Location", `/_sandbox/reconciliations/${run.id}`);
      return runToApi(run);
    });
  });

  control.get("/_sandbox/reconciliations", async (request) => ({
    data: (await reconciliation.runs(workspaceOf(request, "Reconciliation"))).map(summaryToApi),
  }));

  const runOf = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const run = await reconciliation.run(workspaceOf(request, "Reconciliation"), request.params.id);
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
}
