package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// Candidates are recorded once per repository, gather their discoverers,
// come due until swept, and a gone repository is not due until found again.
func TestSweepCandidates(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

	n, err := st.AddCandidates(ctx, store.DiscoveredBySeed, []store.CandidateRef{{"Acme", "Kb"}, {"acme", "kb"}, {"o", "r"}})
	if err != nil || n != 2 {
		t.Fatalf("add seeds: %d %v", n, err)
	}
	n, err = st.AddCandidates(ctx, store.DiscoveredByCodeSearch, []store.CandidateRef{{"acme", "KB"}, {"x", "y"}})
	if err != nil || n != 1 {
		t.Fatalf("add code hits: %d %v", n, err)
	}
	got, err := st.GetCandidates(ctx, []string{"acme/kb"})
	if err != nil {
		t.Fatal(err)
	}
	if c := got["acme/kb"]; c.Owner != "Acme" || !slices.Equal(c.DiscoveredBy, []string{"seed", "code_search"}) {
		t.Fatalf("acme/kb: %+v", c)
	}

	due, err := st.DueCandidates(ctx, t0, 10)
	if err != nil || len(due) != 3 {
		t.Fatalf("due: %v %v", due, err)
	}
	if err := st.MarkSwept(ctx, store.CandidateRef{Owner: "Acme", Name: "kb"}, "abc", t0); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkGone(ctx, "O/R", t0); err != nil {
		t.Fatal(err)
	}
	due, err = st.DueCandidates(ctx, t0, 10)
	if err != nil || len(due) != 1 || due[0].Repo != "x/y" {
		t.Fatalf("due after sweep: %+v %v", due, err)
	}
	due, err = st.DueCandidates(ctx, t0.Add(time.Hour), 10)
	if err != nil || len(due) != 2 || due[0].Repo != "x/y" || due[1].SweptOID != "abc" {
		t.Fatalf("due an hour later: %+v %v", due, err)
	}
	// Found again, a gone repository is due again.
	if _, err := st.AddCandidates(ctx, store.DiscoveredBySeed, []store.CandidateRef{{"o", "r"}}); err != nil {
		t.Fatal(err)
	}
	got, _ = st.GetCandidates(ctx, []string{"o/r"})
	if got["o/r"].Gone {
		t.Fatalf("o/r still gone: %+v", got["o/r"])
	}
}

// Window progress round-trips, and an unknown window reads as zero.
func TestSweepWindows(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	w, err := st.Window(ctx, store.DiscoveredByRepoSearch, "okf created:2025-01-01..2025-12-31")
	if err != nil || w.Cursor != "" || w.DoneAt != nil || w.Query == "" {
		t.Fatalf("unknown window: %+v %v", w, err)
	}
	done := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	w.Cursor, w.Found, w.Round, w.DoneAt = "Y3Vyc29y", 120, "r1", &done
	if err := st.SaveWindow(ctx, w); err != nil {
		t.Fatal(err)
	}
	w.Found = 130
	if err := st.SaveWindow(ctx, w); err != nil {
		t.Fatal(err)
	}
	got, err := st.Window(ctx, w.Discoverer, w.Query)
	if err != nil || got.Cursor != w.Cursor || got.Found != 130 || got.Round != "r1" || !got.DoneAt.Equal(done) {
		t.Fatalf("window: %+v %v", got, err)
	}
}

// EnrichDue lists repositories with bundles that neither a sweep nor an
// enrichment read since before, in repo order after a key.
func TestEnrichDue(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	refs := []store.CandidateRef{{"a", "one"}, {"b", "two"}, {"c", "three"}}
	if _, err := st.AddCandidates(ctx, store.DiscoveredBySeed, refs); err != nil {
		t.Fatal(err)
	}
	for _, r := range refs[:2] {
		in, err := indexer.FromRepo([]byte("---\nokf_version: \"0.2\"\n---\n# "+r.Name+"\n"),
			source.Repo{Owner: r.Owner, Name: r.Name, Path: "index.md"}, indexer.RepoInfo{}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.UpsertBundle(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	due, err := st.EnrichDue(ctx, t0, "", 10)
	if err != nil || len(due) != 2 || due[0].Repo != "a/one" || due[1].Repo != "b/two" {
		t.Fatalf("due: %+v %v", due, err)
	}
	if due, err = st.EnrichDue(ctx, t0, "a/one", 10); err != nil || len(due) != 1 {
		t.Fatalf("due after a/one: %+v %v", due, err)
	}
	if err := st.MarkEnriched(ctx, []string{"a/one"}, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkSwept(ctx, refs[1], "oid", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if due, err = st.EnrichDue(ctx, t0.Add(time.Minute), "", 10); err != nil || len(due) != 0 {
		t.Fatalf("due after refresh: %+v %v", due, err)
	}
	if due, err = st.EnrichDue(ctx, t0.Add(2*time.Hour), "", 10); err != nil || len(due) != 2 {
		t.Fatalf("due two hours later: %+v %v", due, err)
	}
}
