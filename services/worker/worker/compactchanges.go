package worker

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
)

// CompactChangesWorker compacts the change feed: superseded events go at
// once, tombstones after jobs.ChangesRetention. It also trims the record of
// which transactions wrote bundles (store.TrimBundleWrites), the other
// table the bundles' triggers append to.
type CompactChangesWorker struct {
	river.WorkerDefaults[jobs.CompactChangesArgs]
	Store  *store.Store
	Now    func() time.Time
	Logger *slog.Logger
}

// Work runs one compaction.
func (w *CompactChangesWorker) Work(ctx context.Context, job *river.Job[jobs.CompactChangesArgs]) error {
	n, err := w.Store.CompactChanges(ctx, w.Now().Add(-jobs.ChangesRetention))
	if err != nil {
		return fmt.Errorf("worker: compact changes: %w", err)
	}
	trimmed, err := w.Store.TrimBundleWrites(ctx, w.Now())
	if err != nil {
		return fmt.Errorf("worker: compact changes: %w", err)
	}
	w.Logger.Info("compact changes: dropped events", "dropped", n, "bundle_writes_trimmed", trimmed)
	return nil
}
