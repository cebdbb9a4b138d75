package worker

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
)

// RecountStatsWorker rebuilds the statistics summary.
type RecountStatsWorker struct {
	river.WorkerDefaults[jobs.RecountStatsArgs]
	Store *store.Store
}

// Work runs one recount.
func (w *RecountStatsWorker) Work(ctx context.Context, job *river.Job[jobs.RecountStatsArgs]) error {
	if err := w.Store.RecountStats(ctx); err != nil {
		return fmt.Errorf("worker: recount stats: %w", err)
	}
	return nil
}
