package store

import (
	"context"
	"fmt"
	"time"
)

// BundlesWritten reports whether a transaction that wrote bundles has
// committed since the snapshot since was taken, and returns a snapshot of
// now to ask with next time. since is a snapshot this returned before (a
// pg_snapshot's text); "" asks with none and reports written.
//
// It reads the read database, which searches and cards are read from, so
// that on a replica "now" is the replica's now, over a connection of its
// own: a check must not wait behind the read pool's slow searches. The rows it compares are
// those of bundle_writes (migration 0016), written by statement triggers on
// bundles: a row visible to this statement but not in since is a write
// committed in between, whatever the order in which writers committed.
// Snapshots older than an hour must not be passed (TrimBundleWrites deletes
// rows that old).
func (s *Store) BundlesWritten(ctx context.Context, since string) (now string, written bool, err error) {
	var prev *string
	if since != "" {
		prev = &since
	}
	err = s.fresh.QueryRow(ctx, `SELECT pg_current_snapshot()::text,
		$1::text IS NULL OR EXISTS (
			SELECT 1 FROM bundle_writes
			WHERE xid >= pg_snapshot_xmin($1::pg_snapshot)
			  AND NOT pg_visible_in_snapshot(xid, $1::pg_snapshot))`, prev).Scan(&now, &written)
	if err != nil {
		return "", false, fmt.Errorf("store: bundles written: %w", err)
	}
	return now, written, nil
}

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
