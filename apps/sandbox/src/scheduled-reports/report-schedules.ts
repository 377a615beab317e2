import { randomUUID } from "node:crypto";
import type { Payment } from "@payspec/payments-zod";
import { ApiFailure, containsCardNumber, parseRequest } from "@payspec/server-kit";
import { z } from "zod";
import { type SandboxClocks, workspaceScope } from "../clock/index.js";
import type { ExportJob } from "../exports/index.js";
import { EXPORT_PAGE, exportFilename, paymentsFile, signedDownloadUrl } from "../exports/index.js";
import { BackgroundWork } from "../infrastructure/background/background-work.js";
import { calendarDay, count, dateTime, fileSize } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import { istanbulDate } from "../infrastructure/time/istanbul-time.js";
import type { Mailer } from "../mail/index.js";
import { parseRecipients } from "../mail/index.js";
import type { PaymentsStore } from "../payments/index.js";
import {
  applyElapsedTime,
  filterWords,
  listingFilterFields,
  type NamedAccount,
  paymentToApi,
} from "../payments/index.js";
import { type WorkspaceSetting, workspaceTag } from "../workspaces/index.js";
import { nextDueAfter, periodBefore } from "./due-times.js";
import type { ReportSchedule, ScheduleDelivery, ScheduleStore } from "./schedule-store.js";
import { weekdayName } from "./weekday-names.js";

/**
 * At most this many due times are delivered at once; a clock advanced further skips the older ones
 * (recorded as one `skipped` delivery), so a jump of a year does not send 365 e-mails.
 */
export const CATCH_UP_LIMIT = 31;
const POLL_MS = 500;
const HOUR_MS = 3_600_000;

const scheduleInput = z.object({
  body: z.strictObject({
    name: z
      .string()
      .trim()
      // Messages as functions: said in the language of whoever asked (the dashboard's, else English).
      .min(1, { error: () => t("a name is required", "bir ad gerekli") })
      .max(100, { error: () => t("at most 100 characters", "en çok 100 karakter") })
      .refine((name) => !/\p{Cc}/u.test(name), { error: () => t("no control characters", "kontrol karakteri olamaz") })
      .refine((name) => !containsCardNumber(name), {
        error: () =>
          t(
            "looks like it holds a card number, which no text here may carry; remove it",
            "bir kart numarası içeriyor gibi görünüyor; buradaki hiçbir metin kart numarası taşıyamaz, silin",
          ),
      }),
    format: z.enum(["csv", "pdf"]),
    ...listingFilterFields,
    every: z.enum(["day", "week"]),
    weekday: z
      .number()
      .int()
      .min(1, { error: () => t("1 (Monday) to 7 (Sunday)", "1 (Pazartesi) ile 7 (Pazar) arası") })
      .max(7, { error: () => t("1 (Monday) to 7 (Sunday)", "1 (Pazartesi) ile 7 (Pazar) arası") })
      .optional(),
    time: z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, {
      error: () => t("a time of day as HH:MM (Europe/Istanbul)", "SS:DD biçiminde bir saat (İstanbul)"),
    }),
    recipients: z.array(z.unknown()).max(100).optional(),
    paused: z.boolean().optional(),
  }),
});

export interface ReportSchedulesDeps {
  readonly store: ScheduleStore;
  readonly payments: PaymentsStore;
  /** Whom a schedule without recipients of its own mails: the workspace's report recipients. */
  readonly reportRecipients: WorkspaceSetting<readonly string[]>;
  readonly clocks: SandboxClocks;
  readonly secret: SandboxSecret;
  readonly mailer: Mailer;
  readonly workspaceKeys: readonly string[];
  readonly completeAfterMs: number;
  /** A report of more rows than this is linked instead of attached. */
  readonly attachRows: number;
  readonly linkHours: number;
  readonly baseUrl: () => string;
}

