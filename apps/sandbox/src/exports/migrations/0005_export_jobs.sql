-- Large exports written in the background. Workspaces are named by their public tag, never by their
-- API key.

-- One row per queued export. A running job is leased: an instance that dies stops renewing its lease
-- and another takes the job over from the start.
CREATE TABLE export_jobs (
  id               text PRIMARY KEY,
  workspace_tag    text NOT NULL,
  position         bigserial,
  format           text NOT NULL,
  listing          jsonb NOT NULL,
  total            integer NOT NULL,
  requested_at     bigint NOT NULL,
  state            text NOT NULL,
  rows_written     integer NOT NULL DEFAULT 0,
  lease_owner      text,
  lease_until      bigint,
  attempts         integer NOT NULL DEFAULT 0,
  ready_at         bigint,
  expires_at       bigint,
  bytes            integer,
  error            text
);
CREATE INDEX export_jobs_by_workspace ON export_jobs (workspace_tag, position);
CREATE INDEX export_jobs_to_run ON export_jobs (position) WHERE state IN ('queued', 'running');

-- A finished job's file, written in the same transaction that marks it ready and queues its e-mail.
CREATE TABLE export_files (
  job_id  text PRIMARY KEY REFERENCES export_jobs ON DELETE CASCADE,
  content bytea NOT NULL
);
