import { ApiFailure } from "@payspec/server-kit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import type { Reconciliations } from "./reconciliations.js";
import { sendReportDownload } from "./report-download.js";
import { registerStatementUpload, statementBytes } from "./statement-upload.js";

/**
 * `/_sandbox/reconciliations`: a bank statement imported (the file as the body, or uploaded), the runs,
 * each run and its CSV report; `/_sandbox/settings/statement-mappings`: the workspace's own bank CSV layouts.
 */
export function registerReconciliationControls(
  control: FastifyInstance,
  reconciliations: Reconciliations,
  ctx: ControlContext,
): void {
  const { workspaceOf } = ctx;
  control.get("/_sandbox/settings/statement-mappings", async (request) => ({
    mappings: await reconciliations.layouts(workspaceOf(request, "Statement layouts")),
  }));
  control.put("/_sandbox/settings/statement-mappings", async (request) => ({
    mappings: await reconciliations.saveLayouts(workspaceOf(request, "Statement layouts"), request.body),
  }));
  // The statement upload in a context of its own: it takes files as people send them, while the rest
  // of the control API keeps taking JSON only.
  control.register(async (upload) => {
    registerStatementUpload(upload);
    upload.post("/_sandbox/reconciliations", async (request, reply) => {
      const run = await reconciliations.import(workspaceOf(request, "Reconciliation"), await statementBytes(request));
      reply.code(201).header("Location", `/_sandbox/reconciliations/${run.id}`);
      return run;
    });
  });

  control.get("/_sandbox/reconciliations", async (request) => ({
    data: await reconciliations.runs(workspaceOf(request, "Reconciliation")),
  }));

  const noRun = () =>
    new ApiFailure("not_found", "No reconciliation run with that id in this workspace.", { param: "id" });

  control.get<{ Params: { id: string } }>("/_sandbox/reconciliations/:id", async (request) => {
    const run = await reconciliations.run(workspaceOf(request, "Reconciliation"), request.params.id);
    if (!run) throw noRun();
    return run;
  });

  control.get<{ Params: { id: string } }>(
    "/_sandbox/reconciliations/:id/report.csv",
    async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const workspace = workspaceOf(request, "Reconciliation");
      const { id } = request.params;
      const write = await reconciliations.report(workspace, id);
      if (!write) throw noRun();
      return sendReportDownload(reply, id, write);
    },
  );
}
