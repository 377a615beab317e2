import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Payment } from "@payspec/payments-zod";
import { type SandboxClocks, workspaceScope } from "../clock/index.js";
import { BackgroundWork } from "../infrastructure/background/background-work.js";
import { count, dateTime, fileSize } from "../infrastructure/i18n/formats.js";
import { t } from "../infrastructure/i18n/locale.js";
import type { SandboxSecret } from "../infrastructure/secret/sandbox-secret.js";
import type { Mailer } from "../mail/index.js";
import type { NamedAccount, PaymentsStore } from "../payments/index.js";
import { encodeCursor, type ListingFilters, listingFilters, listPayments, openListing } from "../payments/index.js";
import { type WorkspaceSetting, workspaceTag } from "../workspaces/index.js";
import { signedDownloadUrl } from "./download-link.js";
import type { ExportJob, ExportJobStore } from "./export-job-store.js";
import { EXPORT_PAGE, listingTitle, paymentsOfListing } from "./listing-stream.js";
import { paymentsFile } from "./payments-file.js";

const POLL_MS = 250;
const HOUR_MS = 3_600_000;

export interface ExportQueueDeps {
  readonly jobs: ExportJobStore;
  readonly payments: PaymentsStore;
  /** Who is mailed the link when a queued export is ready. */
  readonly reportRecipients: WorkspaceSetting<readonly string[]>;
  readonly secret: SandboxSecret;
  readonly clocks: SandboxClocks;
  readonly mailer: Mailer;
  /** The configured workspace of a tag: jobs name workspaces by tag, never by key. */
  readonly workspaceOf: (tag: string) => string | undefined;
  /** Where the links in e-mail point: the public URL, or the address the sandbox listens on. */
  readonly baseUrl: () => string;
  readonly linkHours: number;
  /** A running job renews its lease as it writes; one not renewed for this long is another instance's to take. */
  readonly leaseMs: number;
}

class LeaseLost extends Error {}
/** The instance is stopping: the job goes back to the queue for another (or the next start). */
class Stopping extends Error {}

/**
 * Large exports, written in the background from the listing's snapshot as of the request and sent
 * to the workspace's report recipients as a signed, expiring link. Every instance runs jobs; a job
 * is leased to one at a time, and one whose instance died (its lease not renewed) is started again
 * by another, so each job ends in exactly one file and one e-mail.
 */
export class ExportQueue extends BackgroundWork {
  readonly #deps: ExportQueueDeps;
  readonly #instance = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;

  constructor(deps: ExportQueueDeps) {
    super("exports", POLL_MS);
    this.#deps = deps;
  }

  /** Hours a download link works, on the workspace's clock. */
  get linkHours(): number {
    return this.#deps.linkHours;
  }

  /** Queues an export of the listing as it stands now. */
  async request(workspace: string, format: "csv" | "pdf", filters: ListingFilters): Promise<ExportJob> {
    const { payments, secret, clocks, jobs } = this.#deps;
    const start = await openListing(payments, workspace, filters, 1);
    // The first page of one counts the listing's total; its snapshot is the job's.
    const counted = await listPayments(payments, secret, workspace, { cursor: encodeCursor(start, secret) });
    const total = counted.pagination.total;
    const job: ExportJob = {
      id: `exp_${randomUUID().replaceAll("-", "").slice(0, 20)}`,
      workspaceTag: workspaceTag(workspace),
      format,
      listing: { ...start, total, limit: EXPORT_PAGE },
      total,
      requestedAt: await clocks.now(workspaceScope(workspace)),
      state: "queued",
      rowsWritten: 0,
      attempts: 0,
    };
    await jobs.add(job);
    this.wake();
    return job;
  }

  /** A workspace's jobs, newest first, with links past their expiry marked expired. */
  async list(workspace: string, limit = 50): Promise<readonly ExportJob[]> {
    const tag = workspaceTag(workspace);
    await this.#deps.jobs.expire(tag, await this.#deps.clocks.now(workspaceScope(workspace)));
    return this.#deps.jobs.list(tag, limit);
  }

  async get(workspace: string, id: string): Promise<ExportJob | undefined> {
    const tag = workspaceTag(workspace);
    await this.#deps.jobs.expire(tag, await this.#deps.clocks.now(workspaceScope(workspace)));
    return this.#deps.jobs.get(tag, id);
  }

  /** A ready job's file, for a signed link or a signed-in session; undefined once expired. */
  async file(workspace: string, id: string): Promise<{ job: ExportJob; file: Buffer } | undefined> {
    const job = await this.get(workspace, id);
    const file = job?.state === "ready" ? await this.#deps.jobs.file(job.workspaceTag, id) : undefined;
    return job && file ? { job, file } : undefined;
  }

