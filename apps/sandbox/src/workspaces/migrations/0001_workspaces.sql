-- The workspaces, one row per API key (the workspaces feature's table, which every other feature's
-- rows hang off by foreign key). Its columns after the key are payments' counters, kept here since
-- the first release; the switch that came with it (approval_workflow) is kept by workspace_settings
-- since 0017. Every write to a workspace first locks its row and bumps `version`, so writes to one
-- workspace commit in the order they took the lock: a listing's snapshot (payment_count, version)
-- read from a committed row covers exactly the rows committed before it.
CREATE TABLE workspaces (
  workspace     text PRIMARY KEY,
  payment_count bigint NOT NULL DEFAULT 0,
  version       bigint NOT NULL DEFAULT 0,
  -- Whether a dashboard submit waits for an approver.
  approval_workflow boolean NOT NULL DEFAULT false
);
