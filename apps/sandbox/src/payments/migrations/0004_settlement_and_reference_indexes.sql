-- Settlement looks for completed payments on every request: this index keeps that probe cheap.
CREATE INDEX payments_awaiting_settlement ON payments (workspace, completed_at) WHERE status = 'completed';
-- Reconciliation finds payments by the caller's reference.
CREATE INDEX payments_by_reference ON payments (workspace, reference) WHERE reference IS NOT NULL;
