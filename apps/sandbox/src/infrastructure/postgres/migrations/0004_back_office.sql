-- The back office: automatic settlement, reconciliation runs and API keys made in the dashboard.

-- Completed payments settle at the daily cut-off unless a workspace turns it off.
ALTER TABLE workspaces ADD COLUMN auto_settlement boolean NOT NULL DEFAULT true;
-- Settlement looks for completed payments on every request: this index keeps that probe cheap.
CREATE INDEX payments_awaiting_settlement ON payments (workspace, completed_at) WHERE status = 'completed';
-- Reconciliation finds payments by the caller's reference.
CREATE INDEX payments_by_reference ON payments (workspace, reference) WHERE reference IS NOT NULL;

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

-- API keys made in the dashboard or the control API: only an HMAC of the key (with the sandbox
-- secret) is kept. A workspace is named by its public tag, never by its own key.
CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  workspace_tag text NOT NULL,
  name          text NOT NULL,
  key_hmac      text NOT NULL UNIQUE,
  masked        text NOT NULL,
  created_at    bigint NOT NULL,
  expires_on    text,
  expires_at    bigint,
  revoked_at    bigint,
  last_used_at  bigint
);
CREATE INDEX api_keys_by_workspace ON api_keys (workspace_tag, created_at);
