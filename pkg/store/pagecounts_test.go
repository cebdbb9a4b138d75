package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// TestCountMatchesAndFacets counts a search's matches (exact up to the
// cap, estimated past it, words optional as the search's are) and its
// facets (for the query and its filters, not the whole index's).
func TestCountMatchesAndFacets(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	var ins []store.BundleInput
	for i := range store.CountCap + 10 {
		in := repoBundle("bulk", fmt.Sprintf("r%04d", i), "index.md")
		if i%10 == 0 {
			in.Name = fmt.Sprintf("Kotlin notes %d", i)
			in.Repo.Language = ptr("Kotlin")
			in.OKFVersion = "0.2"
		}
		ins = append(ins, in)
	}
	ins = append(ins, siteBundle("https://docs.example.org/okf/index.md"))
	upsertBatches(t, s, ins, nil)
	if _, err := s.Pool().Exec(ctx, `ANALYZE bundles`); err != nil {
		t.Fatal(err)
	}
	total := int64(store.CountCap + 11)
	tests := []struct {
		name      string
		p         store.SearchParams
		want      int64 // 0 with estimate: more than the cap
		estimated bool
		some      bool
	}{
		{"everything, estimated", store.SearchParams{}, 0, true, false},
		{"a language", store.SearchParams{Languages: []string{"kotlin"}}, 101, false, false},
		{"a word", store.SearchParams{Q: "kotlin"}, 101, false, false},
		{"a word and a filter", store.SearchParams{Q: "kotlin", Origin: wire.OriginDomain}, 0, false, false},
		{"words not found together: some", store.SearchParams{Q: "kotlin served"}, 102, false, true},
		{"a domain", store.SearchParams{Origin: wire.OriginDomain}, 1, false, false},
		{"nothing to look for", store.SearchParams{Q: "the"}, 0, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := s.CountMatches(ctx, tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if tc.estimated {
				if c.Exact || c.N <= store.CountCap {
					t.Errorf("count %+v, want an estimate past %d", c, store.CountCap)
				}
				return
			}
			if !c.Exact || c.N != tc.want || c.Some != tc.some {
				t.Errorf("count %+v, want exactly %d (some %v)", c, tc.want, tc.some)
			}
		})
	}
	if _, err := s.CountMatches(ctx, store.SearchParams{Q: "data -data"}); err != store.ErrQueryExcludesItself {
		t.Errorf("a q that excludes itself: %v", err)
	}

	// Facets of a search: its own counts, and the same count.
	c, f, err := s.SearchFacets(ctx, store.SearchParams{Q: "kotlin"})
	if err != nil {
		t.Fatal(err)
	}
	if c != (store.MatchCount{N: 101, Exact: true}) || f.Estimated || len(f.ByLanguage) != 1 || f.ByLanguage[0] != (wire.Facet{V: "Kotlin", N: 101}) ||
		len(f.ByVersion) != 1 || f.ByVersion[0].N != 101 || f.ByOrigin[wire.OriginCodeHost] != 101 ||
		f.ByConcepts[1] != (wire.Facet{V: "1-5", N: 101}) {
		t.Errorf("facets of q=kotlin: %+v %+v", c, f)
	}
	c, f, err = s.SearchFacets(ctx, store.SearchParams{Q: "kotlin served"})
	if err != nil || c != (store.MatchCount{N: 102, Exact: true, Some: true}) || f.ByOrigin[wire.OriginDomain] != 1 {
		t.Errorf("facets of words not found together: %+v %+v %v", c, f, err)
	}
	// Facets of everything: the sample's shares of the estimate.
	c, f, err = s.SearchFacets(ctx, store.SearchParams{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Exact || c.N <= store.CountCap || !f.Estimated {
		t.Errorf("facets of %d bundles are not estimated: %+v %+v", total, c, f)
	}
	if len(f.ByLanguage) == 0 || f.ByLanguage[0].V != "Go" || f.ByOrigin[wire.OriginCodeHost] <= store.CountCap {
		t.Errorf("languages of everything: %+v", f)
	}
}

// TestOwnerAndRepoBundles lists an owner's and a repository's bundles,
// low ones included, hidden ones not.
func TestOwnerAndRepoBundles(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	a := mustUpsert(t, s, repoBundle("Acme", "Guide", "index.md"))
	mustUpsert(t, s, repoBundle("Acme", "Guide", "docs/index.md"))
	ex := repoBundle("acme", "guide", "examples/demo/index.md") // an example path: low
	mustUpsert(t, s, ex)
	mustUpsert(t, s, repoBundle("acme", "other", "index.md"))
	mustUpsert(t, s, repoBundle("acmex", "guide", "index.md"))
	mustUpsert(t, s, repoBundle("ac", "me", "index.md"))
	if _, err := s.Pool().Exec(ctx, `UPDATE bundles SET visibility = 'hidden' WHERE repo = 'acme/other'`); err != nil {
		t.Fatal(err)
	}
	list, more, err := s.OwnerBundles(ctx, "acme")
	if err != nil || more {
		t.Fatal(err, more)
	}
	var got []string
	for _, b := range list {
		got = append(got, *b.Source.Repo+":"+b.Source.Path+":"+string(b.Visibility))
	}
	want := "[acme/guide:docs/index.md:live acme/guide:examples/demo/index.md:low acme/guide:index.md:live]"
	if fmt.Sprint(got) != want {
		t.Errorf("owner acme: %v, want %s", got, want)
	}
	list, _, err = s.RepoBundles(ctx, "acme/guide")
	if err != nil || len(list) != 3 || list[0].Source.Path != "docs/index.md" {
		t.Errorf("repo acme/guide: %d bundles, %v", len(list), err)
	}
	if list[2].ID != a.ID && list[0].ID != a.ID && list[1].ID != a.ID {
		t.Errorf("repo acme/guide lacks %s", a.ID)
	}
	if list, _, err := s.OwnerBundles(ctx, "nobody"); err != nil || len(list) != 0 {
		t.Errorf("owner nobody: %d, %v", len(list), err)
	}
}

// TestCountFacetFilters counts a text search with every filter on a facet
// value, values a tsquery would misread included: the count reads the
// values' lexemes in the text index (facetquery.go) and must agree with
// the search, which tests the columns.
func TestCountFacetFilters(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	var ins []store.BundleInput
	languages := []string{"Go", `Obj'C\`, "C++", "F# & more | !x"}
	licenses := []string{"MIT", "Apache-2.0", `it's "free"`}
	types := []string{"reference", "guide", "run:book"}
	for i := range 60 {
		in := repoBundle("facet", fmt.Sprintf("r%02d", i), "index.md")
		in.Name = fmt.Sprintf("Weaver notes %d", i)
		in.Repo.Language = ptr(languages[i%len(languages)])
		in.Repo.License = ptr(licenses[i%len(licenses)])
		in.Type = types[i%len(types)]
		in.OKFVersion = []string{"0.1", "0.2", "0.10"}[i%3]
		in.Concepts = i
		ins = append(ins, in)
	}
	ins = append(ins, siteBundle("https://weaver.example.org/okf/index.md"))
	if _, err := s.UpsertBundles(ctx, ins); err != nil {
		t.Fatal(err)
	}
	for _, p := range []store.SearchParams{
		{Q: "weaver", Languages: []string{`obj'c\`}},
		{Q: "weaver", Languages: []string{"c++", "F# & MORE | !X"}},
		{Q: "weaver notes", Licenses: []string{`IT'S "FREE"`}, Types: []string{"run:book", "guide"}},
		{Q: "weaver", Versions: []string{"0.10"}, ConceptBands: []string{"21-100", "101+"}},
		{Q: "weaver", Versions: []string{"0.1"}, Origin: wire.OriginCodeHost, ConceptBands: []string{"0"}},
		{Q: "weaver", Origin: wire.OriginDomain},
		{Q: "weav", Languages: []string{"go"}}, // the word being typed: its head prefix too
		{Q: "weaver unheardof", Languages: []string{"c++"}},
		{Q: "weaver", Concept: "alpha", Licenses: []string{"mit"}},
	} {
		t.Run(fmt.Sprintf("%+v", p), func(t *testing.T) {
			p.Limit = store.MaxLimit
			list, err := s.Search(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) == 0 && p.Q != "weaver unheardof" {
				t.Fatalf("the search finds nothing: a case that cannot tell")
			}
			c, err := s.CountMatches(ctx, p)
			if err != nil || c.N != int64(len(list)) || !c.Exact {
				t.Errorf("count %+v (%v), the search lists %d", c, err, len(list))
			}
			c, f, err := s.SearchFacets(ctx, p)
			if err != nil || c.N != int64(len(list)) || f.ByOrigin[wire.OriginCodeHost]+f.ByOrigin[wire.OriginDomain] != c.N {
				t.Errorf("facets %+v %+v (%v), the search lists %d", c, f, err, len(list))
			}
		})
	}
}

// TestCountManyMatches counts a word that thousands of bundles hold: the
// statistics say there are more than the cap, and the count and facets
// are estimated without reading every match, the facets from a sample of
// the index's buckets that still gives each value its share.
func TestCountManyMatches(t *testing.T) {
	s := manyLighthouses(t)
	ctx := context.Background()
	const n = lighthouses
	// The sample is the matches of the buckets that hold about twice the
	// facets' sample (26 of 64 here), as at a million bundles it is 1 or 2.
	store.SetMaxSampleBuckets(s, 64)
	near := func(got, want int64) bool { return got >= want*7/10 && got <= want*13/10 }
	// (A search for some words takes the same path; its words' shares would
	// need twice these bundles to pass the cap fourfold under the stop-word
	// share.)
	for _, q := range []string{"lighthouse", "lighthouse keeper"} {
		c, err := s.CountMatches(ctx, store.SearchParams{Q: q})
		if err != nil || c.Exact || !near(c.N, n) {
			t.Errorf("count of %q: %+v (%v), want an estimate near %d", q, c, err, n)
		}
		c, f, err := s.SearchFacets(ctx, store.SearchParams{Q: q})
		if err != nil || c.Exact || !f.Estimated || !near(f.ByOrigin[wire.OriginCodeHost], n) {
			t.Fatalf("facets of %q: %+v %+v (%v)", q, c, f, err)
		}
		langs := map[string]int64{}
		for _, l := range f.ByLanguage {
			langs[l.V] = l.N
		}
		if !near(langs["Kotlin"], n/4) || !near(langs["Go"], n*3/4) {
			t.Errorf("languages of %q: %v, want about %d Kotlin and %d Go", q, langs, n/4, n*3/4)
		}
	}
	// A filter: exact again, read through the index's intersection.
	c, err := s.CountMatches(ctx, store.SearchParams{Q: "lighthouse", Languages: []string{"kotlin"}})
	if err != nil || c.N <= store.CountCap || c.Exact {
		t.Errorf("count with a filter: %+v (%v), want an estimate past the cap", c, err)
	}
}

// lighthouses is how many bundles manyLighthouses writes.
const lighthouses = 5000

// manyLighthouses is a store of lighthouses bundles named "Lighthouse
// keeper <i>", a quarter of them in Kotlin (the others in Go), a third
// with "beacon" in their tagline, analysed,
// so that the planner's statistics list their words and values.
func manyLighthouses(t *testing.T) *store.Store {
	return lighthouseIndex(t, lighthouses, func(i int) string {
		if i%3 == 0 {
			return "A beacon on the coast" // a third
		}
		return ""
	})
}

// lighthouseIndex is a store of n bundles named "Lighthouse keeper <i>",
// a quarter of them in Kotlin (the others in Go), the i-th with tagline(i)
// as its tagline when it is not empty, written in batches apart in the
// recency order and analysed.
func lighthouseIndex(t *testing.T, n int, tagline func(i int) string) *store.Store {
	t.Helper()
	s, clk := newStore(t)
	var ins []store.BundleInput
	for i := range n {
		in := repoBundle("many", fmt.Sprintf("r%04d", i), "index.md")
		in.Name = fmt.Sprintf("Lighthouse keeper %d", i)
		in.Repo.Stars = (i * 7919) % 1000
		if i%4 == 0 {
			in.Repo.Language = ptr("Kotlin") // a quarter
		}
		if tl := tagline(i); tl != "" {
			in.Tagline = tl
		}
		ins = append(ins, in)
	}
	upsertBatches(t, s, ins, func() { clk.Advance(time.Minute) }) // batches apart in the recency order
	if _, err := s.Pool().Exec(context.Background(), `ANALYZE bundles`); err != nil {
		t.Fatal(err)
	}
	return s
}
