package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// A word most bundles hold is a stop word of the index once the table is
// analysed and holds minIndexBundles: "bundle kestrel" finds the kestrel
// bundle that does not say "bundle" as a full match, ahead of bundles that
// say "bundle" and mention kestrels less; a q of common words alone keeps
// them all, and one common word is looked up as it is.
func TestSearchIndexStopWords(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	var batch []store.BundleInput
	const n = 520 // more than minIndexBundles
	for i := range n {
		in := repoBundle(fmt.Sprintf("owner%d", i), "kb", "index.md")
		in.Card.Name = fmt.Sprintf("Bundle %d", i)
		in.Card.Tagline = "A knowledge bundle"
		in.Card.Description = "Notes kept as a bundle."
		if i%130 == 0 {
			in.Card.Description += " Somewhere it says kestrel."
		}
		batch = append(batch, in)
	}
	kestrel := repoBundle("falconer", "kestrels", "index.md")
	kestrel.Card.Name = "Kestrel field notes"
	kestrel.Card.Tagline = "Where kestrels nest"
	batch = append(batch, kestrel)
	if _, err := s.UpsertBundles(ctx, batch); err != nil {
		t.Fatal(err)
	}
	search := func(q string) []store.Bundle {
		t.Helper()
		got, err := s.Search(ctx, store.SearchParams{Q: q, Sort: wire.SortRelevance, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	// Before ANALYZE there are no statistics: every word is looked up.
	if got := search("bundle kestrel"); len(got) == 0 || got[0].ID == kestrel.ID {
		t.Errorf("unanalysed: %v, want the bundles holding both words first", ids(got))
	}
	// Nor has an analysed index of fewer than minIndexBundles (a fresh
	// database: the same words, one bundle in all).
	small, _ := newStore(t)
	if _, err := small.UpsertBundles(ctx, batch[len(batch)-5:]); err != nil {
		t.Fatal(err)
	}
	if err := small.Analyze(ctx); err != nil {
		t.Fatal(err)
	}
	if got, err := small.Search(ctx, store.SearchParams{Q: "bundle kestrel", Sort: wire.SortRelevance}); err != nil ||
		len(got) != 5 || !got[0].Partial {
		t.Errorf("small index: %v %v, want no bundle holding both words, five holding one", err, ids(got))
	}
	if err := s.Analyze(ctx); err != nil {
		t.Fatal(err)
	}
	got := search("bundle kestrel")
	if len(got) != 5 || got[0].ID != kestrel.ID || got[0].Partial {
		t.Errorf("analysed: %v, want the kestrel bundle first, as a full match, and the four mentions", ids(got))
	}
	full := 0
	for _, b := range search("knowledge bundle") {
		if !b.Partial {
			full++
		}
	}
	if full != 100 {
		t.Errorf("common words alone: %d bundles hold both of the first 100, want 100", full)
	}
	n1, err := s.CountMatches(ctx, store.SearchParams{Q: "bundle"})
	if err != nil || n1.N != n {
		t.Errorf("one common word: %+v %v, want %d bundles", n1, err, n)
	}
	cnt, err := s.CountMatches(ctx, store.SearchParams{Q: "bundle kestrel"})
	if err != nil || cnt.N != 5 || cnt.Some {
		t.Errorf("count of bundle kestrel: %+v %v, want the 5 the search lists", cnt, err)
	}
}

func ids(bs []store.Bundle) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Name
	}
	return out
}
