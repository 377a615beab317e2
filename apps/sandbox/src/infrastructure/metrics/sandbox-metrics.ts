import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { LoopStatus } from "../background/polling-loop.js";

/** A database pool as node-postgres counts it. */
export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  /** Queries waiting for a connection. */
  readonly waiting: number;
}

/** How a dashboard download ended: written whole, stopped because its reader went away, or failed. */
export type ExportOutcome = "completed" | "abandoned" | "failed";

export interface MetricsSources {
  /** The background loops as they are at the scrape. */
  readonly loops: () => readonly LoopStatus[];
  /** Work fallen due and not yet done, by background loop. */
  readonly dueBacklog?: () => Promise<Readonly<Record<string, number>>>;
  /** The database pool, when the state is in PostgreSQL. */
  readonly pool?: () => PoolStats;
  /**
   * The process's own metrics (CPU, memory, event loop delay, GC): on for the CLI's one instance,
   * off where several sandboxes share a process (each would add an event-loop timer of its own).
   */
  readonly processMetrics?: boolean;
}

const PREFIX = "payspec_sandbox_";
/** Seconds: from a cached GET (under a millisecond) to a slow first page. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * One instance's Prometheus metrics (its own registry, so two sandboxes in a process never mix):
 * requests by route and status with their latency, dashboard downloads by outcome, the background
 * loops (running, runs, failures, seconds since the last run ended) and the database pool.
 */
export class SandboxMetrics {
  readonly registry = new Registry();
  readonly #requests = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "Requests answered, by method, route template (never the URL: it may carry ids) and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #downloads = new Counter({
    name: `${PREFIX}dashboard_downloads_total`,
    help: "Dashboard CSV and PDF downloads by how they ended (abandoned: the reader went away and the writing stopped).",
    labelNames: ["format", "outcome"] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricsSources) {
    const { loops, pool } = sources;
    const registers = [this.registry];
    new Gauge({
      name: `${PREFIX}background_loop_running`,
      help: "1 while a background loop is started and not stopped.",
      labelNames: ["loop"] as const,
      registers,
      collect() {
        for (const loop of loops()) this.set({ loop: loop.name }, loop.running ? 1 : 0);
      },
    });
    new Gauge({
      name: `${PREFIX}background_loop_seconds_since_run`,
      help: "Seconds since a background loop's last run ended: its lag. Grows without bound when the loop is stuck.",
      labelNames: ["loop"] as const,
      registers,
      collect() {
        const now = Date.now();
        for (const loop of loops()) {
          if (loop.lastRunEndedAt !== undefined) this.set({ loop: loop.name }, (now - loop.lastRunEndedAt) / 1000);
        }
      },
    });
    // A counter, as Prometheus' rate() expects of a count that only grows: set from the loops' own
    // tallies at each scrape.
    new Counter({
      name: `${PREFIX}background_loop_runs_total`,
      help: "Runs of a background loop since the instance started, by how they ended (failed: an error, retried).",
      labelNames: ["loop", "outcome"] as const,
      registers,
      collect() {
        this.reset();
        for (const loop of loops()) {
          this.inc({ loop: loop.name, outcome: "ok" }, loop.runs - loop.failedRuns);
          this.inc({ loop: loop.name, outcome: "failed" }, loop.failedRuns);
        }
      },
    });
    const { dueBacklog } = sources;
    if (dueBacklog) {
      new Gauge({
        name: `${PREFIX}background_due_backlog`,
        help: "Work fallen due that a background loop has not done yet (payments-due: payments whose completion delay has passed), every workspace at its own clock.",
        labelNames: ["loop"] as const,
        registers,
        async collect() {
          for (const [loop, due] of Object.entries(await dueBacklog())) this.set({ loop }, due);
        },
      });
    }
    if (pool) {
      new Gauge({
        name: `${PREFIX}database_pool_connections`,
        help: "The PostgreSQL pool: connections open and idle, and queries waiting for one.",
        labelNames: ["state"] as const,
        registers,
        collect() {
          const stats = pool();
          this.set({ state: "total" }, stats.total);
          this.set({ state: "idle" }, stats.idle);
          this.set({ state: "waiting" }, stats.waiting);
        },
      });
    }
    if (sources.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
  }

  /** Times every answer by its route template; an unmatched URL counts as "unmatched". */
  observeRequests(app: FastifyInstance): void {
    app.addHook("onResponse", async (request, reply) => {
      this.#requests.observe(
        { method: request.method, route: request.routeOptions.url ?? "unmatched", status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
  }

  downloadEnded(format: "csv" | "pdf", outcome: ExportOutcome): void {
    this.#downloads.inc({ format, outcome });
  }
}
