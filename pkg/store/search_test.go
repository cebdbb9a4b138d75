package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

// searchFixture writes a small index and returns the store and the ids by
// short name. Bundles are indexed one minute apart in the order listed.
//
//	name    repo / host        ver  lang    license     type       concepts stars
//	widget  acme/widgets       0.1  Go      MIT         reference  3        50
//	gadget  acme/widgets:docs  0.2  Go      MIT         reference  2        50
//	tools   other/tools        0.2  Python  Apache-2.0  runbook    40       5
//	site    docs.example.com   0.2  -       -           -          0        -
//	zulu    zed/zulu           0.3  Rust    -           glossary   150      900
//	sample  zed/zulu:examples  0.1  (low: example path)
//	copy    copy/widget        0.1  (low: duplicate of widget)
//	gone    gone/repo          0.1  (hidden)
func searchFixture(t *testing.T) (*store.Store, map[string]string) {
	t.Helper()
	s, clk := newStore(t)
	ids := map[string]string{}
	add := func(short string, in store.BundleInput) store.BundleInput {
		mustUpsert(t, s, in)
		ids[short] = in.ID
		clk.Advance(time.Minute)
		return in
	}
	widget := repoBundle("Acme", "Widgets", "index.md")
	widget.Card.Name = "Widget Field Guide"
	widget.Card.Tagline = "Everything about widgets"
	widget.Card.Description = "How widgets are built and tested."
	widget.Card.Concepts = 3
	widget.Repo.Stars = 50
	widget = add("widget", widget)

	gadget := repoBundle("Acme", "Widgets", "docs/index.md")
	gadget.Card.Name = "gadget notes"
	gadget.Card.Tagline = ""
	gadget.Card.Description = "Gadgets pair well with a widget. Rates: 50% off."
	gadget.Card.OKFVersion = "0.2"
	gadget.Repo.Stars = 50
	add("gadget", gadget)

	tools := repoBundle("other", "tools", "index.md")
	tools.Card.Name = "Tools"
	tools.Card.Description = "A toolbox for operators."
	tools.Card.ConceptList = wire.ConceptList{{Name: "Hammer Drill", URL: "https://x/h.md", Summary: "a naïve summary for nails"}}
	tools.Card.OKFVersion, tools.Card.Type, tools.Card.Concepts = "0.2", "runbook", 40
	tools.Repo.Language, tools.Repo.License, tools.Repo.Stars = ptr("Python"), ptr("Apache-2.0"), 5
	add("tools", tools)

	site := siteBundle("https://docs.example.com/kb/index.md")
	site.Card.Name = "Example Knowledge"
	site.Card.Description = "Operators guide to the example platform."
	add("site", site)

	zulu := repoBundle("zed", "zulu", "index.md")
	zulu.Card.Name = "Zulu Glossary"
	zulu.Card.Description = "Terms, with widget mentioned once."
	zulu.Card.OKFVersion, zulu.Card.Type, zulu.Card.Concepts = "0.3", "glossary", 150
	zulu.Repo.Language, zulu.Repo.License, zulu.Repo.Stars = ptr("Rust"), nil, 900
	add("zulu", zulu)

	add("sample", repoBundle("zed", "zulu", "examples/index.md"))
	cp := repoBundle("copy", "widget", "index.md")
	cp.RootSHA256 = widget.RootSHA256
	add("copy", cp)
	gone := add("gone", repoBundle("gone", "repo", "index.md"))
	if _, err := s.HideRepoBundlesExcept(context.Background(), *gone.Source.Repo, nil); err != nil {
		t.Fatal(err)
	}
	// gadget changes last: the most recently updated.
	gadget.Card.Tagline = "now with a tagline"
	mustUpsert(t, s, gadget)
	return s, ids
}

