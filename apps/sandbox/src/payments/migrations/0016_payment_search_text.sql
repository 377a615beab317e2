-- The dashboard's search text is kept on each payment, folded, instead of being worked out again for
-- every payment a search looks at. The trigram index finds a search's candidates, but PostgreSQL must
-- still check each one against its words: with the text as an expression (migration 0014), that check
-- folded the reference and description again, about 1.5 µs a payment, most of the time a search of
-- common words took (at 1,000,000 payments, 0.21 s of a count of 111,111 matches; 0.04 s from the
-- column). The column is the same expression, computed once when the payment is written: the store's
-- search text (`searchText` in postgres-listing-statements.ts) is this column, and its folding table is
-- that of infrastructure/text/search-fold.ts, letter for letter (search-text-column.test.ts checks it).
--
-- Adding a stored column rewrites the table once: about 14 s at 1,000,000 payments on the machine
-- measured, during which the sandbox is not ready (/readyz) and the table is locked.
ALTER TABLE payments ADD COLUMN IF NOT EXISTS search_text text GENERATED ALWAYS AS (
  translate(normalize(coalesce(reference, '') || E'\n' || coalesce(description, ''), NFC),
    'ABCDEFGHIJKLMNOPQRSTUVWXYZÇĞİÖŞÜÂÎÛÄËÏÉÈÊÁÀÍÓÒÚÙÑı',
    'abcdefghijklmnopqrstuvwxyzçğiöşüâîûäëïéèêáàíóòúùñi')
) STORED;

-- The trigram index moves to the column. Without pg_trgm (see migration 0014) there is none to move,
-- and search reads every payment of the workspace: create the extension as the database's owner, then
-- create this index by hand.
DROP INDEX IF EXISTS payments_search_trgm;
DO $migration$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS payments_search_text_trgm ON payments USING gin (search_text gin_trgm_ops);
  ELSE
    RAISE NOTICE 'payspec: pg_trgm is not there, so the dashboard''s search reads every payment of a workspace. Create the extension as the database''s owner, then: CREATE INDEX payments_search_text_trgm ON payments USING gin (search_text gin_trgm_ops)';
  END IF;
END
$migration$;
