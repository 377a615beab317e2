import { PassThrough, type Writable } from "node:stream";
import type { FastifyReply } from "fastify";

/** A run's CSV report as a download, streamed as it is written (the control API's and the page's alike). */
export async function sendReportDownload(
  reply: FastifyReply,
  id: string,
  write: (out: Writable) => Promise<void>,
): Promise<FastifyReply> {
  const body = new PassThrough();
  reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="reconciliation-${id}.csv"`)
    .send(body);
  await write(body);
  return reply;
}
