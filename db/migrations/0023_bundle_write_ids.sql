-- 0023_bundle_write_ids: which bundles a transaction wrote, so that the
-- API's caches drop what a write changed and keep the rest
-- (store.BundlesWritten, pkg/pagecache): a write of bundle X changes X's
-- card and no other.
--
-- ids holds the ids of the rows the transaction's statements inserted,
-- updated or deleted, in the order written, repeats included; NULL means
-- "any bundle": the rows written before this migration, and a transaction
-- that wrote more than okf_write_ids_cap() rows (a bulk change, after
-- which a reader drops everything as before). The statement triggers of
-- 0016 call the function; only its body changes.
ALTER TABLE bundle_writes ADD COLUMN ids text[];

CREATE FUNCTION okf_write_ids_cap() RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT 1000';

CREATE OR REPLACE FUNCTION okf_bundle_writes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    written text[];
BEGIN
    SELECT array_agg(id) INTO written FROM (SELECT id FROM changed LIMIT okf_write_ids_cap() + 1) AS c;
    IF written IS NULL THEN
        RETURN NULL;
    END IF;
    IF cardinality(written) > okf_write_ids_cap() THEN
        written := NULL;
    END IF;
    INSERT INTO bundle_writes AS w (xid, ids) VALUES (pg_current_xact_id(), written)
    ON CONFLICT (xid) DO UPDATE
    SET ids = CASE WHEN w.ids IS NULL OR excluded.ids IS NULL
                     OR cardinality(w.ids) + cardinality(excluded.ids) > okf_write_ids_cap() THEN NULL
                   ELSE w.ids || excluded.ids END;
    RETURN NULL;
END
$$;
