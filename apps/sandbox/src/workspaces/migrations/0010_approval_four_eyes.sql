-- The approval workflow's four-eyes rule, a workspace setting (off by default); who signed in and who
-- made each change came with it in dashboard-sessions' and payments' parts of this version. Kept by
-- workspace_settings since 0017.
ALTER TABLE workspaces ADD COLUMN approval_four_eyes boolean NOT NULL DEFAULT false;
