import { ApiFailure, parseRequest } from "@payspec/server-kit";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ControlContext } from "../infrastructure/control-api/control-context.js";
import { listingFilterFields, listingFilters } from "../payments/index.js";
import type { ExportJob } from "./export-job-store.js";
import type { ExportQueue } from "./export-queue.js";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const exportRequest = z.object({
  body: z.strictObject({
    format: z.enum(["csv", "pdf"]),
    ...listingFilterFields,
    from: z.string().regex(DATE, "a date as YYYY-MM-DD").optional(),
    to: z.string().regex(DATE, "a date as YYYY-MM-DD").optional(),
  }),
});

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** A queued export as the control API shows it; `download_url` while its link works. */
export function jobToApi(job: ExportJob, downloadUrl: string | undefined) {
  return {
    id: job.id,
    format: job.format,
    filters: listingFilters(job.listing),
    state: job.state,
    total: job.total,
    rows_written: job.rowsWritten,
    requested_at: iso(job.requestedAt),
    ...(job.readyAt === undefined ? {} : { ready_at: iso(job.readyAt) }),
    ...(job.expiresAt === undefined ? {} : { expires_at: iso(job.expiresAt) }),
    ...(job.bytes === undefined ? {} : { bytes: job.bytes }),
    ...(job.error === undefined ? {} : { error: job.error }),
    ...(downloadUrl ? { download_url: downloadUrl } : {}),
  };
}

/** Queued exports on the control API: what the dashboard's Exports page does, scriptable in tests. */
export function registerExportControls(
  control: FastifyInstance,
  exports: ExportQueue,
  { workspaceOf }: ControlContext,
): void {
  control.post("/_sandbox/exports", async (request, reply) => {
    const key = workspaceOf(request, "An export");
    const { body } = parseRequest(exportRequest, { body: request.body });
    const { format, ...filters } = body;
    const job = await exports.request(key, format, filters);
    reply.code(202).header("Location", `/_sandbox/exports/${job.id}`);
    return jobToApi(job, undefined);
  });

  control.get("/_sandbox/exports", async (request) => ({
    data: (await exports.list(workspaceOf(request, "Exports"))).map((job) => jobToApi(job, exports.downloadUrl(job))),
  }));

  control.get<{ Params: { id: string } }>("/_sandbox/exports/:id", async (request) => {
    const job = await exports.get(workspaceOf(request, "Exports"), request.params.id);
    if (!job) throw new ApiFailure("not_found", "No export with that id in this workspace.", { param: "id" });
    return jobToApi(job, exports.downloadUrl(job));
  });
}
