package worker

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
)

// EnrichReposWorker refreshes the repository signals of every repository
// holding bundles that no sweep or enrichment read within half a period.
type EnrichReposWorker struct {
	river.WorkerDefaults[jobs.EnrichReposArgs]
	Store  *store.Store
	GitHub *github.Client
	Logger *slog.Logger
	Now    func() time.Time
	// JobTimeout, when set, replaces the job's default timeout.
	JobTimeout time.Duration
	Every      time.Duration
	// Slice is SweepConfig.Slice.
	Slice time.Duration
}

// Timeout bounds one slice of the enrichment (SweepSliceTimeout).
func (w *EnrichReposWorker) Timeout(*river.Job[jobs.EnrichReposArgs]) time.Duration {
	return cmp.Or(w.JobTimeout, SweepSliceTimeout)
}

// Work refreshes the due repositories, github.ReadBatch per call, until
// none is due or the slice ends; then it snoozes and the next slice goes
// on. Progress is kept per repository (enriched_at), so a snoozed or
// retried job reads only the repositories not refreshed yet.
func (w *EnrichReposWorker) Work(ctx context.Context, job *river.Job[jobs.EnrichReposArgs]) error {
	deadline := sliceDeadline(w.Slice, w.Timeout(job))
	before := w.Now().Add(-w.Every / 2)
	after, n := "", 0
	for {
		if n > 0 && time.Now().After(deadline) {
			w.Logger.Info("sweep: enrichment slice done", "repos", n)
			return sweepResult(errSliceEnd)
		}
		due, err := w.Store.EnrichDue(ctx, before, after, github.ReadBatch)
		if err != nil {
			return err
		}
		if len(due) == 0 {
			w.Logger.Info("sweep: enrichment done", "repos", n)
			return nil
		}
		refs := make([]github.RepoRef, len(due))
		for i, c := range due {
			refs[i] = github.RepoRef{Owner: c.Owner, Name: c.Name}
		}
		batch := sweepBatch{Store: w.Store, GitHub: w.GitHub, Logger: w.Logger, Now: w.Now, Refs: refs, SignalsOnly: true}
		if err := sweepRepos(ctx, batch); err != nil {
			return sweepResult(err)
		}
		after = due[len(due)-1].Repo
		n += len(due)
	}
}
