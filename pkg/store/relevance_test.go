package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// The exact tier: q equal to a name, owner/repo, repository name or id
// (case, separators and surrounding space aside) comes first, whatever its
// text rank or age.
func TestSearchExactTier(t *testing.T) {
	s, ids := searchFixture(t)
	for q, want := range map[string]string{
		"Widget Field Guide":    "widget", // name
		" widget-field_guide  ": "widget", // normalised name
		"zed/zulu":              "zulu",   // owner/repo
		"ZULU":                  "zulu",   // repository name
		"tools":                 "tools",  // name and repository name
		"Example Knowledge":     "site",   // a domain bundle's name
	} {
		got := searchIDs(t, s, ids, store.SearchParams{Q: q, Sort: wire.SortRelevance})
		if len(got) == 0 || got[0] != want {
			t.Errorf("q %q: %v, want %s first", q, got, want)
		}
	}
	// An id is a key too.
	got, err := s.Search(context.Background(), store.SearchParams{Q: ids["gadget"], Sort: wire.SortRelevance})
	if err != nil || len(got) == 0 || got[0].ID != ids["gadget"] {
		t.Errorf("q = gadget's id: %v %v", err, got)
	}
}

// Of bundles q names by their repository (as many stars each), the one
// whose name holds q comes first, though the others are newer.
func TestSearchExactTierNamedFirst(t *testing.T) {
	s, clk := newStore(t)
	add := func(owner, path, name string) string {
		in := repoBundle(owner, "awesome-okf", path)
		in.Card.Name = name
		mustUpsert(t, s, in)
		clk.Advance(time.Minute)
		return in.ID
	}
	named := add("jidoseal", "bundle/index.md", "Awesome OKF Bundle")
	add("flexloop", "agnes/index.md", "Agnes models")
	add("flexloop", "agent/index.md", "Agent fundamentals")
	got, err := s.Search(context.Background(), store.SearchParams{Q: "awesome okf", Sort: wire.SortRelevance})
	if err != nil || len(got) != 3 || got[0].ID != named {
		t.Errorf("awesome okf: %v %v, want %s first", err, got, named)
	}
}

// Popularity: of two bundles with the same text, the more starred ranks
// first, though it is older.
func TestSearchRelevancePopularity(t *testing.T) {
	s, clk := newStore(t)
	add := func(owner string, stars int) string {
		in := repoBundle(owner, "kb", "index.md")
		in.Card.Name = "Kestrel notes"
		in.Card.Description = "About kestrels."
		in.Repo.Stars = stars
		mustUpsert(t, s, in)
		clk.Advance(time.Minute)
		return in.ID
	}
	popular := add("popular", 5000)
	newer := add("newer", 0)
	got, err := s.Search(context.Background(), store.SearchParams{Q: "kestrel", Sort: wire.SortRelevance})
	if err != nil || len(got) != 2 || got[0].ID != popular || got[1].ID != newer {
		t.Errorf("kestrel: %v %v, want the popular bundle first", err, got)
	}
}

