package store

// The GIN pending lists of the text indexes. With fastupdate (Postgres's
// default), a GIN index takes a written row's entries into a pending list
// that every probe of the index scans whole, until a vacuum, or 4 MB of
// entries, flushes it into the tree. The writers of bundles keep the lists
// short themselves: after a write, the text indexes' lists are flushed,
// at most once every pendingFlushEvery per Store, so a probe scans at most
// about that long's writes, and the entries are still inserted in batches
// (what makes a bundle's write cheap: migration 0020 and docs/decisions.md).

import (
	"context"
	"time"
)

// pendingFlushEvery bounds how often a Store flushes the pending lists:
// under a sweep's steady writes, a probe scans at most this long's entries.
const pendingFlushEvery = time.Second

// flushPendingLists flushes the pending lists of bundles_live_search and
// bundles_live_search_head unless this Store did less than
// pendingFlushEvery ago. It is upkeep, never a reason to fail the write
// that called it: an error (the caller's context ended, the database
// went away) leaves the lists to the next write or to autovacuum.
func (s *Store) flushPendingLists(ctx context.Context) {
	now := time.Now().UnixNano()
	last := s.pendingFlushed.Load()
	if now-last < int64(pendingFlushEvery) || !s.pendingFlushed.CompareAndSwap(last, now) {
		return
	}
	_, _ = s.write.Exec(ctx, `SELECT gin_clean_pending_list('bundles_live_search'::regclass),
		gin_clean_pending_list('bundles_live_search_head'::regclass)`)
}
