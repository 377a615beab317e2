-- The dashboard's search finds its words through a trigram index instead of reading every payment of
-- the workspace: a reference typed in full reads the few payments that hold its pieces of three
-- letters. The indexed expression is the store's search text (`searchText` in
-- postgres-listing-statements.ts, folded by the table of infrastructure/text/search-fold.ts), letter for
-- letter, or the planner cannot use it; the listing-plans test fails if they drift apart.
--
-- pg_trgm ships with PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13: the
-- database's owner may create it. Where it cannot be created (no contrib package, or a role without
-- CREATE on the database), the index is left out, with a notice, and search reads every payment of
-- the workspace, as before; this migration can then be run again by hand once the extension exists.
DO $migration$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'payspec: pg_trgm could not be created (%), so the dashboard''s search reads every payment of a workspace. Create the extension as the database''s owner to index it.', SQLERRM;
    RETURN;
  END;
  EXECUTE $index$
    CREATE INDEX IF NOT EXISTS payments_search_trgm ON payments USING gin (
      (translate(normalize(coalesce(reference, '') || E'\n' || coalesce(description, ''), NFC),
        'ABCDEFGHIJKLMNOPQRSTUVWXYZÇĞİÖŞÜÂÎÛÄËÏÉÈÊÁÀÍÓÒÚÙÑı',
        'abcdefghijklmnopqrstuvwxyzçğiöşüâîûäëïéèêáàíóòúùñi')) gin_trgm_ops)
  $index$;
END
$migration$;
