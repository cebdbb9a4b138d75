-- 0015_changes: the change feed (GET /api/changes, /feed.atom).
--
-- Every write of bundles that changes the live set, or the card of a live
-- bundle, appends an event to bundle_changes, from statement-level triggers
-- with transition tables (like the statistics of 0002_stats): every writer
-- (the batched ingest, single upserts, the duplicate rule's reconciliation,
-- hiding) is covered without a line of its own, and a batch of 500 bundles
-- costs one INSERT ... SELECT per trigger, not 500.
--
-- Which transitions are events (the live set is what search returns):
--   not live -> live (a new live bundle, low -> live, hidden -> live)   added
--   live -> live with another content_hash (the card changed)          updated
--   live -> low                                                          removed, made_low
--   live -> hidden                                                       removed, gone_reason
--   live row deleted (the service never deletes; an operator might)     removed, deleted
-- Repository signals (stars, forks, pushed_at, state...) are not events:
-- the enricher refreshes them for every repository, and a feed of star
-- counts would drown the changes of the set.
--
-- Commit order. seq comes from an identity at insert time, which is not
-- commit order: a transaction that took seq 5 may commit after one that
-- took seq 6, and a reader that served 6 would skip 5. So readers never
-- read seq: okf_sequence_changes(), run by one session at a time (an
-- advisory lock), gives the committed events that have no position yet the
-- next positions, in seq order, in one statement. Positions therefore
-- become visible in order and without gaps, and readers page by position.
-- Two events of one bundle are always in the order they happened: the
-- second writer waited for the first's row lock, so it took a larger seq
-- and cannot be visible before the first.

-- gone_reason: why a hidden bundle was hidden, set by the statement that
-- hides it (store: HideRepoBundlesExcept, HideGoneRepo, HideBundle);
-- meaningful only while the bundle is hidden.
ALTER TABLE bundles ADD COLUMN gone_reason text
    CHECK (gone_reason IN ('repo_gone', 'file_gone', 'key_mismatch'));

CREATE TABLE bundle_changes (
    seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- position in commit order, from 1 without gaps; NULL until sequenced.
    pos       bigint,
    bundle_id text COLLATE "C" NOT NULL,
    kind      text NOT NULL CHECK (kind IN ('added', 'updated', 'removed')),
    reason    text CHECK (reason IN ('repo_gone', 'file_gone', 'key_mismatch', 'made_low', 'deleted')),
    at        timestamptz NOT NULL DEFAULT clock_timestamp(),
    -- when the sequencer gave it its position: grows with pos, so the
    -- Last-Modified of a page of the feed is its last event's placed_at.
    placed_at timestamptz,
    CHECK ((kind = 'removed') = (reason IS NOT NULL))
);

-- Readers page by position; the sequencer's work list is the events
-- without one. Both partial, so that an insert (the ingest's cost) writes
-- one entry besides the primary key's.
CREATE UNIQUE INDEX bundle_changes_pos ON bundle_changes (pos) WHERE pos IS NOT NULL;
CREATE INDEX bundle_changes_unsequenced ON bundle_changes (seq) WHERE pos IS NULL;

-- The oldest position a cursor may still name: events before it were
-- dropped (store.CompactChanges), and a cursor older than it is answered
-- 410 cursor_expired. One row.
CREATE TABLE bundle_changes_horizon (
    one     boolean PRIMARY KEY DEFAULT true CHECK (one),
    min_pos bigint NOT NULL
);
INSERT INTO bundle_changes_horizon (min_pos) VALUES (0);

CREATE FUNCTION okf_bundle_changes_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bundle_changes (bundle_id, kind)
    SELECT id, 'added' FROM new_rows WHERE visibility = 'live' ORDER BY id;
    RETURN NULL;
END
$$;

-- Old and new rows are paired by grouping on id, not by a join: the
-- planner has no statistics for transition tables and would nest a loop of
-- 500 by 500 rows on a batch.
CREATE FUNCTION okf_bundle_changes_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bundle_changes (bundle_id, kind, reason)
    SELECT id,
        CASE WHEN NOT was_live THEN 'added'
             WHEN NOT is_live THEN 'removed'
             ELSE 'updated' END,
        CASE WHEN was_live AND new_vis = 'low' THEN 'made_low'
             WHEN was_live AND new_vis = 'hidden' THEN coalesce(reason, 'file_gone') END
    FROM (
        SELECT d.id,
            bool_or(d.visibility = 'live') FILTER (WHERE d.side = 0) AS was_live,
            bool_or(d.visibility = 'live') FILTER (WHERE d.side = 1) AS is_live,
            max(d.visibility) FILTER (WHERE d.side = 1) AS new_vis,
            max(d.gone_reason) FILTER (WHERE d.side = 1) AS reason,
            max(d.content_hash) FILTER (WHERE d.side = 0) AS old_hash,
            max(d.content_hash) FILTER (WHERE d.side = 1) AS new_hash
        FROM (SELECT 0 AS side, id, visibility, gone_reason, content_hash FROM old_rows
              UNION ALL
              SELECT 1, id, visibility, gone_reason, content_hash FROM new_rows) AS d
        GROUP BY d.id
    ) AS p
    WHERE was_live <> is_live OR (is_live AND old_hash <> new_hash)
    ORDER BY id;
    RETURN NULL;
END
$$;

CREATE FUNCTION okf_bundle_changes_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bundle_changes (bundle_id, kind, reason)
    SELECT id, 'removed', 'deleted' FROM old_rows WHERE visibility = 'live' ORDER BY id;
    RETURN NULL;
END
$$;

CREATE TRIGGER bundles_changes_insert AFTER INSERT ON bundles
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION okf_bundle_changes_insert();
CREATE TRIGGER bundles_changes_update AFTER UPDATE ON bundles
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION okf_bundle_changes_update();
CREATE TRIGGER bundles_changes_delete AFTER DELETE ON bundles
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION okf_bundle_changes_delete();

-- okf_sequence_changes gives the committed events without a position the
-- next positions, in seq order, and returns how many it placed; NULL when
-- another session is placing events at that moment (its events become
-- visible when it commits, so the caller just reads what is there).
-- Each statement of a plpgsql function takes a new snapshot, so the
-- UPDATE sees every event committed before the lock was taken.
CREATE FUNCTION okf_sequence_changes() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    last bigint;
    placed bigint;
    t timestamptz;
BEGIN
    IF NOT pg_try_advisory_xact_lock(7301904, 1) THEN  -- class 0x6f6b10 (store: lockClassChanges), key 1
        RETURN NULL;
    END IF;
    t := clock_timestamp();  -- after the previous placer committed
    -- The horizon counts: the newest events may be tombstones that
    -- CompactChanges dropped, and a position is never given twice.
    SELECT greatest(coalesce(max(pos), 0), (SELECT min_pos FROM bundle_changes_horizon))
        INTO last FROM bundle_changes;
    UPDATE bundle_changes AS c SET pos = last + r.n, placed_at = t
    FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS n
          FROM bundle_changes WHERE pos IS NULL) AS r
    WHERE c.seq = r.seq;
    GET DIAGNOSTICS placed = ROW_COUNT;
    RETURN placed;
END
$$;
