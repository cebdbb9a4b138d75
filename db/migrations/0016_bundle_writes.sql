-- 0016_bundle_writes: which transactions wrote bundles, so that a reader
-- can tell whether anything it read may have changed (store.BundlesWritten,
-- the API's cache of search pages, pkg/pagecache).
--
-- One row per transaction that inserted, updated or deleted at least one
-- bundle, keyed by its transaction id. Readers compare the rows they can
-- see with a snapshot they took earlier: a row visible now but not in that
-- snapshot is a write committed since. This needs no counter that every
-- writer updates (a row lock held to commit would serialize the writers
-- and could deadlock with their bundle locks), and unlike a sequence it
-- does not depend on commit order. A statement that writes no row (an
-- upsert of unchanged content writes nothing) adds nothing.
--
-- Rows older than an hour are deleted by the compact_changes job
-- (store.TrimBundleWrites); readers never compare with a snapshot older
-- than pagecache.maxSnapshotAge, so a deleted row is one every such
-- snapshot already sees.
CREATE TABLE bundle_writes (
    xid xid8 PRIMARY KEY,
    at  timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION okf_bundle_writes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM changed) THEN
        INSERT INTO bundle_writes (xid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER bundles_writes_insert AFTER INSERT ON bundles
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION okf_bundle_writes();
CREATE TRIGGER bundles_writes_update AFTER UPDATE ON bundles
    REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION okf_bundle_writes();
CREATE TRIGGER bundles_writes_delete AFTER DELETE ON bundles
    REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION okf_bundle_writes();
