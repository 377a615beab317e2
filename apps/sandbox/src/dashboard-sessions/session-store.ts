import type { SessionSubject, SignedInSession } from "../infrastructure/dashboard-shell/signed-in-session.js";

export type { SessionSubject };

/** A signed-in dashboard session, kept on the server: the cookie holds only a random id. */
export interface DashboardSession extends SignedInSession {
  /** SHA-256 of the cookie's id: a dump of the store hands out no live session. */
  readonly idHash: string;
  readonly subject: SessionSubject;
  /** The synchronizer token every form of this session carries; new at every sign-in. */
  readonly csrfToken: string;
  readonly createdAt: number;
  readonly lastSeenAt: number;
}

/** Server-side dashboard sessions, shared by every instance that shares the store. */
export interface SessionStore {
  create(session: DashboardSession): Promise<void>;
  /**
   * The session, if it was seen after `idleSince` and created after `createdSince` (its last-seen time
   * moved to `now`); undefined, and the session gone, otherwise.
   */
  use(idHash: string, now: number, idleSince: number, createdSince: number): Promise<DashboardSession | undefined>;
  delete(idHash: string): Promise<void>;
  /** Every session of a workspace or of the gateway: a reset signs everyone out. */
  deleteFor(subject: SessionSubject): Promise<void>;
}