/** A due time with nobody to send to: recorded, with what to do. */
function skipped(schedule: ReportSchedule, dueAt: number, from: number, to: number): ScheduleDelivery {
  return {
    scheduleId: schedule.id,
    dueAt,
    at: Date.now(),
    periodFrom: from,
    periodTo: to,
    rows: 0,
    outcome: "skipped",
    detail: t(
      "Nobody to send it to: the schedule follows the workspace's report recipients, and there are none. Set them under Reports.",
      "Gönderilecek kimse yok: zamanlanmış rapor çalışma alanının rapor alıcılarına gider ve hiç alıcı yok. Raporlar sayfasında ekleyin.",
    ),
  };
}

/** The export job a report too large to attach is kept as, for its signed link until it expires. */
function linkedJob(
  tag: string,
  schedule: ReportSchedule,
  rows: number,
  now: number,
  expiresAt: number,
  bytes: number,
): ExportJob {
  return {
    id: `exp_${randomUUID().replaceAll("-", "").slice(0, 20)}`,
    workspaceTag: tag,
    format: schedule.format,
    listing: {
      workspace: tag,
      snapshotSeq: 0,
      snapshotVersion: 0,
      afterSeq: 0,
      total: rows,
      limit: EXPORT_PAGE,
      ...schedule.filters,
    },
    total: rows,
    requestedAt: now,
    state: "ready",
    rowsWritten: rows,
    attempts: 1,
    readyAt: now,
    expiresAt,
    bytes,
  };
}

/**
 * Scheduled report delivery: at each due time on the workspace's sandbox clock, the payments of the
 * period just ended, as CSV or PDF, e-mailed to the schedule's recipients (attached when small,
 * linked when large). Every instance looks for due schedules; each due time is delivered once.
 */
export class ReportSchedules extends BackgroundWork {
  readonly #deps: ReportSchedulesDeps;

  constructor(deps: ReportSchedulesDeps) {
    super("scheduled-reports", POLL_MS);
    this.#deps = deps;
  }

