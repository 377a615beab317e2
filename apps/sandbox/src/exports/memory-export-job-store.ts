import type { OutboxMessage, OutboxStore } from "../mail/index.js";
import type { ExportJob, ExportJobStore } from "./export-job-store.js";

/** Export jobs and their files in one process; the outbox they write to is the same process's. */
export class MemoryExportJobStore implements ExportJobStore {
  readonly #jobs = new Map<string, ExportJob>();
  readonly #files = new Map<string, Buffer>();
  readonly #outbox: OutboxStore;

  constructor(outbox: OutboxStore) {
    this.#outbox = outbox;
  }

  async add(job: ExportJob) {
    this.#jobs.set(job.id, job);
  }

  async list(workspaceTag: string, limit: number) {
    return [...this.#jobs.values()]
      .filter((j) => j.workspaceTag === workspaceTag)
      .reverse()
      .slice(0, limit);
  }

  async get(workspaceTag: string, id: string) {
    const job = this.#jobs.get(id);
    return job?.workspaceTag === workspaceTag ? job : undefined;
  }

  async claim(owner: string, now: number, leaseUntil: number) {
    for (const job of this.#jobs.values()) {
      if (job.state === "queued" || (job.state === "running" && (job.leaseUntil ?? 0) < now)) {
        const claimed: ExportJob = {
          ...job,
          state: "running",
          leaseOwner: owner,
          leaseUntil,
          attempts: job.attempts + 1,
          rowsWritten: 0,
        };
        this.#jobs.set(job.id, claimed);
        return claimed;
      }
    }
    return undefined;
  }

  #held(id: string, owner: string) {
    const job = this.#jobs.get(id);
    return job?.state === "running" && job.leaseOwner === owner ? job : undefined;
  }

  async progress(id: string, owner: string, rowsWritten: number, leaseUntil: number) {
    const job = this.#held(id, owner);
    if (!job) return false;
    this.#jobs.set(id, { ...job, rowsWritten, leaseUntil });
    return true;
  }

  async complete(
    id: string,
    owner: string,
    file: Buffer,
    done: { readyAt: number; expiresAt: number },
    mail?: OutboxMessage,
  ) {
    const job = this.#held(id, owner);
    if (!job) return false;
    this.#files.set(id, file);
    const { leaseOwner: _owner, leaseUntil: _until, ...rest } = job;
    this.#jobs.set(id, { ...rest, state: "ready", rowsWritten: job.total, bytes: file.length, ...done });
    if (mail) await this.#outbox.add(mail);
    return true;
  }

  async addReady(job: ExportJob, file: Buffer) {
    this.#jobs.set(job.id, job);
    this.#files.set(job.id, file);
  }

  async fail(id: string, owner: string, error: string) {
    const job = this.#held(id, owner);
    if (!job) return;
    const { leaseOwner: _owner, leaseUntil: _until, ...rest } = job;
    this.#jobs.set(id, { ...rest, state: "failed", error });
  }

  async release(id: string, owner: string) {
    const job = this.#held(id, owner);
    if (!job) return;
    const { leaseOwner: _owner, leaseUntil: _until, ...rest } = job;
    this.#jobs.set(id, { ...rest, state: "queued", rowsWritten: 0 });
  }

  async file(workspaceTag: string, id: string) {
    return this.#jobs.get(id)?.workspaceTag === workspaceTag ? this.#files.get(id) : undefined;
  }

  async expire(workspaceTag: string, now: number) {
    for (const job of this.#jobs.values()) {
      if (job.workspaceTag === workspaceTag && job.state === "ready" && (job.expiresAt ?? 0) <= now) {
        this.#jobs.set(job.id, { ...job, state: "expired" });
        this.#files.delete(job.id);
      }
    }
  }

  async deleteFor(workspaceTag?: string) {
    for (const [id, job] of this.#jobs) {
      if (workspaceTag === undefined || job.workspaceTag === workspaceTag) {
        this.#jobs.delete(id);
        this.#files.delete(id);
      }
    }
  }
}
