import type { PaymentMethod, PaymentStatus } from "@payspec/payments-zod";
import type { ExportJob } from "../exports/index.js";
import type { OutboxMessage } from "../mail/index.js";

/** When a schedule is due: every day, or every week on one day, at a time of day in Europe/Istanbul. */
export interface ReportCadence {
  readonly every: "day" | "week";
  /** For `week`: 1 Monday … 7 Sunday (ISO). */
  readonly weekday?: number;
  /** `HH:MM`, Europe/Istanbul. */
  readonly time: string;
}

/** A scheduled report: the payments of each period just ended, e-mailed at each due time. */
export interface ReportSchedule {
  readonly id: string;
  readonly workspaceTag: string;
  readonly name: string;
  readonly format: "csv" | "pdf";
  readonly filters: { readonly status?: PaymentStatus; readonly method?: PaymentMethod; readonly account?: string };
  readonly cadence: ReportCadence;
  readonly recipients: readonly string[];
  readonly paused: boolean;
  readonly createdAt: number;
  /** The next due time on the workspace's clock; each is delivered once and then moved on. */
  readonly nextDueAt: number;
}

/** What one due time of a schedule did. */
export interface ScheduleDelivery {
  readonly scheduleId: string;
  readonly dueAt: number;
  /** Real time of the delivery. */
  readonly at: number;
  readonly periodFrom: number;
  readonly periodTo: number;
  readonly rows: number;
  /** attached: the file in the e-mail; linked: too large, a link to it; skipped: past the catch-up bound. */
  readonly outcome: "attached" | "linked" | "skipped";
  readonly messageId?: string;
  readonly exportJobId?: string;
  readonly detail?: string;
}

export interface ScheduleStore {
  add(schedule: ReportSchedule): Promise<void>;
  list(workspaceTag: string): Promise<readonly ReportSchedule[]>;
  get(workspaceTag: string, id: string): Promise<ReportSchedule | undefined>;
  /** Replaces a schedule's settings (not its id or workspace); false when there is no such schedule. */
  replace(schedule: ReportSchedule): Promise<boolean>;
  remove(workspaceTag: string, id: string): Promise<boolean>;
  /** Unpaused schedules of the workspace due at or before `now`. */
  due(workspaceTag: string, now: number): Promise<readonly ReportSchedule[]>;
  /**
   * Records one due time's delivery and moves the schedule to `nextDueAt`, with its e-mail and (for
   * a linked report) its ready export and file, all at once; only if the schedule is still due at
   * `dueAt`, so that instances racing for one due time deliver it once. False when another did.
   */
  deliver(
    schedule: ReportSchedule,
    nextDueAt: number,
    deliveries: readonly ScheduleDelivery[],
    mail?: OutboxMessage,
    linked?: { readonly job: ExportJob; readonly file: Buffer },
  ): Promise<boolean>;
  deliveries(workspaceTag: string, scheduleId: string, limit: number): Promise<readonly ScheduleDelivery[]>;
  deleteFor(workspaceTag?: string): Promise<void>;
}
