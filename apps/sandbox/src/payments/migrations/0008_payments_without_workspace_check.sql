-- A create inserts its payments in the same statement that locks and bumps their workspace's row, and
-- inserts nothing when that row is missing: the foreign key's per-row check found what the statement
-- had just proved, and cost about a tenth of a grouped create's time in PostgreSQL. Deleting a
-- workspace (a full reset) now deletes its payments itself, and a migration that renames workspaces
-- must rename their payments too (0003's ON UPDATE CASCADE no longer does); histories still follow
-- their payments.
ALTER TABLE payments DROP CONSTRAINT payments_workspace_fkey;
