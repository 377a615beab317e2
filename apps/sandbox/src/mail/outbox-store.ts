import type { SharedTransaction } from "../infrastructure/postgres/transaction.js";

export interface MailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

/**
 * Where an e-mail stands. Without an SMTP server it is only `caught` (kept in the outbox, like a mail
 * catcher); with one it is `queued`, then `sent`, or `retrying` with backoff until `failed`.
 */
export type MailDelivery =
  | { readonly state: "caught" }
  | {
      readonly state: "queued" | "retrying";
      readonly attempts: number;
      readonly nextAttemptAt: number;
      readonly lastError?: string;
    }
  | { readonly state: "sent"; readonly attempts: number; readonly sentAt: number }
  | { readonly state: "failed"; readonly attempts: number; readonly lastError: string };

/** An e-mail the sandbox sent: kept whole in its workspace's outbox. */
export interface OutboxMessage {
  readonly id: string;
  readonly workspaceTag: string;
  /** Real time: an outbox is about the mail that left, not the sandbox's clock. */
  readonly createdAt: number;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly attachments: readonly MailAttachment[];
  readonly delivery: MailDelivery;
}

/** The outbox of every workspace, and the SMTP delivery queue, shared by the instances that share the store. */
export interface OutboxStore {
  /**
   * Keeps a message; with `transaction`, in that transaction of another feature's store (an export's
   * or a schedule's delivery kept with its e-mail, both or neither).
   */
  add(message: OutboxMessage, transaction?: SharedTransaction): Promise<void>;
  /** Newest first, at most `limit`. */
  list(workspaceTag: string, limit: number): Promise<readonly OutboxMessage[]>;
  get(workspaceTag: string, id: string): Promise<OutboxMessage | undefined>;
  /**
   * Up to `limit` messages due for an SMTP attempt (queued or retrying, next attempt at or before `now`),
   * leased until `leaseUntil` so that no other instance sends them meanwhile.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<readonly OutboxMessage[]>;
  setDelivery(id: string, delivery: MailDelivery): Promise<void>;
  deleteFor(workspaceTag?: string): Promise<void>;
}