  async #validated(workspace: string, raw: unknown, createdAt: number, id: string): Promise<ReportSchedule> {
    // The schema's problems and the rules' beyond it, every one checked at once, so a form learns all
    // its problems on the first submit: a blank name does not hide a bad recipient until the next.
    let body: z.infer<typeof scheduleInput>["body"] | undefined;
    let schemaProblems: readonly { field: string; message: string }[] = [];
    try {
      body = parseRequest(scheduleInput, { body: raw }).body;
    } catch (failure) {
      if (!(failure instanceof ApiFailure)) throw failure;
      schemaProblems = failure.options.errors ?? [];
    }
    const given = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const recipients = parseRecipients(Array.isArray(given.recipients) ? given.recipients : []);
    const refused = (field: string) => schemaProblems.some((problem) => problem.field === field);
    // Looked up only once the schema has found it well-formed (no NUL reaches a query).
    const account =
      typeof given.account === "string" && given.account !== "" && !refused("account") ? given.account : undefined;
    const ruleProblems = [
      given.every === "week" && given.weekday === undefined
        ? {
            field: "weekday",
            message: t(
              "a weekly schedule needs its day, 1 (Monday) to 7 (Sunday).",
              "haftalık bir raporun günü gerekir, 1 (Pazartesi) ile 7 (Pazar) arası.",
            ),
          }
        : undefined,
      await this.#recipientsProblem(workspace, recipients),
      await this.#accountProblem(workspace, account),
    ].filter((problem) => problem !== undefined);
    // One problem a field: the schema's word on a box first (its value is not even well-formed).
    const problems = [...schemaProblems, ...ruleProblems.filter((rule) => !refused(rule.field))];
    const [first] = problems;
    if (first || !body) {
      if (!first) throw new Error("The schedule's schema refused it without saying why.");
      throw new ApiFailure("invalid_request", problems.map((p) => `${p.field}: ${p.message}`).join("; "), {
        param: first.field,
        errors: problems,
      });
    }
    const cadence = {
      every: body.every,
      time: body.time,
      ...(body.every === "week" ? { weekday: body.weekday as number } : {}),
    };
    const now = await this.#deps.clocks.now(workspaceScope(workspace));
    return {
      id,
      workspaceTag: workspaceTag(workspace),
      name: body.name,
      format: body.format,
      filters: {
        ...(body.status ? { status: body.status } : {}),
        ...(body.method ? { method: body.method } : {}),
        ...(body.account ? { account: body.account } : {}),
      },
      cadence,
      recipients: "recipients" in recipients ? recipients.recipients : [],
      paused: body.paused ?? false,
      createdAt,
      // From now on: a new, edited or resumed schedule sends nothing for times already past.
      nextDueAt: nextDueAfter(cadence, now),
    };
  }

  /**
   * What is wrong with the schedule's own recipients, if anything. None: then it follows the
   * workspace's report recipients as they are at each delivery (which must not be empty now, or
   * nobody would hear of it).
   */
  async #recipientsProblem(workspace: string, parsed: ReturnType<typeof parseRecipients>) {
    if ("problem" in parsed) return { field: "recipients", message: parsed.problem };
    if (parsed.recipients.length > 0 || (await this.#deps.reportRecipients.get(workspace)).length > 0) return undefined;
    return {
      field: "recipients",
      message: t(
        "give at least one address, or set the workspace's report recipients first.",
        "en az bir adres verin ya da önce çalışma alanının rapor alıcılarını ayarlayın.",
      ),
    };
  }

  /** The account a schedule reports on must be one of the workspace's: another's report is always empty. */
  async #accountProblem(workspace: string, account: string | undefined) {
    if (account === undefined || (await this.#deps.payments.account(workspace, account))) return undefined;
    return {
      field: "account",
      message: t(
        "choose one of this workspace's accounts (GET /v1/accounts lists them), or leave it empty for all.",
        "bu çalışma alanının hesaplarından birini seçin ya da tümü için boş bırakın.",
      ),
    };
  }

  async create(workspace: string, raw: unknown): Promise<ReportSchedule> {
    const id = `sch_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const schedule = await this.#validated(workspace, raw, Date.now(), id);
    await this.#deps.store.add(schedule);
    return schedule;
  }

  async get(workspace: string, id: string): Promise<ReportSchedule> {
    const schedule = await this.#deps.store.get(workspaceTag(workspace), id);
    if (!schedule) throw new ApiFailure("not_found", "No schedule with that id in this workspace.", { param: "id" });
    return schedule;
  }

  async replace(workspace: string, id: string, raw: unknown): Promise<ReportSchedule> {
    const old = await this.get(workspace, id);
    const schedule = await this.#validated(workspace, raw, old.createdAt, id);
    await this.#deps.store.replace(schedule);
    return schedule;
  }

  /**
   * Pauses or resumes a schedule, its settings as they are; like an edit, its next due time starts
   * again from now (a resumed schedule sends nothing for times already past).
   */
  async setPaused(workspace: string, id: string, paused: boolean): Promise<ReportSchedule> {
    const old = await this.get(workspace, id);
    const now = await this.#deps.clocks.now(workspaceScope(workspace));
    const schedule = { ...old, paused, nextDueAt: nextDueAfter(old.cadence, now) };
    await this.#deps.store.replace(schedule);
    return schedule;
  }

  /** The accounts a schedule may report on: the workspace's. */
  accounts(workspace: string): ReturnType<PaymentsStore["accounts"]> {
    return this.#deps.payments.accounts(workspace);
  }

  async remove(workspace: string, id: string): Promise<void> {
    if (!(await this.#deps.store.remove(workspaceTag(workspace), id))) {
      throw new ApiFailure("not_found", "No schedule with that id in this workspace.", { param: "id" });
    }
  }

  list(workspace: string): Promise<readonly ReportSchedule[]> {
    return this.#deps.store.list(workspaceTag(workspace));
  }

  deliveries(workspace: string, id: string, limit = 50): Promise<readonly ScheduleDelivery[]> {
    return this.#deps.store.deliveries(workspaceTag(workspace), id, limit);
  }

  protected runOnce(): Promise<void> {
    return this.runDue();
  }

  /** Delivers what is due now in every workspace (the loop does this every half second). */
  async runDue(): Promise<void> {
    for (const workspace of this.#deps.workspaceKeys) {
      const now = await this.#deps.clocks.now(workspaceScope(workspace));
      for (const schedule of await this.#deps.store.due(workspaceTag(workspace), now)) {
        if (this.loop.stopped) return;
        await this.#deliverDue(workspace, schedule, now);
      }
    }
  }

  async #deliverDue(workspace: string, schedule: ReportSchedule, now: number): Promise<void> {
    const dueTimes: number[] = [];
    for (let at = schedule.nextDueAt; at <= now; at = nextDueAfter(schedule.cadence, at)) dueTimes.push(at);
    const skipped = dueTimes.slice(0, Math.max(0, dueTimes.length - CATCH_UP_LIMIT));
    const toDeliver = dueTimes.slice(skipped.length);
    await applyElapsedTime(this.#deps.payments, workspace, now, this.#deps.completeAfterMs);
    let expected = schedule.nextDueAt;
    for (const [i, dueAt] of toDeliver.entries()) {
      // Written in the language of the workspace's e-mails: the letter, the file and what is recorded.
      const report = await this.#deps.mailer.inLanguageOf(workspace, () =>
        this.#report(workspace, schedule, dueAt, now),
      );
      const notes: ScheduleDelivery[] =
        i === 0 && skipped.length > 0
          ? [
              {
                scheduleId: schedule.id,
                dueAt: skipped[0] as number,
                at: Date.now(),
                periodFrom: periodBefore(schedule.cadence, skipped[0] as number).from,
                periodTo: skipped[skipped.length - 1] as number,
                rows: 0,
                outcome: "skipped",
                detail: `${skipped.length} due times skipped: the clock passed more than ${CATCH_UP_LIMIT} at once, and only the last ${CATCH_UP_LIMIT} are sent.`,
              },
            ]
          : [];
      const next = nextDueAfter(schedule.cadence, dueAt);
      const delivered = await this.#deps.store.deliver(
        { ...schedule, nextDueAt: expected },
        next,
        [...notes, report.delivery],
        report.mail,
        report.linked,
      );
      // Another instance delivered this due time: it goes on from here.
      if (!delivered) return;
      if (report.mail) this.#deps.mailer.kept();
      expected = next;
    }
  }

  /** The period's payments as the schedule's file, and how many rows it holds. */
  async #reportFile(
    workspace: string,
    schedule: ReportSchedule,
    period: { from: number; to: number; now: number; title: string; accounts: readonly NamedAccount[] },
  ): Promise<{ file: Buffer; rows: number }> {
    let rows = 0;
    const counted = (async function* (source: AsyncIterable<Payment>) {
      for await (const payment of source) {
        rows++;
        yield payment;
      }
    })(this.#paymentsBetween(workspace, schedule, period.from, period.to));
    const file = await paymentsFile(schedule.format, counted, period.title, {
      workspace: workspaceTag(workspace),
      generatedAt: period.now,
      accounts: period.accounts,
    });
    return { file, rows };
  }

  /** The report of the period before `dueAt`: its file, its e-mail and what to record. */
  async #report(workspace: string, schedule: ReportSchedule, dueAt: number, now: number) {
    const { from, to } = periodBefore(schedule.cadence, dueAt);
    const recipients =
      schedule.recipients.length > 0 ? schedule.recipients : await this.#deps.reportRecipients.get(workspace);
    if (recipients.length === 0)
      return { mail: undefined, delivery: skipped(schedule, dueAt, from, to), linked: undefined };
    const title = `${schedule.name}: ${t("payments", "ödemeler")} ${periodText(from, to)}`;
    const accounts = await this.#deps.payments.accounts(workspace);
    const { file, rows } = await this.#reportFile(workspace, schedule, { from, to, now, title, accounts });
    const tag = workspaceTag(workspace);
    // Named as a download of the same listing is: whose, which filters, which period.
    const period = `${istanbulDate(from)}${schedule.cadence.every === "week" ? `-to-${istanbulDate(to - 1)}` : ""}`;
    const filename = exportFilename(tag, schedule.filters, period, schedule.format);
    const filtersText = filterText(schedule, accounts);
    const lines = [
      t(
        `${schedule.name}: ${count(rows)} payments created from ${dateTime(from)} to ${dateTime(to)} (Europe/Istanbul)${filtersText}.`,
        `${schedule.name}: ${dateTime(from)} ile ${dateTime(to)} arasında (İstanbul saatiyle) oluşturulan ${count(rows)} ödeme${filtersText}.`,
      ),
    ];
    let linked: { job: ExportJob; file: Buffer } | undefined;
    if (rows > this.#deps.attachRows) {
      const expiresAt = now + this.#deps.linkHours * HOUR_MS;
      const job = linkedJob(tag, schedule, rows, now, expiresAt, file.length);
      linked = { job, file };
      const link = signedDownloadUrl(this.#deps.baseUrl(), this.#deps.secret, tag, job.id, expiresAt);
      lines.push(
        t(
          `The report is too large to attach (${fileSize(file.length)}). Download it, no sign-in needed, until ${dateTime(expiresAt)} Istanbul time, on the sandbox clock:\n${link}`,
          `Rapor eklenemeyecek kadar büyük (${fileSize(file.length)}). Oturum açmadan, sandbox saatine göre İstanbul saatiyle ${dateTime(expiresAt)} tarihine kadar indirebilirsiniz:\n${link}`,
        ),
      );
    } else {
      lines.push(t(`The report is attached as ${filename}.`, `Rapor ${filename} adıyla ektedir.`));
    }
    lines.push(
      `${t(
        `This schedule runs every ${cadenceText(schedule)}. Change or pause it in the dashboard (Schedules):`,
        `Bu rapor ${cadenceText(schedule)} gönderilir. Panelde (Zamanlanmış raporlar) değiştirebilir ya da duraklatabilirsiniz:`,
      )}\n${this.#deps.baseUrl()}/_sandbox/dashboard/settings/schedules/${encodeURIComponent(schedule.id)}`,
    );
    const mail = this.#deps.mailer.compose(tag, {
      to: recipients,
      subject: title,
      text: lines.join("\n\n"),
      ...(linked
        ? {}
        : {
            attachments: [
              {
                filename,
                contentType: schedule.format === "csv" ? "text/csv; charset=utf-8" : "application/pdf",
                content: file,
              },
            ],
          }),
    });
    const delivery: ScheduleDelivery = {
      scheduleId: schedule.id,
      dueAt,
      at: Date.now(),
      periodFrom: from,
      periodTo: to,
      rows,
      outcome: linked ? "linked" : "attached",
      messageId: mail.id,
      ...(linked ? { exportJobId: linked.job.id } : {}),
    };
    return { mail, delivery, linked };
  }

  /** The schedule's payments created in [from, to), oldest first, statuses as they are now. */
  async *#paymentsBetween(
    workspace: string,
    schedule: ReportSchedule,
    from: number,
    to: number,
  ): AsyncGenerator<Payment> {
    const { payments } = this.#deps;
    const snapshot = await payments.snapshot(workspace);
    let afterSeq = 0;
    for (;;) {
      const { items } = await payments.list(workspace, {
        afterSeq,
        snapshotSeq: snapshot.seq,
        asOfVersion: snapshot.version,
        createdFrom: from,
        createdTo: to - 1,
        limit: EXPORT_PAGE,
        countTotal: false,
        ...schedule.filters,
      });
      for (const item of items) yield paymentToApi(item);
      const last = items[items.length - 1];
      if (!last || items.length < EXPORT_PAGE) return;
      afterSeq = last.seq;
    }
  }
}

function periodText(from: number, to: number): string {
  const first = calendarDay(istanbulDate(from));
  const last = calendarDay(istanbulDate(to - 1));
  return first === last ? first : t(`${first} to ${last}`, `${first} – ${last}`);
}

/** "day at 08:00 (Europe/Istanbul)", or in Turkish "her gün 08:00'de (İstanbul saatiyle)". */
export function cadenceText(schedule: ReportSchedule): string {
  const { every, weekday, time } = schedule.cadence;
  const day = weekdayName(weekday);
  return every === "day"
    ? t(`day at ${time} (Europe/Istanbul)`, `her gün saat ${time}'da (İstanbul saatiyle)`)
    : t(`${day} at ${time} (Europe/Istanbul)`, `her ${day} saat ${time}'da (İstanbul saatiyle)`);
}

function filterText(schedule: ReportSchedule, accounts: readonly NamedAccount[]): string {
  const words = filterWords(schedule.filters, accounts);
  return words ? `, ${words}` : "";
}
