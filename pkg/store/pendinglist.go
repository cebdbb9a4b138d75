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

// pendingFlushTimeout bounds a flush: it is upkeep, and a flush that
// cannot finish leaves the lists to the next write or to autovacuum. A
// second's entries flush in well under a second; the bound is what Close
// can wait for when the database hangs, short of a shutdown's grace
// period.
const pendingFlushTimeout = 5 * time.Second

// flushPendingLists flushes the pending lists of bundles_live_search and
// bundles_live_search_head unless this Store did less than
// pendingFlushEvery ago. The flush runs after the write that asked for it
// has returned, on its own connection: it is upkeep, never a reason to
// fail or to slow the write (a writer of one batch at a time gets on with
// its next while the database flushes), and an error (the database went away, the Store closed)
// leaves the lists to the next write or to autovacuum. Close waits for it.
func (s *Store) flushPendingLists() {
	now := time.Now().UnixNano()
	last := s.pendingFlushed.Load()
	if now-last < int64(pendingFlushEvery) || !s.pendingFlushed.CompareAndSwap(last, now) {
		return
	}
	s.inBackground(func() {
		ctx, cancel := context.WithTimeout(context.Background(), pendingFlushTimeout)
		defer cancel()
		_, _ = s.write.Exec(ctx, `SELECT gin_clean_pending_list('bundles_live_search'::regclass),
			gin_clean_pending_list('bundles_live_search_head'::regclass)`)
	})
}
