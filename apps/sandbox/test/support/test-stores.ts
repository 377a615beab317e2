import { createDatabase } from "@payspec/test-postgres";
import { afterAll, beforeAll, inject } from "vitest";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../src/index.js";

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

/**
 * Two sandbox instances on one fresh database, as a team runs them behind a load balancer, started
 * before the tests of the file (or describe block) that calls this and closed after them. Only in the
 * "postgres" project. Returns how the tests get them.
 */
export function twoInstancesOnOneDatabase(
  options: Omit<SandboxOptions, "databaseUrl" | "secret"> = {},
): () => [RunningSandbox, RunningSandbox] {
  let instances: [RunningSandbox, RunningSandbox] | undefined;
  beforeAll(async () => {
    const shared = { ...options, databaseUrl: await freshDatabase(), secret: TEST_SECRET };
    instances = [await startSandbox(shared), await startSandbox(shared)];
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((sandbox) => sandbox.close()));
  });
  return () => {
    if (!instances) throw new Error("The two instances start in beforeAll: ask for them inside a test.");
    return instances;
  };
}
