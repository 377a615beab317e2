/**
 * The sandbox's SQL crossings as they stand, each with what removes it (issue 77). The workspaces
 * feature owns its table and the settings store, so approval-workflow, mail, reconciliation and
 * settlement no longer reach into it; payments still keeps its counters on the workspace's row.
 * The test fails on any crossing not listed here, and on a listed one that is gone, so the list only
 * shrinks.
 */
export const KNOWN_SQL_CROSSINGS: readonly {
  readonly feature: string;
  readonly table: string;
  readonly until: string;
}[] = [
  { feature: "infrastructure", table: "accounts", until: "migration 0003 moves into payments as a named migration" },
  { feature: "infrastructure", table: "clock_offsets", until: "migration 0003 is split by owner" },
  { feature: "infrastructure", table: "payment_history", until: "migration 0003 moves into payments" },
  { feature: "infrastructure", table: "payments", until: "migration 0003 moves into payments" },
  { feature: "infrastructure", table: "workspaces", until: "a workspaces feature owns the table and its settings" },
  { feature: "payments", table: "clock_offsets", until: "payments reads the clock's offset through the clock" },
  {
    feature: "payments",
    table: "workspace_settings",
    until: "settlement owns the cut-off and reads its own switch (item 2)",
  },
  {
    feature: "payments",
    table: "workspaces",
    until: "payments' counters (version, payment_count, last_created_at) move to a ledger row of its own",
  },
];
