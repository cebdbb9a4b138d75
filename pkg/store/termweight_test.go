package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

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

// The shares a search weighs q's words by are the live bundles': a word
// that example bundles (low, kept out of search) hold, common among every
// row the planner's statistics sample, is rare among the live ones, and a
// search for it reads its few matches through the text index (fewMatches)
// instead of walking a sort index for matches that are not there.
func TestLexemeSharesAreLiveBundles(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	var batch []store.BundleInput
	for i := range 700 { // example bundles: low by their path
		in := repoBundle(fmt.Sprintf("owner%d", i), "kb", fmt.Sprintf("examples/demo%d/index.md", i))
		in.Card.Description = "A gazetteer of example places."
		batch = append(batch, in)
	}
	for i := range 600 {
		in := repoBundle(fmt.Sprintf("keeper%d", i), "lights", "index.md")
		in.Card.Description = "Notes on lighthouses."
		if i < 4 {
			in.Card.Description += " Also a gazetteer."
		}
		batch = append(batch, in)
	}
	upsertBatches(t, s, batch, nil)
	if err := s.Analyze(ctx); err != nil {
		t.Fatal(err)
	}
	// The planner's statistics, read first: every row.
	if share, live := store.LexemeShare(ctx, s, "gazett"); live || share < 0.5 {
		t.Errorf("first read: share %.3f (live %v), want the statistics' share of every row, above 0.5", share, live)
	}
	if store.FewMatches(ctx, s, "gazetteer") {
		t.Error("few matches by the planner's statistics, want the decision left to the planner until the shares are sampled")
	}
	if err := store.SampleShares(ctx, s); err != nil {
		t.Fatal(err)
	}
	share, live := store.LexemeShare(ctx, s, "gazett")
	if !live || share < 0.005 || share > 0.01 {
		t.Errorf("sampled: share %.4f (live %v), want 4 of 600 live bundles, ~0.0067", share, live)
	}
	if share, _ := store.LexemeShare(ctx, s, "lighthous"); share != 1 {
		t.Errorf("sampled: lighthouses in %.3f of the live bundles, want 1", share)
	}
	if !store.FewMatches(ctx, s, "gazetteer") {
		t.Error("sampled: gazetteer's matches are not few")
	}
	// "gazetteer lighthouse": gazetteer is no stop word of the live index
	// (every row's statistics held it in more than half of them).
	got, err := s.Search(ctx, store.SearchParams{Q: "gazetteer lighthouses", Sort: wire.SortRelevance, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	full := 0
	for _, b := range got {
		if !b.Partial {
			full++
		}
	}
	if full != 4 {
		t.Errorf("gazetteer lighthouses: %d full matches, want the 4 live bundles holding both (%v)", full, ids(got))
	}
}

// Relevance's partial tier reads the matches of q's rarest term too: the
// one bundle saying "gazetteer", which holds two of q's four words where
// every other bundle holds one, older than the 1,200 others and without
// stars, is in neither the starred walk (the starWalk most starred) nor
// the newest matches of any term, and no bundle holds three (the newest
// holding all terms but one): without that source it was not listed at
// all; with it, it comes first.
func TestPartialTierReadsTheRarestTerm(t *testing.T) {
	s, clk := newStore(t)
	ctx := context.Background()
	rare := repoBundle("atlas", "names", "index.md")
	rare.Card.Description = "A gazetteer of lighthouses."
	rare.Repo.Stars = 0
	batch := []store.BundleInput{rare}
	words := []string{"lighthouses", "harbours", "beacons"} // a third of the bundles each
	for i := range 1200 {
		in := repoBundle(fmt.Sprintf("keeper%d", i), "lights", "index.md")
		in.Card.Description = "Notes on " + words[i%3] + "."
		in.Repo.Stars = 1 + i
		batch = append(batch, in)
	}
	upsertBatches(t, s, batch, func() { clk.Advance(time.Minute) })
	if err := s.Analyze(ctx); err != nil {
		t.Fatal(err)
	}
	if err := store.SampleShares(ctx, s); err != nil {
		t.Fatal(err)
	}
	got, err := s.Search(ctx, store.SearchParams{Q: "gazetteer lighthouses harbours beacons", Sort: wire.SortRelevance, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[0].ID != rare.ID || !got[0].Partial {
		t.Errorf("got %v, want the gazetteer of lighthouses first, a partial match", ids(got))
	}
}
