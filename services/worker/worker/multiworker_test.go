package worker_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/okfindex/okf-index/services/worker/worker"
)

// visibilities maps bundle ids to their visibility.
func (h *harness) visibilities(ctx context.Context) map[string]string {
	out := map[string]string{}
	for id, b := range h.bundles(ctx) {
		out[id] = b.Visibility
	}
	return out
}

// Two and three worker clients against one database give the same bundles
// as one, and no sweep batch is queued twice.
func TestSweepManyWorkers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sweep := func(workers int) map[string]string {
		h := newHarness(t)
		cfg := worker.SweepConfig{Seeds: h.seeds(), Queries: worker.DefaultSweepQueries, CodeQueries: worker.DefaultSweepCodeQueries}
		for range workers {
			h.startWorker(ctx, cfg)
		}
		h.firstRound(ctx)
		var batches, distinct int
		if err := h.pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT args) FROM river_job
			WHERE kind = 'sweep_repos'`).Scan(&batches, &distinct); err != nil {
			t.Fatal(err)
		}
		if batches != distinct {
			t.Errorf("%d workers: %d sweep batches, %d distinct", workers, batches, distinct)
		}
		return h.visibilities(ctx)
	}
	one := sweep(1)
	for _, n := range []int{2, 3} {
		if got := sweep(n); !maps.Equal(got, one) {
			t.Errorf("%d workers: %d bundles differ from one worker's %d", n, len(got), len(one))
		}
	}
}
