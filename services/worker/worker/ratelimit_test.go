package worker_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/okfindex/okf-index/services/worker/worker"
)

// With an exhausted GraphQL budget and secondary-limit answers (403 and 429
// with Retry-After), the sweep waits and completes without a failed job.
func TestSweepWaitsOutRateLimits(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	h := newHarness(t)
	start := h.clock.Now()
	h.gh.SetRateLimit(0, start.Add(20*time.Minute))
	h.gh.FailNext(2, http.StatusForbidden, 45*time.Second)
	h.gh.FailNext(1, http.StatusTooManyRequests, 30*time.Second)
	h.startWorker(ctx, worker.SweepConfig{Seeds: h.seeds(), Queries: worker.DefaultSweepQueries, CodeQueries: worker.DefaultSweepCodeQueries})
	h.firstRound(ctx)
	h.checkCorpus(ctx, h.bundles(ctx))
	if waited := h.clock.Now().Sub(start); waited < 20*time.Minute {
		t.Errorf("the sweep waited %s, less than the budget's reset", waited)
	}
	st := h.gh.Stats()
	if st.Failures < 3 {
		t.Errorf("the local GitHub answered %d limit failures, want at least 3", st.Failures)
	}
	t.Logf("waited %s (fake clock); GitHub %+v", h.clock.Now().Sub(start), st)

	// A low (not exhausted) budget: the client pauses until the reset
	// rather than spending the last points.
	h.gh.SetRateLimit(50, h.clock.Now().Add(30*time.Minute))
	before := h.clock.Now()
	cl := h.github()
	if _, err := cl.SearchRepositories(ctx, "okf", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.SearchRepositories(ctx, "okf", ""); err != nil {
		t.Fatal(err)
	}
	if waited := h.clock.Now().Sub(before); waited < 30*time.Minute {
		t.Errorf("with 50 points left the client waited only %s", waited)
	}
}
