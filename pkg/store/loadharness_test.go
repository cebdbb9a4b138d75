package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
)

// NaiveSearch ranks every live match by ts_rank (a name match above a
// description mention, whatever its age), pages with OFFSET, lists the
// newest without q, and never shows hidden or low bundles.
func TestNaiveSearch(t *testing.T) {
	ctx := context.Background()
	s, clk := newStore(t)
	var ids []string
	for i := range 6 {
		in := repoBundle("owner", fmt.Sprintf("repo%d", i), "index.md")
		if i == 2 {
			in.Card.Name = "Walrus handbook"
		} else if i%2 == 0 {
			in.Card.Description = "Mentions a walrus once."
		}
		if _, err := s.UpsertBundle(ctx, in); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, in.ID)
		clk.Advance(time.Minute)
	}
	if err := s.HideBundle(ctx, ids[4]); err != nil {
		t.Fatal(err)
	}
	if err := s.Analyze(ctx); err != nil {
		t.Fatal(err)
	}
	idsOf := func(q store.NaiveQuery) []string {
		t.Helper()
		got, err := s.NaiveSearch(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, b := range got {
			out = append(out, b.ID)
		}
		return out
	}
	for _, c := range []struct {
		name string
		q    store.NaiveQuery
		want []string
	}{
		{"rank, name first", store.NaiveQuery{Q: "walrus"}, []string{ids[2], ids[0]}},
		{"offset", store.NaiveQuery{Q: "walrus", Offset: 1}, []string{ids[0]}},
		{"limit", store.NaiveQuery{Q: "walrus", Limit: 1}, []string{ids[2]}},
		{"newest", store.NaiveQuery{Limit: 3}, []string{ids[5], ids[3], ids[2]}},
		{"newest, offset", store.NaiveQuery{Limit: 2, Offset: 4}, []string{ids[0]}},
		{"no match", store.NaiveQuery{Q: "narwhal"}, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := idsOf(c.q); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
