package worker

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
)

// RecountStatsWorker rebuilds the statistics summary, and the index-wide
// count of concept links to missing files that the operator metrics show
// (okf_concept_links).
type RecountStatsWorker struct {
	river.WorkerDefaults[jobs.RecountStatsArgs]
	Store *store.Store
}

// Work runs one recount.
func (w *RecountStatsWorker) Work(ctx context.Context, job *river.Job[jobs.RecountStatsArgs]) error {
	if err := w.Store.RecountStats(ctx); err != nil {
		return fmt.Errorf("worker: recount stats: %w", err)
	}
	if err := w.Store.RecountLinks(ctx); err != nil {
		return fmt.Errorf("worker: recount links: %w", err)
	}
	return nil
}
