import { timingSafeEqual } from "node:crypto";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";

/** The path of a queued export's file (under the dashboard, no session needed); the query carries its expiry and signature. */
export function downloadPath(workspaceTag: string, jobId: string): string {
  return `/_sandbox/dashboard/exports/${encodeURIComponent(workspaceTag)}/${encodeURIComponent(jobId)}/download`;
}

function signature(secret: SandboxSecret, workspaceTag: string, jobId: string, expiresAt: number): string {
  return secret.digest("export-link", `${workspaceTag}\n${jobId}\n${expiresAt}`).toString("base64url");
}

/**
 * A link that downloads one export's file without a session, until it expires: signed with the
 * sandbox secret over the workspace, the job and the expiry, so it opens only that file and its
 * expiry cannot be moved.
 */
export function signedDownloadUrl(
  base: string,
  secret: SandboxSecret,
  workspaceTag: string,
  jobId: string,
  expiresAt: number,
): string {
  const query = new URLSearchParams({
    expires: String(expiresAt),
    signature: signature(secret, workspaceTag, jobId, expiresAt),
  });
  return `${base}${downloadPath(workspaceTag, jobId)}?${query}`;
}

/** Whether a link's expiry and signature are the ones the sandbox signed for this job. */
export function validDownloadSignature(
  secret: SandboxSecret,
  workspaceTag: string,
  jobId: string,
  expires: string,
  given: string,
): boolean {
  if (!/^\d{1,16}$/.test(expires)) return false;
  const expected = Buffer.from(signature(secret, workspaceTag, jobId, Number(expires)));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
