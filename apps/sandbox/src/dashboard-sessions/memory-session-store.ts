import type { DashboardSession, SessionStore, SessionSubject } from "./session-store.js";

const sameSubject = (a: SessionSubject, b: SessionSubject) =>
  a.kind === b.kind && (a.kind === "gateway" || (b.kind === "workspace" && a.tag === b.tag));

/** Dashboard sessions of one process. */
export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, DashboardSession>();

  async create(session: DashboardSession) {
    this.#sessions.set(session.idHash, session);
  }

  async use(idHash: string, now: number, idleSince: number, createdSince: number) {
    const session = this.#sessions.get(idHash);
    if (!session) return undefined;
    if (session.lastSeenAt < idleSince || session.createdAt < createdSince) {
      this.#sessions.delete(idHash);
      return undefined;
    }
    const used = { ...session, lastSeenAt: now };
    this.#sessions.set(idHash, used);
    return used;
  }

  async delete(idHash: string) {
    this.#sessions.delete(idHash);
  }

  async deleteFor(subject: SessionSubject) {
    for (const [id, session] of this.#sessions) if (sameSubject(session.subject, subject)) this.#sessions.delete(id);
  }
}
