package worker

import (
	"cmp"
	"errors"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
)

// SweepConfig configures the GitHub sweep. The sweep runs only when the
// worker is given a GitHub client (GITHUB_TOKEN is set). okf-worker fills
// it from config.Sweep.
type SweepConfig struct {
	// Seeds are repositories always swept (OKF_SWEEP_SEEDS).
	Seeds []github.RepoRef
	// Queries are the repository searches of the first discoverer
	// (OKF_SWEEP_QUERIES); each is split into created: date windows.
	Queries []string
	// CodeQueries are the code searches of the second discoverer
	// (OKF_SWEEP_CODE_QUERIES); each is split into size: ranges. Empty
	// turns code search off.
	CodeQueries []string
	// Since is the first day of the date windows (GitHub opened in 2008).
	Since time.Time
	// BatchSize is the number of repositories per sweep_repos job.
	BatchSize int
	// DiscoverEvery and EnrichEvery are the periods of the periodic jobs.
	DiscoverEvery time.Duration
	EnrichEvery   time.Duration
	// Workers is the number of sweep jobs one process runs at once.
	Workers int
	// Slice is how long one run of sweep_discover or enrich_repos works
	// before it snoozes to go on (it always does one page or batch); two
	// thirds of its timeout when 0. Tests shorten it.
	Slice time.Duration
}

// Defaults of the sweep's searches: those of OKF_SWEEP_QUERIES and
// OKF_SWEEP_CODE_QUERIES (pkg/config).
var (
	DefaultSweepQueries     = config.DefaultSweepQueries
	DefaultSweepCodeQueries = config.DefaultSweepCodeQueries
)

// MaxCodeSize is the largest file GitHub's code search indexes (384 KB):
// the top of the size: ranges.
const MaxCodeSize = 384 * 1024

func (c *SweepConfig) fill() {
	if c.Since.IsZero() {
		c.Since = time.Date(2008, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if c.BatchSize == 0 {
		c.BatchSize = 25
	}
	if c.DiscoverEvery == 0 {
		c.DiscoverEvery = jobs.SweepDiscoverEvery
	}
	if c.EnrichEvery == 0 {
		c.EnrichEvery = jobs.EnrichReposEvery
	}
	if c.Workers == 0 {
		c.Workers = config.DefaultSweepWorkers
	}
}

func toRefs(rs []github.RepoRef) []store.CandidateRef {
	out := make([]store.CandidateRef, len(rs))
	for i, r := range rs {
		out[i] = store.CandidateRef{Owner: r.Owner, Name: r.Name}
	}
	return out
}

// errSliceEnd stops a sliced sweep job (sweep_discover, enrich_repos) at
// its slice deadline; the job snoozes (sweepResult) and its next run
// continues from the progress kept in Postgres.
var errSliceEnd = errors.New("worker: sweep: slice deadline reached")

// sliceDeadline is when a sliced job that starts now stops starting new
// work: after slice, or two thirds of its timeout when slice is 0, leaving
// a third for the call in flight (one GraphQL call, with at most a minute
// of rate-limit wait). It is wall-clock time, whatever the sweep's clock.
func sliceDeadline(slice, timeout time.Duration) time.Time {
	return time.Now().Add(cmp.Or(slice, timeout*2/3))
}
