package worker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// checkCorpus checks that every real root of the manifest is a live or low
// bundle (low by path for fixtures), that negatives are not bundles, and
// that repository signals are filled.
func (h *harness) checkCorpus(ctx context.Context, got map[string]bundleRow) {
	h.t.Helper()
	want := 0
	for _, r := range h.roots {
		b, ok := got[r.id()]
		if !r.bundle() {
			if ok {
				h.t.Errorf("negative %s/%s %s was indexed", r.Owner, r.Name, r.Path)
			}
			continue
		}
		want++
		switch {
		case !ok:
			h.t.Errorf("bundle %s/%s %s was not indexed", r.Owner, r.Name, r.Path)
		case b.Visibility == wire.VisibilityHidden:
			h.t.Errorf("bundle %s/%s %s is hidden", r.Owner, r.Name, r.Path)
		case (source.Repo{Path: r.Path}).Low() && b.Visibility != wire.VisibilityLow:
			h.t.Errorf("fixture %s/%s %s is %s", r.Owner, r.Name, r.Path, b.Visibility)
		case b.State == nil || b.Stars == nil:
			h.t.Errorf("bundle %s/%s %s has no repo signal", r.Owner, r.Name, r.Path)
		}
	}
	if len(got) != want {
		h.t.Errorf("%d bundles indexed, the manifest has %d roots that are bundles", len(got), want)
	}
}

// A full sweep of the real corpus indexes every real root, refuses every
// negative and fills repository signals; a second sweep changes nothing; a
// removed file and a removed repository hide their bundles on the next.
func TestSweepCorpus(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	h := newHarness(t)
	h.gh.SetCodeSearchRate(10, time.Minute)
	client := h.startWorker(ctx, worker.SweepConfig{Seeds: h.seeds(), Queries: worker.DefaultSweepQueries, CodeQueries: worker.DefaultSweepCodeQueries})
	h.firstRound(ctx)
	first := h.bundles(ctx)
	h.checkCorpus(ctx, first)
	t.Logf("first sweep: %d bundles; GitHub %+v", len(first), h.gh.Stats())

	// A root larger than GraphQL's blob text (databricks-okf, 1.5 MB) is read
	// in full through the REST contents API: its card counts every entry.
	big := h.find(t, "claudiobottari", "databricks-okf")
	card, err := h.st.GetBundle(ctx, big.id())
	if err != nil {
		t.Fatal(err)
	}
	if card.Concepts != 5120 {
		t.Errorf("databricks-okf: %d concepts, want the 5120 distinct targets of the whole root", card.Concepts)
	}

	h.round(ctx, client)
	second := h.bundles(ctx)
	for id, b := range first {
		if s := second[id]; s.Visibility != b.Visibility || !s.UpdatedAt.Equal(b.UpdatedAt) {
			t.Errorf("second sweep changed %s: %+v -> %+v", id, b, s)
		}
	}

	// Remove one root file and one whole repository.
	file := h.find(t, "eloybar", "okf-skills")
	gone := h.find(t, "copperbox", "okf-mcp")
	if !h.gh.RemoveFile(file.Owner, file.Name, file.Path) {
		t.Fatal("remove file")
	}
	h.gh.RemoveRepo(gone.Owner, gone.Name)
	h.round(ctx, client)
	third := h.bundles(ctx)
	for _, r := range h.roots {
		if !r.bundle() {
			continue
		}
		removed := r == file || (r.Owner == gone.Owner && r.Name == gone.Name)
		if b := third[r.id()]; removed != (b.Visibility == wire.VisibilityHidden) {
			t.Errorf("after removals %s/%s %s is %s", r.Owner, r.Name, r.Path, b.Visibility)
		}
	}
	if _, err := h.st.GetBundle(ctx, file.id()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removed file's bundle answers: %v", err)
	}
	if b := third[gone.id()]; b.State == nil || *b.State != source.StateGone {
		t.Errorf("removed repository's state: %+v", b)
	}
}

// find returns the first bundle root of a repository in the manifest.
func (h *harness) find(t *testing.T, owner, name string) root {
	for _, r := range h.roots {
		if r.Owner == owner && r.Name == name && r.bundle() {
			return r
		}
	}
	t.Fatalf("no bundle of %s/%s in the manifest", owner, name)
	return root{}
}

// A discovery and an enrichment cut into the shortest slices (one search
// page or one batch per run, then a snooze) end as an uninterrupted sweep
// does: every real root indexed, each batch queued once, every repository
// enriched, no attempt failed.
func TestSweepInSlices(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	h := newHarness(t)
	h.gh.SetCodeSearchRate(10, time.Minute)
	client := h.startWorker(ctx, worker.SweepConfig{Seeds: h.seeds(), Queries: worker.DefaultSweepQueries,
		CodeQueries: worker.DefaultSweepCodeQueries, Slice: time.Nanosecond})
	h.firstRound(ctx)
	h.checkCorpus(ctx, h.bundles(ctx))
	var discoverRuns, batches, distinct int
	if err := h.pool.QueryRow(ctx, `SELECT
		(SELECT coalesce(sum((metadata->>'snoozes')::int), 0) FROM river_job WHERE kind = 'sweep_discover'),
		(SELECT count(*) FROM river_job WHERE kind = 'sweep_repos'),
		(SELECT count(DISTINCT args) FROM river_job WHERE kind = 'sweep_repos')`).Scan(&discoverRuns, &batches, &distinct); err != nil {
		t.Fatal(err)
	}
	if pages := len(worker.DefaultSweepQueries) + len(worker.DefaultSweepCodeQueries); discoverRuns < pages-1 {
		t.Errorf("the discovery snoozed %d times, want one slice per search page (%d at least)", discoverRuns, pages)
	}
	if batches == 0 || batches != distinct {
		t.Errorf("%d sweep batches queued, %d distinct", batches, distinct)
	}

	h.clock.Advance(4 * time.Hour)
	if _, err := client.Insert(ctx, jobs.EnrichReposArgs{}, nil); err != nil {
		t.Fatal(err)
	}
	h.waitIdle(ctx)
	var snoozes, stale, fresh int
	if err := h.pool.QueryRow(ctx, `SELECT
		(SELECT max((metadata->>'snoozes')::int) FROM river_job WHERE kind = 'enrich_repos'),
		(SELECT count(*) FROM sweep_candidates c WHERE NOT gone AND EXISTS (SELECT 1 FROM bundles b WHERE b.repo = c.repo)
		   AND (enriched_at IS NULL OR enriched_at < $1)),
		(SELECT count(*) FROM sweep_candidates WHERE enriched_at >= $1)`, h.clock.Now().Add(-time.Minute)).Scan(&snoozes, &stale, &fresh); err != nil {
		t.Fatal(err)
	}
	if snoozes == 0 || stale != 0 || fresh == 0 {
		t.Errorf("enrichment in slices: %d snoozes, %d repositories left stale, %d enriched", snoozes, stale, fresh)
	}
	t.Logf("discovery in %d slices, %d sweep batches; enrichment of %d repositories in %d slices", discoverRuns+1, batches, fresh, snoozes+1)
}
