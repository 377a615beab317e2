-- Who receives a workspace's reports (queued exports, schedules): validated addresses, in order.
-- Kept by workspace_settings since 0017.
ALTER TABLE workspaces ADD COLUMN report_recipients jsonb NOT NULL DEFAULT '[]';
