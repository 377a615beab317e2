-- A payment's first history entry, its creation, is kept on the payment's own row: a create then writes
-- one row (and its index entries), not two. Its time is created_at; payment_history keeps every later
-- change.
ALTER TABLE payments
  ADD COLUMN created_status  text,
  ADD COLUMN created_cause   text,
  ADD COLUMN created_version bigint;

UPDATE payments p SET created_status = h.status, created_cause = h.cause, created_version = h.version
FROM payment_history h
WHERE h.workspace = p.workspace AND h.seq = p.seq
  AND h.version = (SELECT min(f.version) FROM payment_history f WHERE f.workspace = p.workspace AND f.seq = p.seq);

DELETE FROM payment_history h USING payments p
WHERE h.workspace = p.workspace AND h.seq = p.seq AND h.version = p.created_version;

ALTER TABLE payments
  ALTER COLUMN created_status SET NOT NULL,
  ALTER COLUMN created_cause SET NOT NULL,
  ALTER COLUMN created_version SET NOT NULL;