// Following cursors gives the list that offsets give, for every sort, with
// ties in every key and more matches than relevance ranks; a bundle written
// meanwhile (newer than any) neither repeats nor shifts the pages.
func TestSearchCursorPaging(t *testing.T) {
	s, clk := newStore(t)
	const n = 260
	for i := range n {
		in := repoBundle(fmt.Sprintf("owner%02d", i%7), "kb", fmt.Sprintf("d%d/index.md", i))
		in.Card.Name = fmt.Sprintf("Same Name %d", i%3)
		in.Card.Description = "shared words about paging"
		if i%3 == 0 {
			in.Card.Tagline = "paging guide"
		}
		in.Repo.Stars = i % 4
		if i%11 == 0 {
			in.Repo = nil // NULL stars
		}
		mustUpsert(t, s, in)
		if i%5 == 0 {
			clk.Advance(time.Minute)
		}
	}
	clk.Advance(time.Hour)
	ctx := context.Background()
	for _, sort := range []wire.Sort{wire.SortRecent, wire.SortUpdated, wire.SortName, wire.SortStars, wire.SortRelevance} {
		for _, q := range []string{"", "paging"} {
			if sort == wire.SortRelevance && q == "" {
				continue
			}
			p := store.SearchParams{Sort: sort, Q: q, Limit: 100}
			var whole []string
			for p.Offset = 0; ; p.Offset += 100 {
				page, err := s.Search(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				if len(page) == 0 {
					break
				}
				for _, b := range page {
					whole = append(whole, b.ID)
				}
			}
			var walked []string
			p = store.SearchParams{Sort: sort, Q: q, Limit: 9}
			for cursors := 0; ; {
				page, err := s.Search(ctx, p)
				if err != nil {
					t.Fatalf("sort %s q %q offset %d: %v", sort, q, p.Offset, err)
				}
				if len(page) == 0 {
					break
				}
				for _, b := range page {
					walked = append(walked, b.ID)
				}
				last := page[len(page)-1]
				p.Offset += len(page)
				p.After = last.Cursor
				if p.After != "" {
					cursors++
				}
				if len(walked) == 50 { // a newer bundle arrives mid-walk
					extra := repoBundle("late", fmt.Sprintf("kb%s%s", sort, q), "index.md")
					extra.Card.Description = "paging"
					mustUpsert(t, s, extra)
				}
				if len(walked) > 2*n {
					t.Fatalf("sort %s q %q: no end", sort, q)
				}
			}
			if !sameWalk(walked, whole) {
				t.Errorf("sort %s q %q: cursor walk of %d differs from offset list of %d", sort, q, len(walked), len(whole))
			}
			if distinct := slices.Compact(slices.Sorted(slices.Values(walked))); len(distinct) != len(walked) {
				t.Errorf("sort %s q %q: %d ids, %d distinct", sort, q, len(walked), len(distinct))
			}
		}
	}
	if _, err := s.Search(ctx, store.SearchParams{Sort: wire.SortName, After: "bm90IGEgY3Vyc29y"}); err == nil {
		t.Error("a made-up cursor accepted")
	}
}

// sameWalk: walked holds whole in order, plus at most the bundles written
// mid-walk.
func sameWalk(walked, whole []string) bool {
	i := 0
	for _, id := range walked {
		if i < len(whole) && id == whole[i] {
			i++
		}
	}
	return i == len(whole) && len(walked)-len(whole) <= 10
}

// A name more than ExactCap bundles share picks no bundle: it has no exact
// tier, and q ranks as words (a popular tagline match passes the bundles
// named by it). A filter that leaves at most ExactCap of them gives the
// tier back. Every match is still listed, once.
func TestSearchExactTierCap(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	falcon := repoBundle("falconer", "watch", "index.md")
	falcon.Card.Name = "Falcon watch"
	falcon.Card.Tagline = "Where kestrel pairs nest"
	falcon.Card.Description = "Field notes."
	falcon.Repo.Stars = 100000
	falcon.Repo.Language = ptr("Rust")
	mustUpsert(t, s, falcon)
	var named []store.BundleInput
	for i := range store.ExactCap + 1 {
		in := repoBundle(fmt.Sprintf("owner%d", i), "notes", "index.md")
		in.Card.Name = "Kestrel"
		in.Card.Tagline = ""
		in.Card.Description = fmt.Sprintf("Entry %d.", i)
		in.Repo.Stars = 0
		if i == 7 {
			in.Repo.Language = ptr("Rust")
		}
		named = append(named, in)
	}
	if _, err := s.UpsertBundles(ctx, named); err != nil {
		t.Fatal(err)
	}
	search := func(p store.SearchParams) []store.Bundle {
		t.Helper()
		p.Q, p.Sort = "kestrel", wire.SortRelevance
		got, err := s.Search(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := search(store.SearchParams{Limit: 1}); len(got) != 1 || got[0].ID != falcon.ID {
		t.Errorf("over the cap: %v, want the starred tagline match first", got)
	}
	if got := search(store.SearchParams{Languages: []string{"rust"}}); len(got) != 2 || got[0].ID != named[7].ID {
		t.Errorf("filtered under the cap: %v, want the named bundle first", got)
	}
	seen := map[string]bool{}
	p := store.SearchParams{Limit: 100}
	for p.Offset = 0; p.Offset < store.MaxOffset; p.Offset += p.Limit {
		page := search(p)
		for _, b := range page {
			if seen[b.ID] {
				t.Fatalf("offset %d: %s again", p.Offset, b.ID)
			}
			seen[b.ID] = true
		}
		if len(page) < p.Limit {
			break
		}
	}
	if len(seen) != store.ExactCap+2 {
		t.Errorf("listed %d bundles, want %d", len(seen), store.ExactCap+2)
	}
}

// A q that names a bundle is not being typed: its last word is whole, and
// a name it only begins is not among its matches; a q that names none
// still meets names by the start of its last word.
func TestRelevanceNamedQueryIsWhole(t *testing.T) {
	t.Parallel()
	s, clk := newStore(t)
	add := func(owner, name string) string {
		in := repoBundle(owner, "kb", "index.md")
		in.Card.Name, in.Card.Tagline, in.Card.Description = name, "Field notes", "Notes."
		mustUpsert(t, s, in)
		clk.Advance(time.Minute)
		return in.ID
	}
	named := add("one", "Lomi Shine")
	longer := add("two", "Lomi Shinelo Atlas")
	search := func(q string) []string {
		got, err := s.Search(context.Background(), store.SearchParams{Q: q, Sort: wire.SortRelevance})
		if err != nil {
			t.Fatalf("q %q: %v", q, err)
		}
		var ids []string
		for _, b := range got {
			ids = append(ids, b.ID)
		}
		return ids
	}
	if got := search("Lomi Shine"); !slices.Equal(got, []string{named}) {
		t.Errorf("Lomi Shine = %v, want only the bundle it names %s", got, named)
	}
	if got := search("Lomi Shin"); len(got) != 2 || !slices.Contains(got, named) || !slices.Contains(got, longer) {
		t.Errorf("Lomi Shin = %v, want both names it begins", got)
	}
}
