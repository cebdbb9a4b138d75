package store_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// sortColumns are the sorts' orders as the columns give them, which a
// search's pages must follow.
var sortColumns = map[wire.Sort]string{
	wire.SortRecent:  `indexed_at DESC, id`,
	wire.SortUpdated: `updated_at DESC, id`,
	wire.SortName:    `lower(name) COLLATE "C", id`,
	wire.SortStars:   `repo_stars DESC NULLS LAST, id`,
}

// TestSearchNarrowMatches searches a word every bundle holds with a filter
// a quarter of them pass: the statistics put the matches under narrowCap,
// so the search reads them through the text index's intersection and sorts
// them (sortedMatches). Each sort's pages, by offset and by cursor, must be
// the filtered bundles in the sort's order, as the columns say.
func TestSearchNarrowMatches(t *testing.T) {
	s := manyLighthouses(t)
	ctx := context.Background()
	for sort, order := range sortColumns {
		t.Run(string(sort), func(t *testing.T) {
			p := store.SearchParams{Q: "lighthouse", Languages: []string{"KOTLIN"}, Sort: sort, Limit: 50}
			plan, err := store.ExplainSearch(ctx, s, p)
			if err != nil {
				t.Fatal(err)
			}
			if !readsFacetInIndex(plan, "language=kotlin") {
				t.Fatalf("the search did not read the filter in the text index:\n%s", plan)
			}
			rows, err := s.Pool().Query(ctx, `SELECT id FROM bundles WHERE visibility = 'live'
				AND lower(repo_language) = 'kotlin' ORDER BY `+order+` LIMIT 150`)
			if err != nil {
				t.Fatal(err)
			}
			want, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil || len(want) != 150 {
				t.Fatalf("%d expected ids (%v)", len(want), err)
			}
			var byOffset, byCursor []string
			after := ""
			for page := range 3 {
				p.Offset = page * 50
				list, err := s.Search(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range list {
					byOffset = append(byOffset, b.ID)
				}
				c := p
				c.Offset, c.After = 0, after
				if page == 0 {
					c.After = ""
				}
				list, err = s.Search(ctx, c)
				if err != nil || len(list) == 0 {
					t.Fatalf("page %d by cursor: %d (%v)", page, len(list), err)
				}
				for _, b := range list {
					byCursor = append(byCursor, b.ID)
				}
				after = list[len(list)-1].Cursor
			}
			if !slices.Equal(byOffset, want) {
				t.Errorf("pages by offset differ from the filtered order:\n got %v\nwant %v", byOffset[:10], want[:10])
			}
			if !slices.Equal(byCursor, want) {
				t.Errorf("pages by cursor differ from the filtered order:\n got %v\nwant %v", byCursor[:10], want[:10])
			}
			// Words no bundle holds together: the search lists those holding
			// some of them, read the same way.
			rows, err = s.Pool().Query(ctx, `SELECT id FROM bundles WHERE visibility = 'live'
				AND lower(repo_language) = 'kotlin' AND tagline LIKE '%beacon%' ORDER BY `+order+` LIMIT 50`)
			if err != nil {
				t.Fatal(err)
			}
			want, err = pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil || len(want) != 50 {
				t.Fatalf("%d expected ids (%v)", len(want), err)
			}
			p.Q, p.Offset = "beacon sextant", 0
			list, err := s.Search(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			var some []string
			for _, b := range list {
				some = append(some, b.ID)
				if !b.Partial {
					t.Errorf("%s is not marked partial", b.ID)
				}
			}
			if !slices.Equal(some, want) {
				t.Errorf("the first page of some words differs from the filtered order:\n got %v\nwant %v", some, want)
			}
		})
	}
}

// TestRelevanceNarrowMatches ranks a word every bundle holds with a filter
// a quarter pass: relevance reads each source's matches in the text
// indexes (narrowMatches) and must list what its walks list, page by page,
// by offset past the window and by cursor.
func TestRelevanceNarrowMatches(t *testing.T) {
	s := manyLighthouses(t)
	ctx := context.Background()
	p := store.SearchParams{Q: "lighthouse", Languages: []string{"kotlin"}, Sort: wire.SortRelevance, Limit: 24}
	plan, err := store.ExplainSearch(ctx, s, p)
	if err != nil {
		t.Fatal(err)
	}
	if !readsFacetInIndex(plan, "language=kotlin") {
		t.Fatalf("relevance did not read the filter in the text index:\n%s", plan)
	}
	compare := func(name string, p store.SearchParams) string { return sameAsWalk(t, s, name, p) }
	after := ""
	for _, offset := range []int{0, 24, 48, 96, 120} {
		p.Offset = offset
		after = compare(fmt.Sprintf("offset %d", offset), p)
	}
	p.Offset, p.After = 0, after // the page after the last cursor, the rest tier's
	compare("after a cursor", p)
}

// TestSearchDeepMatches reads a deep page of a word a third of the bundles
// hold: the statistics say the walk of the sort index to it would read
// more rows than the word has matches, so the search reads them through
// the text index and sorts them (sortedMatches). Each sort's deep pages by
// offset must be the matches in the sort's order, as the columns say; the
// first page still walks.
func TestSearchDeepMatches(t *testing.T) {
	s := manyLighthouses(t)
	ctx := context.Background()
	for sort, order := range sortColumns {
		t.Run(string(sort), func(t *testing.T) {
			p := store.SearchParams{Q: "beacon", Sort: sort, Limit: 50, Offset: 900}
			plan, err := store.ExplainSearch(ctx, s, p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(plan, "ctid = ANY") {
				t.Fatalf("a deep page walked the sort index:\n%s", plan)
			}
			first := p
			first.Offset = 0
			if plan, err := store.ExplainSearch(ctx, s, first); err != nil || strings.Contains(plan, "ctid = ANY") {
				t.Fatalf("the first page read every match (%v):\n%s", err, plan)
			}
			rows, err := s.Pool().Query(ctx, `SELECT id FROM bundles WHERE visibility = 'live'
				AND tagline LIKE '%beacon%' ORDER BY `+order+` OFFSET 900 LIMIT 150`)
			if err != nil {
				t.Fatal(err)
			}
			want, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil || len(want) != 150 {
				t.Fatalf("%d expected ids (%v)", len(want), err)
			}
			var got []string
			for page := range 3 {
				p.Offset = 900 + page*50
				list, err := s.Search(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range list {
					got = append(got, b.ID)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("pages at 900, 950, 1000 differ from the order the columns give:\n got %v\nwant %v", got[:min(5, len(got))], want[:5])
			}
		})
	}
}

// TestRelevanceDeepMatches ranks a word a third of the bundles hold at an
// offset past its window: the rest tier's walk of the recency order would
// read more rows than the word has matches, so relevance reads them through
// the text index and sorts them (deepMatches), and must list what its walk
// lists, page by page; its first page still walks.
func TestRelevanceDeepMatches(t *testing.T) {
	s := manyLighthouses(t)
	ctx := context.Background()
	p := store.SearchParams{Q: "beacon", Sort: wire.SortRelevance, Limit: 50, Offset: 900}
	first := p
	first.Offset = 0
	// The read of every match and its sort: a subquery the planner may not
	// flatten (relevance.go's newestSQL).
	const readAll = "OFFSET 0) AS m"
	for _, c := range []struct {
		p    store.SearchParams
		want bool
	}{{p, true}, {first, false}} {
		sql, err := store.SearchStatementAsFound(ctx, s, c.p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(sql, readAll) != c.want {
			t.Fatalf("offset %d: reads every match %v, want %v:\n%s", c.p.Offset, !c.want, c.want, sql)
		}
	}
	for _, offset := range []int{24, 900, 950} {
		p.Offset = offset
		sameAsWalk(t, s, fmt.Sprintf("offset %d", offset), p)
	}
}

// sameAsWalk checks that the page Search returns for p is not empty and
// lists what the statement of p lists when it walks the sort indexes
// (store.SearchIDsWalking), and returns the page's last cursor.
func sameAsWalk(t *testing.T, s *store.Store, name string, p store.SearchParams) (after string) {
	t.Helper()
	ctx := context.Background()
	list, err := s.Search(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	want, err := store.SearchIDsWalking(ctx, s, p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range list {
		got = append(got, b.ID)
		after = cmp.Or(b.Cursor, after)
	}
	if len(got) == 0 || !slices.Equal(got, want) {
		t.Errorf("%s: searched %v\nwalked %v", name, got, want)
	}
	return after
}

// readsFacetInIndex reports whether plan probes an index for the facet
// lexeme (okf_facets' value, which the plan shows inlined) rather than
// testing it on rows only.
func readsFacetInIndex(plan, lexeme string) bool {
	for line := range strings.Lines(plan) {
		if strings.Contains(line, "Index Cond:") && strings.Contains(line, "'"+lexeme+"'") {
			return true
		}
	}
	return false
}

// A q of several terms whose bundles holding every term the live shares put
// at many leaves relevance's partial tier out of its statement, and lists
// what the statement with it lists; one whose words the shares put together
// often but few bundles hold together (an estimate too high) still lists
// the bundles holding some of them after those, the partial tier read in a
// second statement.
func TestRelevanceManyMatches(t *testing.T) {
	s := lighthouseIndex(t, 2000, func(i int) string {
		switch {
		case i%100 == 4:
			return "A beacon by a crane" // 20 hold both words
		case i%5 < 2:
			return "A beacon on the coast" // two fifths
		case i%5 < 4:
			return "A harbour with a crane" // two fifths
		}
		return ""
	})
	ctx := context.Background()
	if err := store.SampleShares(ctx, s); err != nil {
		t.Fatal(err)
	}
	// The partial tier's newest head matches of any term (relevance.go).
	const partialTier = ") AS ph"
	for _, c := range []struct {
		q           string
		withPartial bool // in the statement Search makes first
		partial     bool // the page lists bundles holding some terms
	}{
		{"beacon coast", false, false},
		{"beacon crane", false, true},
		{"coast lighthouse keeper 17", true, false}, // 17: few hold it
	} {
		p := store.SearchParams{Q: c.q, Sort: wire.SortRelevance}
		sql, err := store.SearchStatementAsFound(ctx, s, p)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(sql, partialTier); got != c.withPartial {
			t.Errorf("%q: statement with the partial tier %v, want %v", c.q, got, c.withPartial)
		}
		sameAsWalk(t, s, c.q, p)
		page, err := s.Search(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) != store.DefaultLimit {
			t.Errorf("%q: %d bundles, want %d", c.q, len(page), store.DefaultLimit)
		} else if last := page[len(page)-1]; last.Partial != c.partial {
			t.Errorf("%q: the last bundle partial %v, want %v", c.q, last.Partial, c.partial)
		}
	}
}

// TestRelevanceNarrowHead ranks a word every bundle's description holds and
// one bundle in a hundred names in its tagline, with a filter three in
// four pass: the matches are too many to read whole (narrowMatches), but
// the newest head matches that pass the filter are few, and cheaper read
// through the head's text index with the filter's value than found by a
// walk (narrowHead). Relevance must list what its walks list.
func TestRelevanceNarrowHead(t *testing.T) {
	s, clk := newStore(t)
	ctx := context.Background()
	var ins []store.BundleInput
	for i := range 5000 {
		in := repoBundle("many", fmt.Sprintf("b%04d", i), "index.md")
		in.Name = fmt.Sprintf("Harbour log %d", i)
		in.Description = "Notes on the beacon of the harbour."
		if i%100 == 0 {
			in.Tagline = "The beacon keeper's log"
		}
		in.Repo.Stars = (i * 7919) % 1000
		if i%4 == 0 {
			in.Repo.Language = ptr("Kotlin") // the others are in Go
		}
		ins = append(ins, in)
	}
	upsertBatches(t, s, ins, func() { clk.Advance(time.Minute) })
	if _, err := s.Pool().Exec(ctx, `ANALYZE bundles`); err != nil {
		t.Fatal(err)
	}
	if err := store.SampleShares(ctx, s); err != nil {
		t.Fatal(err)
	}
	p := store.SearchParams{Q: "beacon", Languages: []string{"go"}, Sort: wire.SortRelevance, Limit: 24}
	plan, err := store.ExplainSearch(ctx, s, p)
	if err != nil {
		t.Fatal(err)
	}
	if !readsFacetInIndex(plan, "language=go") {
		t.Fatalf("relevance did not read the head matches with the filter in the text index:\n%s", plan)
	}
	after := ""
	for _, offset := range []int{0, 24, 48} {
		p.Offset = offset
		after = sameAsWalk(t, s, fmt.Sprintf("offset %d", offset), p)
	}
	p.Offset, p.After = 0, after
	sameAsWalk(t, s, "after a cursor", p)
	// A word every name holds leaves h to the walk, which finds its
	// matches at once.
	p = store.SearchParams{Q: "harbour", Languages: []string{"go"}, Sort: wire.SortRelevance, Limit: 24}
	if plan, err = store.ExplainSearch(ctx, s, p); err != nil {
		t.Fatal(err)
	}
	if readsFacetInIndex(plan, "language=go") {
		t.Errorf("relevance read the head matches of a word every name holds in the text index:\n%s", plan)
	}
}
