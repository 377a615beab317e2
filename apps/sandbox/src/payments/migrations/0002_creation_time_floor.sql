-- Creation times never go backwards along a workspace's listing (seq order), even when instances'
-- clocks differ by a few milliseconds: so completion, which follows due time, follows the listing.
-- previous_created_at is scratch: the insert reads the floor it raised from it in one statement.
ALTER TABLE workspaces ADD COLUMN last_created_at bigint NOT NULL DEFAULT 0,
  ADD COLUMN previous_created_at bigint NOT NULL DEFAULT 0;
UPDATE workspaces w SET last_created_at = coalesce((SELECT max(created_at) FROM payments p WHERE p.workspace = w.workspace), 0);
