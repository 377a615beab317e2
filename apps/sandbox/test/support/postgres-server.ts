import { startPostgres } from "@payspec/test-postgres";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL test server's maintenance database; each sandbox creates a database of its own. */
    postgresUrl: string;
  }
}

/** Global setup of the "postgres" project: one real PostgreSQL server for the whole run. */
export default async function setup(project: TestProject) {
  const server = await startPostgres();
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
