import type { Writable } from "node:stream";
import { ApiFailure, parseRequest } from "@payspec/server-kit";
import { z } from "zod";
import { type SandboxClocks, workspaceScope } from "../clock/index.js";
import type { ElapsedTime } from "../payments/index.js";
import type { WorkspaceSetting } from "../workspaces/index.js";
import type { ReconciliationStore } from "./reconciliation-store.js";
import { writeReportCsv } from "./report-csv.js";
import { runToApi, summaryToApi } from "./run-json.js";
import { readStatement } from "./statement-file.js";
import type { CsvMapping } from "./statement-formats/bank-csv.js";
import { MAX_MAPPINGS, mappingFromApi, mappingToApi, zMapping } from "./statement-mappings.js";

export interface ReconciliationDeps {
  readonly reconciliation: ReconciliationStore;
  /** The workspace's own bank CSV layouts. */
  readonly statementMappings: WorkspaceSetting<readonly CsvMapping[]>;
  readonly clocks: SandboxClocks;
  /** Statuses brought up to the clock first: a payment that completed and settled by now is reconcilable. */
  readonly elapsedTime: ElapsedTime;
}

export type RunView = ReturnType<typeof runToApi>;
export type RunSummaryView = ReturnType<typeof summaryToApi>;
export type LayoutView = ReturnType<typeof mappingToApi>;

const layoutsBody = z.object({ body: z.strictObject({ mappings: z.array(zMapping).max(MAX_MAPPINGS) }) });

/**
 * What reconciliation does for a workspace, typed, for both its callers: the control API (which
 * renders an ApiFailure in its error shape) and the dashboard's pages (which show its message beside
 * the box at fault). One set of rules and messages.
 */
export class Reconciliations {
  readonly #deps: ReconciliationDeps;

  constructor(deps: ReconciliationDeps) {
    this.#deps = deps;
  }

  /** Reads a statement (any format the reader knows, the workspace's layouts first) and reconciles it now. */
  async import(workspace: string, bytes: Buffer): Promise<RunView> {
    const statement = readStatement(bytes, await this.#deps.statementMappings.get(workspace));
    const at = await this.#deps.clocks.now(workspaceScope(workspace));
    await this.#deps.elapsedTime.apply(workspace, at);
    return runToApi(await this.#deps.reconciliation.reconcile(workspace, statement, at));
  }

  async runs(workspace: string): Promise<RunSummaryView[]> {
    return (await this.#deps.reconciliation.runs(workspace)).map(summaryToApi);
  }

  /** One run with its lines, or undefined when the workspace has none by that id. */
  async run(workspace: string, id: string): Promise<RunView | undefined> {
    const run = await this.#deps.reconciliation.run(workspace, id);
    return run ? runToApi(run) : undefined;
  }

  /** What writes a run's CSV report to a stream, or undefined when the workspace has no run by that id. */
  async report(workspace: string, id: string): Promise<((out: Writable) => Promise<void>) | undefined> {
    const run = await this.#deps.reconciliation.run(workspace, id);
    return run ? (out) => writeReportCsv(run, out) : undefined;
  }

  async layouts(workspace: string): Promise<LayoutView[]> {
    return (await this.#deps.statementMappings.get(workspace)).map(mappingToApi);
  }

  /** Replaces the workspace's layouts with `input` (`{mappings: [...]}`), or throws the ApiFailure that says what is wrong. */
  async saveLayouts(workspace: string, input: unknown): Promise<LayoutView[]> {
    const { body } = parseRequest(layoutsBody, { body: input });
    const names = body.mappings.map((m) => m.name.toLowerCase());
    if (new Set(names).size !== names.length) {
      throw new ApiFailure("invalid_request", "mappings: two layouts share a name; give each its own.", {
        param: "mappings",
      });
    }
    const saved = body.mappings.map(mappingFromApi);
    await this.#deps.statementMappings.set(workspace, saved);
    return saved.map(mappingToApi);
  }
}
