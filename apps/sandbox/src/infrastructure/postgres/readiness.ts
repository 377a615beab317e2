import type pg from "pg";
import { newestVersion, schemaProblem } from "./migrate.js";

/** A readiness probe answers in time or says so: Kubernetes' own default probe timeout is 1 s. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Why the database cannot serve this instance now (no answer within the probe's time, an error, a
 * schema of another version), or undefined when it can. The reason names no address or credential:
 * `/readyz` answers anyone who can reach the port.
 */
/** Read from the migration files once, not at every probe. */
let newest: number | undefined;

export async function databaseProblem(pool: pg.Pool): Promise<string | undefined> {
  newest ??= newestVersion();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(
      () => resolve(`the database did not answer within ${PROBE_TIMEOUT_MS / 1000} s`),
      PROBE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      schemaProblem(pool, newest).catch(
        () => "the database does not answer: check that PostgreSQL runs and accepts connections",
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
