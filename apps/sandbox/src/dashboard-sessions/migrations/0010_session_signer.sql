-- The four-eyes rule: who signed in to a dashboard session (a keyed fingerprint of the API key and the
-- key masked, never the key).
ALTER TABLE dashboard_sessions ADD COLUMN signer text NOT NULL DEFAULT '';
