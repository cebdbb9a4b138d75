package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// A word most bundles hold is a stop word of the index once the table is
// analysed: "bundle kestrel" finds the kestrel bundle that does not say
// "bundle" as a full match, ahead of bundles that say "bundle" and mention
// kestrels less; a q of common words alone keeps them all, and one common
// word is looked up as it is.
func TestSearchIndexStopWords(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	var batch []store.BundleInput
	for i := range 40 {
		in := repoBundle(fmt.Sprintf("owner%d", i), "kb", "index.md")
		in.Card.Name = fmt.Sprintf("Bundle %d", i)
		in.Card.Tagline = "A knowledge bundle"
		in.Card.Description = "Notes kept as a bundle."
		if i%10 == 0 {
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
	if full != 40 {
		t.Errorf("common words alone: %d bundles hold both, want 40", full)
	}
	if got := search("bundle"); len(got) != 40 {
		t.Errorf("one common word: %d bundles, want 40", len(got))
	}
	n, err := s.CountMatches(ctx, store.SearchParams{Q: "bundle kestrel"})
	if err != nil || n.N != 5 || n.Some {
		t.Errorf("count of bundle kestrel: %+v %v, want the 5 the search lists", n, err)
	}
}

func ids(bs []store.Bundle) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Name
	}
	return out
}
