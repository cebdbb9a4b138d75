package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Folding q's text query calls into parameters changes no result: over
// the judged set (names, plurals, questions, camelCase, CJK, pasted URLs,
// prefixes, phrases), each sort's page, and the count, are the same with
// the calls left in the statements; and a folded statement makes none of
// them, even for the wide lookup of a word being typed, a phrase or an
// excluded word.
func TestFoldedTermsFindTheSame(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	qs := seedJudged(t, s, 3)
	queries := []string{`"event sourcing" -kafka`, "react-nat", "chrono pin", "大模型", "financas"}
	for _, q := range qs {
		queries = append(queries, q.q)
	}
	type result struct {
		ids     []string
		partial []bool
		count   store.MatchCount
	}
	run := func(p store.SearchParams, fold bool) result {
		t.Helper()
		store.SetFolding(s, fold)
		defer store.SetFolding(s, true)
		page, err := s.Search(ctx, p)
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		var r result
		for _, b := range page {
			r.ids, r.partial = append(r.ids, b.ID), append(r.partial, b.Partial)
		}
		if r.count, err = s.CountMatches(ctx, p); err != nil {
			t.Fatalf("%+v: count: %v", p, err)
		}
		return r
	}
	compared := 0
	for _, q := range queries {
		for _, sort := range []wire.Sort{wire.SortRelevance, wire.SortRecent} {
			p := store.SearchParams{Q: q, Sort: sort, Limit: 10}
			folded, calls := run(p, true), run(p, false)
			if !slices.Equal(folded.ids, calls.ids) || !slices.Equal(folded.partial, calls.partial) || folded.count != calls.count {
				t.Errorf("%q by %s: folded %v %v count %+v, with the calls %v %v count %+v",
					q, sort, folded.ids, folded.partial, folded.count, calls.ids, calls.partial, calls.count)
			}
			if len(calls.ids) > 0 {
				compared++
			}
		}
	}
	if compared < len(queries) {
		t.Errorf("only %d of %d searches found anything: the comparison says little", compared, 2*len(queries))
	}
	for _, q := range []string{"how to build a pipeline", `"event sourcing" -kafka`, "react-native deco", "大模型"} {
		sql, err := store.SearchStatement(ctx, s, store.SearchParams{Q: q, Sort: wire.SortRelevance})
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range []string{"okf_term(", "okf_phrase(", "okf_prefix("} {
			if strings.Contains(sql, fn) {
				t.Errorf("%q: the statement still calls %s", q, fn)
			}
		}
	}
}
