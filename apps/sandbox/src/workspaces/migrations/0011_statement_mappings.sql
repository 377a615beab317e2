-- Reconciliation: a workspace's own CSV layouts for its banks' exports (column names, number and date
-- formats), tried before the built-in Turkish layouts.
-- Kept by workspace_settings since 0017.
ALTER TABLE workspaces ADD COLUMN statement_mappings jsonb NOT NULL DEFAULT '[]';
