-- The approval workflow's four-eyes rule: a workspace setting (off by default), who signed in to a
-- dashboard session, and who made each change a person made (a keyed fingerprint of the API key and
-- the key masked, never the key), on the payment's first history entry and on every later one.
ALTER TABLE workspaces ADD COLUMN approval_four_eyes boolean NOT NULL DEFAULT false;
