-- Server-side dashboard sessions: the cookie holds a random id, the row its SHA-256, so signing out,
-- a reset or a timeout ends the session on every instance at once.
CREATE TABLE dashboard_sessions (
  id_sha256    text PRIMARY KEY,
  -- 'workspace' (subject_tag is the workspace's tag) or 'gateway' (subject_tag is empty).
  subject_kind text NOT NULL,
  subject_tag  text NOT NULL,
  csrf_token   text NOT NULL,
  created_at   bigint NOT NULL,
  last_seen_at bigint NOT NULL
);
CREATE INDEX dashboard_sessions_by_subject ON dashboard_sessions (subject_kind, subject_tag);

-- Creation times never go backwards along a workspace's listing (seq order), even when instances'
-- clocks differ by a few milliseconds: so completion, which follows due time, follows the listing.
-- previous_created_at is scratch: the insert reads the floor it raised from it in one statement.
ALTER TABLE workspaces ADD COLUMN last_created_at bigint NOT NULL DEFAULT 0,
  ADD COLUMN previous_created_at bigint NOT NULL DEFAULT 0;
UPDATE workspaces w SET last_created_at = coalesce((SELECT max(created_at) FROM payments p WHERE p.workspace = w.workspace), 0);
