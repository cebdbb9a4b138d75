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
