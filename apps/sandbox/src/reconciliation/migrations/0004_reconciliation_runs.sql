-- One row per statement import, written in the same transaction as the payments it reconciled, so a
-- run is recorded whole or not at all. The report (lines and unmatched payments) is kept as JSON.
CREATE TABLE reconciliation_runs (
  workspace  text NOT NULL REFERENCES workspaces ON DELETE CASCADE ON UPDATE CASCADE,
  id         text NOT NULL,
  position   bigserial,
  at         bigint NOT NULL,
  sha256     text NOT NULL,
  repeat_of  text,
  counts     jsonb NOT NULL,
  unmatched_count integer NOT NULL,
  report     jsonb NOT NULL,
  PRIMARY KEY (workspace, id)
);
CREATE INDEX reconciliation_runs_by_sha256 ON reconciliation_runs (workspace, sha256);