  downloadUrl(job: ExportJob): string | undefined {
    if (job.state !== "ready" || job.expiresAt === undefined) return undefined;
    return signedDownloadUrl(this.#deps.baseUrl(), this.#deps.secret, job.workspaceTag, job.id, job.expiresAt);
  }

  protected async runOnce(): Promise<void> {
    while (!this.loop.stopped) {
      const now = Date.now();
      const job = await this.#deps.jobs.claim(this.#instance, now, now + this.#deps.leaseMs);
      if (!job) return;
      await this.#run(job);
    }
  }

  async #run(job: ExportJob): Promise<void> {
    const { jobs, mailer } = this.#deps;
    const workspace = this.#deps.workspaceOf(job.workspaceTag);
    if (!workspace) {
      await jobs.fail(job.id, this.#instance, "The workspace is no longer configured on this sandbox.");
      return;
    }
    try {
      await mailer.inLanguageOf(workspace, () => this.#writeAndMail(job, workspace));
    } catch (error) {
      if (error instanceof LeaseLost) return;
      if (error instanceof Stopping) {
        await jobs.release(job.id, this.#instance);
        return;
      }
      await jobs.fail(job.id, this.#instance, `The export could not be written: ${(error as Error).message}`);
    }
  }

  /** The job's file and its e-mail, in the language of the workspace's e-mails. */
  async #writeAndMail(job: ExportJob, workspace: string): Promise<void> {
    const { jobs, payments, secret, clocks, mailer } = this.#deps;
    const accounts = await payments.accounts(workspace);
    const title = listingTitle(listingFilters(job.listing), accounts);
    const file = await this.#write(job, paymentsOfListing(payments, secret, workspace, job.listing), title, accounts);
    const readyAt = await clocks.now(workspaceScope(workspace));
    const expiresAt = readyAt + this.#deps.linkHours * HOUR_MS;
    const recipients = await this.#deps.reportRecipients.get(workspace);
    const link = signedDownloadUrl(this.#deps.baseUrl(), secret, job.workspaceTag, job.id, expiresAt);
    const mail =
      recipients.length === 0
        ? undefined
        : mailer.compose(job.workspaceTag, {
            to: recipients,
            subject: t(
              `Your export of ${count(job.total)} payments is ready`,
              `${count(job.total)} ödemelik dışa aktarımınız hazır`,
            ),
            text: [
              t(
                `${title}: ${count(job.total)} payments as ${job.format.toUpperCase()}, ${fileSize(file.length)}.`,
                `${title}: ${count(job.total)} ödeme, ${job.format.toUpperCase()} olarak, ${fileSize(file.length)}.`,
              ),
              t(
                `Download it (no sign-in needed; the link works until ${dateTime(expiresAt)} Istanbul time, on the sandbox clock):\n${link}`,
                `İndirin (oturum açmak gerekmez; bağlantı sandbox saatine göre İstanbul saatiyle ${dateTime(expiresAt)} tarihine kadar çalışır):\n${link}`,
              ),
              t(
                "The file holds the payments as they were when the export was requested.",
                "Dosya, ödemeleri dışa aktarım istendiği andaki halleriyle içerir.",
              ),
            ].join("\n\n"),
          });
    if (await jobs.complete(job.id, this.#instance, file, { readyAt, expiresAt }, mail)) mailer.kept();
  }

  /** The job's file in memory, its progress recorded (and its lease renewed) every page. */
  async #write(
    job: ExportJob,
    source: AsyncIterable<Payment>,
    title: string,
    accounts: readonly NamedAccount[],
  ): Promise<Buffer> {
    const { jobs } = this.#deps;
    const instance = this.#instance;
    const leaseMs = this.#deps.leaseMs;
    const loop = this.loop;
    let rows = 0;
    const counted = (async function* () {
      for await (const payment of source) {
        yield payment;
        if (++rows % EXPORT_PAGE !== 0) continue;
        // A stopping instance gives the job up at a page's end rather than hold its shutdown for the
        // rest of the file: released, it is started again at once elsewhere, not after its lease.
        if (loop.stopped) throw new Stopping();
        if (!(await jobs.progress(job.id, instance, rows, Date.now() + leaseMs))) throw new LeaseLost();
      }
    })();
    return paymentsFile(job.format, counted, title, {
      workspace: job.workspaceTag,
      generatedAt: job.requestedAt,
      accounts,
    });
  }
}
