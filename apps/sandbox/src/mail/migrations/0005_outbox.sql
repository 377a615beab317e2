-- E-mail the sandbox sends. Workspaces are named by their public tag, never by their API key.

-- Every e-mail, kept for the dashboard's Outbox; the rows in queued or retrying state are also the
-- SMTP delivery queue (next_attempt_at doubles as the lease of the instance sending it).
CREATE TABLE outbox (
  id              text PRIMARY KEY,
  workspace_tag   text NOT NULL,
  position        bigserial,
  created_at      bigint NOT NULL,
  recipients      jsonb NOT NULL,
  subject         text NOT NULL,
  body_text       text NOT NULL,
  body_html       text NOT NULL,
  attachments     jsonb NOT NULL,
  delivery        jsonb NOT NULL,
  next_attempt_at bigint
);
CREATE INDEX outbox_by_workspace ON outbox (workspace_tag, position);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
