-- Completed payments settle at the daily cut-off unless a workspace turns it off.
-- Kept by workspace_settings since 0017.
ALTER TABLE workspaces ADD COLUMN auto_settlement boolean NOT NULL DEFAULT true;
