import { createDatabase } from "@payspec/test-postgres";
import { inject } from "vitest";
import type { SandboxOptions } from "../../src/index.js";

/** Instances sharing a database share this (the sandbox insists on one with PostgreSQL). */
export const TEST_SECRET = "payspec-test-secret-shared-by-instances";

/** In the "postgres" project: a PostgreSQL server is running for the run. */
export function onPostgres(): boolean {
  return Boolean(inject("postgresUrl"));
}

/** A new, empty database on the run's PostgreSQL server. Only in the "postgres" project. */
export async function freshDatabase(): Promise<string> {
  const server = inject("postgresUrl");
  if (!server) throw new Error("No PostgreSQL server in this project: put the test under test/postgres/.");
  return createDatabase(server);
}

/** The store options of this project's sandboxes: none (in memory), or a fresh PostgreSQL database. */
export async function storeOptions(): Promise<Pick<SandboxOptions, "databaseUrl" | "secret">> {
  return onPostgres() ? { databaseUrl: await freshDatabase(), secret: TEST_SECRET } : {};
}
