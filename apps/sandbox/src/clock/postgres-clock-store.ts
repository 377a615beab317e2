import type pg from "pg";
import { BoundedMap } from "../infrastructure/caching/bounded-map.js";
import { SharedReads } from "../infrastructure/postgres/shared-reads.js";
import type { ClockStore } from "./clock-store.js";

/** Scopes whose last reading is remembered at most; past this the memory starts over. */
const MAX_REMEMBERED_SCOPES = 10_000;

/** Clock offsets in PostgreSQL: every instance reads the same "now" for a scope. */
export class PostgresClockStore implements ClockStore {
  readonly #pool: pg.Pool;
  readonly #lastReadings = new BoundedMap<string, number>(MAX_REMEMBERED_SCOPES);

  /** Every API request reads its workspace's clock: concurrent reads of one scope share a query. */
  readonly #offsets = new SharedReads(async (scope) => {
    const { rows } = await this.#pool.query<{ offset_ms: string }>({
      name: "payspec_clock_offset",
      text: "SELECT offset_ms FROM clock_offsets WHERE scope = $1",
      values: [scope],
    });
    const offsetMs = rows[0] ? Number(rows[0].offset_ms) : 0;
    this.#lastReadings.set(scope, offsetMs);
    return offsetMs;
  });

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  offsetMs(scope: string) {
    return this.#offsets.get(scope);
  }

  lastOffsetMs(scope: string) {
    return this.#lastReadings.get(scope);
  }

  async advance(scope: string, ms: number, maxMs: number) {
    // One statement: two instances moving the clock at once add up, and the bounds hold for the sum.
    // Back (negative) only ever updates an offset there is; forward may be the scope's first.
    const { rows } = await this.#pool.query<{ offset_ms: string }>(
      ms < 0
        ? `UPDATE clock_offsets SET offset_ms = offset_ms + $2::bigint
           WHERE scope = $1 AND offset_ms + $2::bigint BETWEEN 0 AND $3::bigint RETURNING offset_ms`
        : `INSERT INTO clock_offsets AS c (scope, offset_ms) SELECT $1, $2::bigint WHERE $2::bigint <= $3::bigint
           ON CONFLICT (scope) DO UPDATE SET offset_ms = c.offset_ms + EXCLUDED.offset_ms
           WHERE c.offset_ms + EXCLUDED.offset_ms <= $3::bigint
           RETURNING offset_ms`,
      [scope, Math.round(ms), maxMs],
    );
    if (rows[0]) {
      const offsetMs = Number(rows[0].offset_ms);
      this.#lastReadings.set(scope, offsetMs);
      return { moved: true, offsetMs };
    }
    return { moved: false, offsetMs: await this.offsetMs(scope) };
  }

  async reset(scope?: string) {
    if (scope === undefined) await this.#pool.query("DELETE FROM clock_offsets");
    else await this.#pool.query("DELETE FROM clock_offsets WHERE scope = $1", [scope]);
    if (scope === undefined) this.#lastReadings.clear();
    else this.#lastReadings.set(scope, 0);
  }
}
