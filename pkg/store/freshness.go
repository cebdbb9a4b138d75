package store

import (
	"context"
	"fmt"
	"time"
)

// BundlesWritten reports what transactions that wrote bundles and
// committed since the snapshot since was taken wrote, and returns a
// snapshot of now to ask with next time. since is a snapshot this returned
// before (a pg_snapshot's text); "" asks with none and reports all. all
// says any bundle may have changed (no snapshot, a transaction that wrote
// more than a thousand bundles, or one from before migration 0023); else
// ids are the bundles written (none when nothing was), at most
// maxWrittenIDs of them, past which all is reported instead.
//
// It reads the read database, which searches and cards are read from, so
// that on a replica "now" is the replica's now, over a connection of its
// own: a check must not wait behind the read pool's slow searches. The rows it compares are
// those of bundle_writes (migrations 0016 and 0023), written by statement triggers on
// bundles: a row visible to this statement but not in since is a write
// committed in between, whatever the order in which writers committed.
// Snapshots older than an hour must not be passed (TrimBundleWrites deletes
// rows that old).
func (s *Store) BundlesWritten(ctx context.Context, since string) (now string, all bool, ids []string, err error) {
	var prev *string
	if since != "" {
		prev = &since
	}
	err = s.fresh.QueryRow(ctx, `WITH w AS (
			SELECT ids FROM bundle_writes
			WHERE $1::text IS NOT NULL AND xid >= pg_snapshot_xmin($1::pg_snapshot)
			  AND NOT pg_visible_in_snapshot(xid, $1::pg_snapshot))
		SELECT pg_current_snapshot()::text,
			$1::text IS NULL OR EXISTS (SELECT 1 FROM w WHERE ids IS NULL),
			ARRAY(SELECT DISTINCT id FROM w, unnest(w.ids) AS id LIMIT $2)`, prev, maxWrittenIDs+1).Scan(&now, &all, &ids)
	if err != nil {
		return "", false, nil, fmt.Errorf("store: bundles written: %w", err)
	}
	if all || len(ids) > maxWrittenIDs {
		return now, true, nil, nil
	}
	return now, false, ids, nil
}

// maxWrittenIDs bounds the ids BundlesWritten returns: past it, a reader
// is told all, and starts over.
const maxWrittenIDs = 10000

// BundleWritesKept is how long TrimBundleWrites keeps the rows of
// bundle_writes: longer than any snapshot a caller of BundlesWritten keeps.
const BundleWritesKept = time.Hour

// TrimBundleWrites deletes the rows of bundle_writes written before
// BundleWritesKept ago by now, and returns how many.
func (s *Store) TrimBundleWrites(ctx context.Context, now time.Time) (int64, error) {
	tag, err := s.write.Exec(ctx, `DELETE FROM bundle_writes WHERE at < $1`, now.Add(-BundleWritesKept))
	if err != nil {
		return 0, fmt.Errorf("store: trim bundle writes: %w", err)
	}
	return tag.RowsAffected(), nil
}
