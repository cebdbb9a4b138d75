package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// The enrichment refreshes the signals of swept repositories: an archived
// repository's bundles say archived, a deleted one's are hidden.
func TestEnrichRepos(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	h := newHarness(t)
	client := h.startWorker(ctx, worker.SweepConfig{Seeds: h.seeds()})
	h.firstRound(ctx)
	archived := h.find(t, "FastEndpoints", "FastEndpoints")
	deleted := h.find(t, "4rays", "icli")
	if b := h.bundles(ctx)[archived.id()]; b.State == nil || *b.State == source.StateArchived {
		t.Fatalf("before: %+v", b)
	}
	h.gh.SetArchived(archived.Owner, archived.Name, true)
	h.gh.RemoveRepo(deleted.Owner, deleted.Name)
	h.clock.Advance(4 * time.Hour)
	h.gh.ResetRequests()
	if _, err := client.Insert(ctx, jobs.EnrichReposArgs{}, nil); err != nil {
		t.Fatal(err)
	}
	h.waitIdle(ctx)
	got := h.bundles(ctx)
	if b := got[archived.id()]; b.State == nil || *b.State != source.StateArchived || b.Visibility != "live" {
		t.Errorf("archived repository's bundle: %+v", b)
	}
	if b := got[deleted.id()]; b.Visibility != "hidden" || b.State == nil || *b.State != source.StateGone {
		t.Errorf("deleted repository's bundle: %+v", b)
	}
	st := h.gh.Stats()
	if st.GraphQLCalls != 1 {
		t.Errorf("enrichment of %d repositories took %d GraphQL calls, want 1 batched call", len(h.seeds()), st.GraphQLCalls)
	}
}
