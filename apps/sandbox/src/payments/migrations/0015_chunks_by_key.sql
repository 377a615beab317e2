-- A history entry is written only by the statement that changes its payment, under the workspace's
-- lock, so the payment is there: the foreign key's check proved it again, one query per entry. At
-- 60,000 payments under a steady load of creates, a completion chunk's thousand checks took 0.5 to
-- 2.2 s of its 0.6 to 2.3 s, with the workspace's lock held, and every create of the workspace waited.
-- As 0008 did for payments: the stores delete a workspace's histories themselves (a reset), before
-- its payments.
ALTER TABLE payment_history DROP CONSTRAINT payment_history_workspace_seq_fkey;

-- Settlement takes its chunks in (completed_at, seq) order: the index that finds them now holds them in
-- that order, so a chunk reads its own 5,000 entries rather than every completed payment due for
-- settlement, sorted, for each chunk (a night's backlog of a million read two hundred times).
CREATE INDEX payments_awaiting_settlement_in_order ON payments (workspace, completed_at, seq) WHERE status = 'completed';
DROP INDEX payments_awaiting_settlement;
ALTER INDEX payments_awaiting_settlement_in_order RENAME TO payments_awaiting_settlement;
