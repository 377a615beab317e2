import type { FastifyInstance } from "fastify";
import type { LoopStatus } from "../infrastructure/background/polling-loop.js";
import type { SandboxMetrics } from "../infrastructure/metrics/sandbox-metrics.js";

export interface HealthSources {
  readonly metrics: SandboxMetrics;
  /** Why the stores cannot serve now, or undefined. */
  readonly storesNotReady: () => Promise<string | undefined>;
  readonly loops: () => readonly LoopStatus[];
}

/** Probes and metrics carry no state and no secret: cache nothing, index nothing. */
const NO_STORE = { "cache-control": "no-store" };

/**
 * What a team's orchestrator and monitoring read, outside both APIs and without a key (Kubernetes'
 * and Prometheus' conventions): `/healthz`, the process answers; `/readyz`, it can serve (the
 * database answers at this version's schema, every background loop runs), 503 naming what is not;
 * `/metrics`, the Prometheus text format.
 */
export function registerHealthRoutes(app: FastifyInstance, sources: HealthSources): void {
  app.get("/healthz", async (_request, reply) => reply.headers(NO_STORE).send({ status: "ok" }));

  app.get("/readyz", async (_request, reply) => {
    const problems: string[] = [];
    const stores = await sources.storesNotReady();
    if (stores) problems.push(stores);
    for (const loop of sources.loops()) {
      if (!loop.running) problems.push(`the background loop "${loop.name}" is not running`);
    }
    reply.headers(NO_STORE);
    if (problems.length === 0) return reply.send({ status: "ready" });
    return reply.code(503).send({ status: "not ready", problems });
  });

  app.get("/metrics", async (_request, reply) => {
    const text = await sources.metrics.registry.metrics();
    return reply.headers(NO_STORE).type(sources.metrics.registry.contentType).send(text);
  });
}
