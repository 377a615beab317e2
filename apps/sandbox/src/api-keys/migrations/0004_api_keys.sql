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
