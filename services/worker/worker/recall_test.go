package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// recall sweeps the corpus from a cold start (no seeds) with the given
// discoverers and returns how many of the manifest's bundle roots it
// indexed, of how many.
func recall(t *testing.T, queries, codeQueries []string) (found, total int) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	h := newHarness(t)
	h.startWorker(ctx, worker.SweepConfig{Queries: queries, CodeQueries: codeQueries})
	h.firstRound(ctx)
	got := h.bundles(ctx)
	for _, r := range h.roots {
		if !r.bundle() {
			continue
		}
		total++
		if b, ok := got[r.id()]; ok && b.Visibility != wire.VisibilityHidden {
			found++
		} else if queries != nil && codeQueries != nil {
			t.Errorf("both discoverers missed %s/%s %s", r.Owner, r.Name, r.Path)
		}
	}
	return found, total
}

// From a cold start, the two discoverers together find every real bundle;
// the recall of each alone is logged (go test -v -run TestSweepRecall).
func TestSweepRecall(t *testing.T) {
	var both, repo, code [2]int
	t.Run("both", func(t *testing.T) {
		both[0], both[1] = recall(t, worker.DefaultSweepQueries, worker.DefaultSweepCodeQueries)
	})
	t.Run("repo_search", func(t *testing.T) {
		repo[0], repo[1] = recall(t, worker.DefaultSweepQueries, nil)
	})
	t.Run("code_search", func(t *testing.T) {
		code[0], code[1] = recall(t, nil, worker.DefaultSweepCodeQueries)
	})
	t.Logf("recall from a cold start: both %d/%d, repository search alone %d/%d, code search alone %d/%d",
		both[0], both[1], repo[0], repo[1], code[0], code[1])
	if both[0] != both[1] {
		t.Errorf("the discoverers together found %d of %d bundles", both[0], both[1])
	}
}
