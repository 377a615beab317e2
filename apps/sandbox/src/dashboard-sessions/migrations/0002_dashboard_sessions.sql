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
