import type { SharedTransaction } from "../infrastructure/postgres/transaction.js";
import type { OutboxMessage } from "../mail/index.js";
import type { CursorState } from "../payments/index.js";

export type ExportJobState = "queued" | "running" | "ready" | "failed" | "expired";

/** A large export, written in the background from one listing snapshot and sent as a link. */
export interface ExportJob {
  readonly id: string;
  readonly workspaceTag: string;
  readonly format: "csv" | "pdf";
  /**
   * The listing as of the request (its snapshot, filters and total, as a cursor carries them): the
   * file holds exactly that, whenever it is written.
   */
  readonly listing: CursorState;
  readonly total: number;
  readonly requestedAt: number;
  readonly state: ExportJobState;
  readonly rowsWritten: number;
  /** Set while running: which instance holds it, and until when before another may take it over. */
  readonly leaseOwner?: string;
  readonly leaseUntil?: number;
  readonly attempts: number;
  readonly readyAt?: number;
  /** The link's expiry, on the workspace's clock. */
  readonly expiresAt?: number;
  readonly bytes?: number;
  readonly error?: string;
}

export interface ExportJobStore {
  add(job: ExportJob): Promise<void>;
  list(workspaceTag: string, limit: number): Promise<readonly ExportJob[]>;
  get(workspaceTag: string, id: string): Promise<ExportJob | undefined>;
  /** The oldest job that is queued, or running under a lease that ran out (its instance died), now leased to `owner`. */
  claim(owner: string, now: number, leaseUntil: number): Promise<ExportJob | undefined>;
  /** Progress under the lease; false when the lease is no longer this owner's (stop: another has the job). */
  progress(id: string, owner: string, rowsWritten: number, leaseUntil: number): Promise<boolean>;
  /**
   * The file and the e-mail that announces it, in one step: both or neither, and only while `owner`
   * still holds the lease, so a job yields exactly one file and one e-mail.
   */
  complete(
    id: string,
    owner: string,
    file: Buffer,
    done: { readyAt: number; expiresAt: number },
    mail?: OutboxMessage,
  ): Promise<boolean>;
  /**
   * A job that is ready at once with its file (a scheduled report too large to attach); with
   * `transaction`, in that transaction of the caller's store (the schedule's delivery).
   */
  addReady(job: ExportJob, file: Buffer, transaction?: SharedTransaction): Promise<void>;
  fail(id: string, owner: string, error: string): Promise<void>;
  /** Back in the queue from `owner`, who is stopping: the next instance to look starts it again at once. */
  release(id: string, owner: string): Promise<void>;
  file(workspaceTag: string, id: string): Promise<Buffer | undefined>;
  /** Ready jobs whose link expired by `now` (per workspace clock, so the caller passes each): file dropped. */
  expire(workspaceTag: string, now: number): Promise<void>;
  deleteFor(workspaceTag?: string): Promise<void>;
}
