package jobs

import (
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// QueueSweep is the queue of the GitHub sweep's jobs. Its worker count
// bounds the concurrent calls one process makes against the GitHub budget.
const QueueSweep = "sweep"

// SweepDiscoverArgs asks the worker to run the discoverers (seed list,
// repository search by date window, code search by size range) for one
// round, record the candidate repositories, and queue SweepReposArgs
// batches for the candidates not swept since the round began.
type SweepDiscoverArgs struct {
	// Round names the discovery round (the UTC start of its period, RFC
	// 3339); the progress of each search slice is kept per round, so a
	// retried or resumed job skips the slices it finished.
	Round string `json:"round"`
}

// Kind names the job in River.
func (SweepDiscoverArgs) Kind() string { return "sweep_discover" }

// InsertOpts makes a round's discovery unique.
func (SweepDiscoverArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueSweep, MaxAttempts: 10, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// SweepDiscoverEvery is the period of discovery rounds.
const SweepDiscoverEvery = 24 * time.Hour

// SweepReposArgs asks the worker to read a batch of repositories: signals,
// default-branch trees and every index.md, and to upsert their bundles and
// hide the ones that vanished.
type SweepReposArgs struct {
	Repos []string `json:"repos"` // owner/name as GitHub spells them
	Round string   `json:"round"` // the round that queued the batch
	// Force re-reads the trees even of repositories whose head commit has not
	// moved since their last sweep.
	Force bool `json:"force,omitempty"`
}

// Kind names the job in River.
func (SweepReposArgs) Kind() string { return "sweep_repos" }

// InsertOpts makes one batch of one round unique, so a discovery that is
// retried never queues the same slice twice.
func (SweepReposArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueSweep, MaxAttempts: 10, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// EnrichReposArgs asks the worker to refresh the repository signals (stars,
// forks, pushed_at, archived, language, license, state) of every repository
// holding bundles that neither a sweep nor an enrichment read recently.
type EnrichReposArgs struct{}

// Kind names the job in River.
func (EnrichReposArgs) Kind() string { return "enrich_repos" }

// InsertOpts keeps at most one enrichment queued or running; a finished
// one does not block the next.
func (EnrichReposArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueSweep, UniqueOpts: river.UniqueOpts{ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateRetryable, rivertype.JobStateScheduled,
	}}}
}

// EnrichReposEvery is the period of the enrichment.
const EnrichReposEvery = 6 * time.Hour
