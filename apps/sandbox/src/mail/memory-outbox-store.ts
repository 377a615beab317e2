import type { MailDelivery, OutboxMessage, OutboxStore } from "./outbox-store.js";

/** Messages kept per workspace in memory; the oldest go first, as in a mail catcher with a limit. */
const KEPT_PER_WORKSPACE = 1_000;

/** The outbox of one process. */
export class MemoryOutboxStore implements OutboxStore {
  readonly #messages = new Map<string, OutboxMessage>();

  async add(message: OutboxMessage) {
    this.#messages.set(message.id, message);
    const own = [...this.#messages.values()].filter((m) => m.workspaceTag === message.workspaceTag);
    for (const old of own.slice(0, Math.max(0, own.length - KEPT_PER_WORKSPACE))) this.#messages.delete(old.id);
  }

  async list(workspaceTag: string, limit: number) {
    return [...this.#messages.values()]
      .filter((m) => m.workspaceTag === workspaceTag)
      .reverse()
      .slice(0, limit);
  }

  async get(workspaceTag: string, id: string) {
    const message = this.#messages.get(id);
    return message?.workspaceTag === workspaceTag ? message : undefined;
  }

  async claimDue(now: number, leaseUntil: number, limit: number) {
    const due: OutboxMessage[] = [];
    for (const message of this.#messages.values()) {
      const { delivery } = message;
      if (due.length >= limit) break;
      if ((delivery.state === "queued" || delivery.state === "retrying") && delivery.nextAttemptAt <= now) {
        const leased = { ...message, delivery: { ...delivery, nextAttemptAt: leaseUntil } };
        this.#messages.set(message.id, leased);
        due.push(leased);
      }
    }
    return due;
  }

  async setDelivery(id: string, delivery: MailDelivery) {
    const message = this.#messages.get(id);
    if (message) this.#messages.set(id, { ...message, delivery });
  }

  async deleteFor(workspaceTag?: string) {
    for (const [id, message] of this.#messages) {
      if (workspaceTag === undefined || message.workspaceTag === workspaceTag) this.#messages.delete(id);
    }
  }
}
