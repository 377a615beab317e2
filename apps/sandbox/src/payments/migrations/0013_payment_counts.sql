-- How many of a workspace's payments there are now for each status, method and pair of accounts, kept
-- by the statements that change them: a listing filtered by any of those (alone or together) counts
-- its exact `pagination.total` from here and from the few payments changed since its snapshot,
-- instead of reading every payment of the workspace with its history. A workspace has a handful of
-- accounts, so this holds at most a few hundred rows for it, however many payments it has.
--
-- Kept by statement-level triggers, so every writer (creates in groups, completion and settlement in
-- chunks, a cancel, a reset, a migration) keeps it without knowing: one upsert per group a statement
-- touched, not one per row. Every such statement has first locked its workspace's row, so two never
-- update one workspace's counts in different orders.
CREATE TABLE payment_counts (
  workspace    text NOT NULL,
  status       text NOT NULL,
  method       text NOT NULL,
  from_account text NOT NULL,
  to_account   text NOT NULL,
  n            bigint NOT NULL,
  PRIMARY KEY (workspace, status, method, from_account, to_account)
);

INSERT INTO payment_counts (workspace, status, method, from_account, to_account, n)
SELECT workspace, status, method, from_account, to_account, count(*)
FROM payments GROUP BY workspace, status, method, from_account, to_account;

CREATE FUNCTION payspec_count_payments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payment_counts AS c (workspace, status, method, from_account, to_account, n)
    SELECT workspace, status, method, from_account, to_account, count(*) FROM new_rows
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (workspace, status, method, from_account, to_account) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE payment_counts c SET n = c.n - gone.n
    FROM (SELECT workspace, status, method, from_account, to_account, count(*) AS n FROM old_rows GROUP BY 1, 2, 3, 4, 5) gone
    WHERE (c.workspace, c.status, c.method, c.from_account, c.to_account)
        = (gone.workspace, gone.status, gone.method, gone.from_account, gone.to_account);
  ELSE
    -- Only the groups whose count moved: an update that keeps every status writes nothing here.
    INSERT INTO payment_counts AS c (workspace, status, method, from_account, to_account, n)
    SELECT workspace, status, method, from_account, to_account, sum(d) FROM (
      SELECT workspace, status, method, from_account, to_account, -1 AS d FROM old_rows
      UNION ALL
      SELECT workspace, status, method, from_account, to_account, 1 AS d FROM new_rows
    ) moved
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (workspace, status, method, from_account, to_account) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER payments_counted_on_insert AFTER INSERT ON payments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payspec_count_payments();
CREATE TRIGGER payments_counted_on_update AFTER UPDATE ON payments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payspec_count_payments();
CREATE TRIGGER payments_counted_on_delete AFTER DELETE ON payments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payspec_count_payments();

-- The payments changed since a listing's snapshot, found without reading the others.
CREATE INDEX payments_by_version ON payments (workspace, version);

-- A page of the payments in one status, in listing order, read as a page of index entries.
CREATE INDEX payments_by_status ON payments (workspace, status, seq);
-- The approvals queue (pending, waiting for an approver), in listing order: a few entries, however
-- many payments the workspace has.
CREATE INDEX payments_awaiting_approval ON payments (workspace, seq) WHERE status = 'pending' AND countdown_from IS NULL;