func searchIDs(t *testing.T, s *store.Store, ids map[string]string, p store.SearchParams) []string {
	t.Helper()
	res, err := s.Search(context.Background(), p)
	if err != nil {
		t.Fatalf("Search(%+v): %v", p, err)
	}
	short := map[string]string{}
	for k, v := range ids {
		short[v] = k
	}
	out := []string{}
	for _, b := range res {
		if b.Visibility != wire.VisibilityLive || b.ConceptList == nil {
			t.Errorf("result %s: visibility %q, concept list %v", b.ID, b.Visibility, b.ConceptList)
		}
		out = append(out, short[b.ID])
	}
	return out
}

func TestSearchFiltersAndSorts(t *testing.T) {
	s, ids := searchFixture(t)
	tests := []struct {
		name string
		p    store.SearchParams
		want []string // in order
	}{
		{"all, recent by default", store.SearchParams{}, []string{"zulu", "site", "tools", "gadget", "widget"}},
		{"sort updated", store.SearchParams{Sort: wire.SortUpdated}, []string{"gadget", "zulu", "site", "tools", "widget"}},
		{"sort name", store.SearchParams{Sort: wire.SortName}, []string{"site", "gadget", "tools", "widget", "zulu"}},
		{"sort stars, ties by id, domain last", store.SearchParams{Sort: wire.SortStars}, starsOrder(ids)},
		{"q word", store.SearchParams{Q: "widget"}, []string{"zulu", "gadget", "widget"}},
		{"q is case-insensitive", store.SearchParams{Q: "WIDGET"}, []string{"zulu", "gadget", "widget"}},
		{"q relevance: name before body", store.SearchParams{Q: "widget", Sort: wire.SortRelevance}, []string{"widget", "gadget", "zulu"}}, // gadget's repository is named widgets
		{"q two words", store.SearchParams{Q: "widget terms"}, []string{"zulu"}},
		{"q or", store.SearchParams{Q: "toolbox or glossary", Sort: wire.SortName}, []string{"tools", "zulu"}},
		{"q phrase", store.SearchParams{Q: `"pair well"`}, []string{"gadget"}},
		{"q exclusion", store.SearchParams{Q: "widget -gadgets", Sort: wire.SortRelevance}, []string{"widget", "zulu"}},
		{"q origin identifier", store.SearchParams{Q: "acme/widgets"}, []string{"gadget", "widget"}},
		{"q owner word", store.SearchParams{Q: "acme"}, []string{"gadget", "widget"}},
		{"q host word", store.SearchParams{Q: "example"}, []string{"site"}},
		{"q tagline", store.SearchParams{Q: "everything"}, []string{"widget"}},
		{"q nothing", store.SearchParams{Q: "nonexistentword"}, []string{}},
		{"q punctuation only", store.SearchParams{Q: "!!!"}, []string{}},
		{"origin domain", store.SearchParams{Origin: "domain"}, []string{"site"}},
		{"origin code_host", store.SearchParams{Origin: wire.OriginCodeHost, Sort: wire.SortName}, []string{"gadget", "tools", "widget", "zulu"}},
		{"repo", store.SearchParams{Repo: "acme/widgets"}, []string{"gadget", "widget"}},
		{"versions", store.SearchParams{Versions: []string{"0.1", "0.3"}}, []string{"zulu", "widget"}},
		{"languages, any case", store.SearchParams{Languages: []string{"go", "RUST"}}, []string{"zulu", "gadget", "widget"}},
		{"concept in description, any case", store.SearchParams{Concept: "TOOLBOX"}, []string{"tools"}},
		{"concept word prefix", store.SearchParams{Concept: "toolb"}, []string{"tools"}},
		{"concept in concept summary, non-ASCII", store.SearchParams{Concept: "naïve"}, []string{"tools"}},
		{"concept in concept name", store.SearchParams{Concept: "hamm"}, []string{"tools"}},
		{"concept phrase", store.SearchParams{Concept: "hammer dri"}, []string{"tools"}},
		{"concept phrase out of order", store.SearchParams{Concept: "drill hammer"}, []string{}},
		{"concept phrase in description", store.SearchParams{Concept: "pair well with"}, []string{"gadget"}},
		{"concept ignores punctuation", store.SearchParams{Concept: "50%"}, []string{"gadget"}},
		{"concept with no word", store.SearchParams{Concept: "%_!"}, []string{}},
		{"concept is not the name", store.SearchParams{Concept: "field"}, []string{}},
		{"concept is not the tagline", store.SearchParams{Concept: "everything"}, []string{}},
		{"concept bands", store.SearchParams{ConceptBands: []string{"0", "101+"}}, []string{"zulu", "site"}},
		{"concept band 21-100", store.SearchParams{ConceptBands: []string{"21-100"}}, []string{"tools"}},
		{"types", store.SearchParams{Types: []string{"runbook", "glossary"}}, []string{"zulu", "tools"}},
		{"licenses, any case", store.SearchParams{Licenses: []string{"mit"}}, []string{"gadget", "widget"}},
		{"filters combine", store.SearchParams{Q: "widget", Languages: []string{"go"}, Versions: []string{"0.2"}}, []string{"gadget"}},
		{"limit", store.SearchParams{Limit: 2}, []string{"zulu", "site"}},
		{"offset", store.SearchParams{Limit: 2, Offset: 4}, []string{"widget"}},
		{"offset past the end of the list", store.SearchParams{Offset: store.MaxOffset + 1}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := searchIDs(t, s, ids, tt.p); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	if _, err := s.Search(context.Background(), store.SearchParams{Sort: "popular"}); err == nil {
		t.Error("unknown sort accepted")
	}
	if _, err := s.Search(context.Background(), store.SearchParams{Sort: wire.SortRelevance}); err == nil {
		t.Error("relevance without a text query accepted")
	}
}

// starsOrder is zulu (900), then widget and gadget (50 each, by id), tools
// (5), then the domain bundle, which has no stars.
func starsOrder(ids map[string]string) []string {
	tie := []string{"widget", "gadget"}
	if ids["gadget"] < ids["widget"] {
		tie = []string{"gadget", "widget"}
	}
	return append(append([]string{"zulu"}, tie...), "tools", "site")
}

// TestSearchPagingIsStable pages through every sort with ties in every key,
// over more matches than relevance ranks, and checks that small pages add up
// to the list that large pages give, without repeats.
func TestSearchPagingIsStable(t *testing.T) {
	s, clk := newStore(t)
	const n = 130
	for i := range n {
		in := repoBundle(fmt.Sprintf("owner%02d", i%7), "kb", fmt.Sprintf("d%d/index.md", i))
		in.Card.Name = fmt.Sprintf("Same Name %d", i%3) // name ties
		in.Card.Description = "shared words about paging"
		if i%3 == 0 {
			in.Card.Tagline = "paging guide" // a head match
		}
		if i%5 == 0 {
			in.Card.Description += " paging paging"
		}
		in.Repo.Stars = i % 4 // star ties
		mustUpsert(t, s, in)
		if i%5 == 0 {
			clk.Advance(time.Minute) // time ties within groups of five
		}
	}
	ids := func(p store.SearchParams, limit int) []string {
		var out []string
		for p.Offset, p.Limit = 0, limit; ; p.Offset += limit {
			page, err := s.Search(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				return out
			}
			for _, b := range page {
				out = append(out, b.ID)
			}
		}
	}
	for _, sort := range []wire.Sort{wire.SortRecent, wire.SortUpdated, wire.SortName, wire.SortStars, wire.SortRelevance} {
		for _, q := range []string{"", "paging"} {
			if sort == wire.SortRelevance && q == "" {
				continue // the API orders it as recent
			}
			p := store.SearchParams{Sort: sort, Q: q}
			whole, paged := ids(p, 100), ids(p, 7)
			distinct := slices.Compact(slices.Sorted(slices.Values(paged)))
			if len(whole) != n || !slices.Equal(paged, whole) || len(distinct) != n {
				t.Errorf("sort %s q %q: %d ids in pages of 7 (%d distinct), %d in pages of 100, equal=%v",
					sort, q, len(paged), len(distinct), len(whole), slices.Equal(paged, whole))
			}
		}
	}
}

// Text search folds case beyond ASCII (the cluster's UTF-8 ctype): "ürün"
// finds "Ürün", "ÇAY" finds "çay", in q and in the concept filter.
func TestSearchFoldsNonASCIICase(t *testing.T) {
	s, _ := newStore(t)
	in := repoBundle("bilgi", "wiki", "okf/index.md")
	in.Card.Name = "Ürün Kataloğu"
	in.Card.Description = "Çay ve kahve üzerine notlar"
	mustUpsert(t, s, in)
	for _, p := range []store.SearchParams{
		{Q: "ürün", Limit: 10},
		{Q: "ÇAY", Limit: 10},
		{Concept: "KAHVE", Limit: 10},
	} {
		got, err := s.Search(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].ID != in.ID {
			t.Errorf("Search(%+v) = %d bundles, want the Turkish one", p, len(got))
		}
	}
}

// Limit is clamped to MaxLimit+1: a page plus the one bundle that tells
// whether another page follows.
func TestSearchLimitClamp(t *testing.T) {
	s, _ := newStore(t)
	for i := range store.MaxLimit + 5 {
		mustUpsert(t, s, repoBundle("clamp", "kb", fmt.Sprintf("d%d/index.md", i)))
	}
	for _, tt := range []struct{ limit, want int }{{0, store.DefaultLimit}, {store.MaxLimit, store.MaxLimit}, {5000, store.MaxLimit + 1}} {
		got, err := s.Search(context.Background(), store.SearchParams{Limit: tt.limit})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tt.want {
			t.Errorf("Limit %d: %d bundles, want %d", tt.limit, len(got), tt.want)
		}
	}
}

// A statement stopped by the read timeout is ErrSearchTimeout: the query's
// cost, which the API answers as such, not a failure of the store.
func TestSearchTimeout(t *testing.T) {
	s, err := store.Open(context.Background(), store.Config{URL: storetest.NewDatabase(t), ReadTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	in := repoBundle("many", "guides", "index.md")
	in.Card.Description = "All about the things in the world of the index."
	mustUpsert(t, s, in)
	storetest.CloneBundle(t, s, in.ID, 20000)
	for _, sort := range []wire.Sort{wire.SortRecent, wire.SortRelevance} {
		// Every clone holds "world": checking that none lacks it reads all.
		if _, err := s.Search(context.Background(), store.SearchParams{Q: "the -world", Sort: sort}); !errors.Is(err, store.ErrSearchTimeout) {
			t.Errorf("sort %s: err = %v, want ErrSearchTimeout", sort, err)
		}
	}
}

// A q that asks only for words it excludes is refused before any bundle is
// read; searchtext.ParseQuery's reading of q decides, so phrases, case and
// punctuation count as the search counts them, and a stop word is never
// asked for ("guide the -the" looks for guide).
func TestSearchExcludesItself(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	in := repoBundle("many", "guides", "index.md")
	in.Card.Description = "All about the guide."
	mustUpsert(t, s, in)
	for q, refused := range map[string]bool{
		"the -the": true, "The -THE": true, "guide the -the": false, `"the guide" -guide`: true, "the-guide -guide": true,
		"the -guide": false, "the or x -the": false, `the -"the guide"`: false, "-the": false, "the": false, "a-b": false,
	} {
		_, err := s.Search(context.Background(), store.SearchParams{Q: q})
		if got := errors.Is(err, store.ErrQueryExcludesItself); got != refused || (!refused && err != nil) {
			t.Errorf("q %q: err %v, want refused %v", q, err, refused)
		}
	}
}
