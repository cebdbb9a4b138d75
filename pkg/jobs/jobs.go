// Package jobs holds the arguments of the River jobs the services share: the
// API inserts them (insert-only client) and the worker runs them. Only the
// argument types and their insert options live here, never the work itself.
package jobs

import (
	"time"

	"github.com/riverqueue/river"
)

// RecountStatsArgs asks the worker to rebuild the statistics summary from the
// bundles table. The writers keep the summary current on every write; the
// periodic recount is a safety net that puts it right should it ever drift.
type RecountStatsArgs struct{}

// Kind names the job in River.
func (RecountStatsArgs) Kind() string { return "recount_stats" }

// InsertOpts makes the recount unique per period, so several workers or
// several triggers never queue it twice.
func (RecountStatsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: 10 * time.Minute}}
}

// RecountStatsEvery is the period of the recount.
const RecountStatsEvery = time.Hour

// CompactChangesArgs asks the worker to compact the change feed: drop the
// events a newer event of the same bundle supersedes, and tombstones older
// than ChangesRetention (store.CompactChanges).
type CompactChangesArgs struct{}

// Kind names the job in River.
func (CompactChangesArgs) Kind() string { return "compact_changes" }

// InsertOpts makes the compaction unique per period.
func (CompactChangesArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: time.Hour}}
}

// CompactChangesEvery is the period of the compaction; ChangesRetention
// how long a tombstone is kept, so how old a cursor may be before it is
// answered 410 cursor_expired.
const (
	CompactChangesEvery = 24 * time.Hour
	ChangesRetention    = 30 * 24 * time.Hour
)
