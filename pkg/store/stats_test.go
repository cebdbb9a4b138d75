package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// facets reads the whole statistics summary, zero counts left out.
func facets(t *testing.T, s *store.Store) map[string]int64 {
	t.Helper()
	rows, err := s.Pool().Query(context.Background(), `SELECT facet, value, n FROM bundle_facets WHERE n <> 0`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var f, v string
		var n int64
		if err := rows.Scan(&f, &v, &n); err != nil {
			t.Fatal(err)
		}
		out[f+"="+v] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// assertStatsMatchRecount checks that the summary the triggers kept equals
// the one RecountStats rebuilds from scratch.
func assertStatsMatchRecount(t *testing.T, s *store.Store) {
	t.Helper()
	kept := facets(t, s)
	if err := s.RecountStats(context.Background()); err != nil {
		t.Fatal(err)
	}
	if recounted := facets(t, s); !reflect.DeepEqual(kept, recounted) {
		t.Errorf("kept statistics differ from a recount:\n kept %v\n recount %v", kept, recounted)
	}
}

func TestStatsEmpty(t *testing.T) {
	s, _ := newStore(t)
	st, err := s.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	zeroBands := []wire.Facet{{V: "0"}, {V: "1-5"}, {V: "6-20"}, {V: "21-100"}, {V: "101+"}}
	want := wire.IndexStats{
		ByOrigin:  map[wire.Origin]int64{"code_host": 0, "domain": 0},
		ByVersion: []wire.Facet{}, ByType: []wire.Facet{}, ByConcepts: zeroBands,
		ByLicense: []wire.Facet{}, ByLanguage: []wire.Facet{},
	}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("empty stats\n got %+v\nwant %+v", st, want)
	}
}

func TestStatsFollowWrites(t *testing.T) {
	s, clk := newStore(t)
	ctx := context.Background()
	mk := func(owner, version, typ, lang, license string, concepts int) store.BundleInput {
		in := repoBundle(owner, "kb", "index.md")
		in.Card.OKFVersion, in.Card.Type, in.Card.Concepts = version, typ, concepts
		in.Repo.Language, in.Repo.License = nil, nil
		if lang != "" {
			in.Repo.Language = ptr(lang)
		}
		if license != "" {
			in.Repo.License = ptr(license)
		}
		return in
	}
	a := mk("a", "0.1", "reference", "Go", "MIT", 0)
	b := mk("b", "0.1", "", "Python", "", 3)
	c := mk("c", "0.2", "guide", "", "Apache-2.0", 150)
	d := siteBundle("https://docs.example.org/index.md") // 0.2, no type, no repo
	e := mk("e", "0.3", "reference", "Go", "MIT", 20)
	low := mk("f", "0.1", "reference", "Go", "MIT", 1)
	low.RootSHA256 = a.RootSHA256 // duplicate of a: low, not counted
	for _, in := range []store.BundleInput{a, b, c, d, e, low} {
		mustUpsert(t, s, in)
		clk.Advance(time.Minute)
	}
	lastUpdate := clk.Now()
	e.Card.Tagline = "changed" // content change moves last_update
	e.Repo.License = ptr("BSD-3-Clause")
	mustUpsert(t, s, e)
	clk.Advance(time.Minute)
	if err := s.DeleteBundle(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.HideRepoBundlesExcept(ctx, "c/kb", nil); err != nil {
		t.Fatal(err)
	}
	// Left live: a, d, e.
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := wire.IndexStats{
		Total:      3,
		ByOrigin:   map[wire.Origin]int64{"code_host": 2, "domain": 1},
		ByVersion:  []wire.Facet{{V: "0.1", N: 1}, {V: "0.2", N: 1}, {V: "0.3", N: 1}},
		ByType:     []wire.Facet{{V: "reference", N: 2}},
		ByConcepts: []wire.Facet{{V: "0", N: 2}, {V: "1-5"}, {V: "6-20", N: 1}, {V: "21-100"}, {V: "101+"}},
		ByLicense:  []wire.Facet{{V: "BSD-3-Clause", N: 1}, {V: "MIT", N: 1}, {V: "unknown", N: 1}},
		ByLanguage: []wire.Facet{{V: "Go", N: 2}},
		LastUpdate: &wire.Timestamp{Time: lastUpdate},
	}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("stats\n got %+v\nwant %+v", st, want)
	}
	if base := st.Base(); base.Total != 3 || len(base.ByVersion) != 3 {
		t.Errorf("base stats %+v", base)
	}
	assertStatsMatchRecount(t, s)
}

func TestStatsFacetListsAreCapped(t *testing.T) {
	s, _ := newStore(t)
	// Versions v00..v14, where vNN has NN%3+1 bundles.
	for i := range 15 {
		for k := range i%3 + 1 {
			in := repoBundle(fmt.Sprintf("o%d", i), fmt.Sprintf("r%d", k), "index.md")
			in.Card.OKFVersion = fmt.Sprintf("v%02d", i)
			in.Card.ConceptList = wire.ConceptList{}
			mustUpsert(t, s, in)
		}
	}
	st, err := s.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []wire.Facet{
		{V: "v02", N: 3}, {V: "v05", N: 3}, {V: "v08", N: 3}, {V: "v11", N: 3}, {V: "v14", N: 3},
		{V: "v01", N: 2}, {V: "v04", N: 2}, {V: "v07", N: 2}, {V: "v10", N: 2}, {V: "v13", N: 2},
		{V: "v00", N: 1}, {V: "v03", N: 1},
	}
	if !reflect.DeepEqual(st.ByVersion, want) {
		t.Errorf("by_version %v, want %v", st.ByVersion, want)
	}
}

func TestRecountStatsRepairsDrift(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	mustUpsert(t, s, repoBundle("a", "kb", "index.md"))
	if _, err := s.Pool().Exec(ctx, `UPDATE bundle_facets SET n = n + 5 WHERE facet = 'total';
		INSERT INTO bundle_facets VALUES ('version', 'stale', 0)`); err != nil {
		t.Fatal(err)
	}
	if err := s.RecountStats(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Total != 1 {
		t.Errorf("total after recount = %d", st.Total)
	}
	var zeros int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM bundle_facets WHERE n = 0`).Scan(&zeros); err != nil || zeros != 0 {
		t.Errorf("zero rows after recount: %d, %v", zeros, err)
	}
}
