-- The language of the workspace's e-mails and the files they carry (scheduled reports, queued
-- exports, the test e-mail): English until a person chooses Turkish on the Reports page.
-- Kept by workspace_settings since 0017.
ALTER TABLE workspaces ADD COLUMN mail_language jsonb NOT NULL DEFAULT '"en"';
