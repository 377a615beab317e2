import type pg from "pg";
import type { DashboardSession, SessionStore, SessionSubject } from "./session-store.js";

interface SessionRow {
  id_sha256: string;
  subject_kind: "workspace" | "gateway";
  subject_tag: string;
  signer: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
}

function toSession(row: SessionRow): DashboardSession {
  return {
    idHash: row.id_sha256,
    subject:
      row.subject_kind === "gateway"
        ? { kind: "gateway" }
        : { kind: "workspace", tag: row.subject_tag, ...(row.signer ? { signer: row.signer } : {}) },
    csrfToken: row.csrf_token,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
  };
}

const tagOf = (subject: SessionSubject) => (subject.kind === "gateway" ? "" : subject.tag);

/** Dashboard sessions in PostgreSQL: every instance sees a sign-in, a sign-out and a reset at once. */
export class PostgresSessionStore implements SessionStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async create(session: DashboardSession) {
    // Sessions that timed out are removed when new ones are made, so the table stays small.
    await this.#pool.query("DELETE FROM dashboard_sessions WHERE last_seen_at < $1", [session.createdAt - 86_400_000]);
    await this.#pool.query(
      `INSERT INTO dashboard_sessions (id_sha256, subject_kind, subject_tag, csrf_token, created_at, last_seen_at, signer)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        session.idHash,
        session.subject.kind,
        tagOf(session.subject),
        session.csrfToken,
        session.createdAt,
        session.lastSeenAt,
        session.subject.kind === "workspace" ? (session.subject.signer ?? "") : "",
      ],
    );
  }

  async use(idHash: string, now: number, idleSince: number, createdSince: number) {
    // One round trip: a live session is touched and returned; a timed-out one is not.
    const { rows } = await this.#pool.query<SessionRow>({
      name: "payspec_use_session",
      text: `UPDATE dashboard_sessions SET last_seen_at = greatest(last_seen_at, $2)
             WHERE id_sha256 = $1 AND last_seen_at >= $3 AND created_at >= $4
             RETURNING id_sha256, subject_kind, subject_tag, signer, csrf_token, created_at, last_seen_at`,
      values: [idHash, now, idleSince, createdSince],
    });
    if (rows[0]) return toSession(rows[0]);
    await this.delete(idHash);
    return undefined;
  }

  async delete(idHash: string) {
    await this.#pool.query("DELETE FROM dashboard_sessions WHERE id_sha256 = $1", [idHash]);
  }

  async deleteFor(subject: SessionSubject) {
    await this.#pool.query("DELETE FROM dashboard_sessions WHERE subject_kind = $1 AND subject_tag = $2", [
      subject.kind,
      tagOf(subject),
    ]);
  }
}
