package server

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

var (
	baseStatsKeys = []string{"by_language", "by_origin", "by_version", "last_update", "total"}
	fullStatsKeys = []string{"by_concepts", "by_language", "by_license", "by_origin", "by_type", "by_version", "last_update", "total"}
)

// statsKeys GETs path and returns the sorted keys of its object.
func (a *testAPI) statsKeys(path string) []string {
	a.t.Helper()
	var raw map[string]json.RawMessage
	a.get(path, 200, &raw)
	return slices.Sorted(maps.Keys(raw))
}

func facet(fs []wire.Facet, v string) int64 {
	for _, f := range fs {
		if f.V == v {
			return f.N
		}
	}
	return 0
}

func TestStatsKeysPerVariant(t *testing.T) {
	t.Parallel()
	st := newFixture(t, config.VariantBase).api.store
	recount(t, st)
	base := newAPIOn(t, st, config.VariantBase)
	full := newAPIOn(t, st, config.VariantFull)

	if got := base.statsKeys("/api/stats"); !slices.Equal(got, baseStatsKeys) {
		t.Errorf("base /api/stats keys %v, want %v", got, baseStatsKeys)
	}
	base.getError("/api/okf/stats", 404, apierror.NotFound)
	if got := full.statsKeys("/api/stats"); !slices.Equal(got, fullStatsKeys) {
		t.Errorf("full /api/stats keys %v, want %v", got, fullStatsKeys)
	}
	if got := full.statsKeys("/api/okf/stats"); !slices.Equal(got, fullStatsKeys) {
		t.Errorf("full /api/okf/stats keys %v, want %v", got, fullStatsKeys)
	}
}

func TestStatsValues(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantFull)
	recount(t, a.store)
	var s wire.IndexStats
	a.get("/api/okf/stats", 200, &s)
	if s.Total != 0 || s.ByOrigin["code_host"] != 0 || s.ByOrigin["domain"] != 0 || s.LastUpdate != nil || len(s.ByVersion) != 0 {
		t.Errorf("empty index stats %+v", s)
	}

	f := newFixture(t, config.VariantFull)
	a = f.api
	recount(t, a.store)
	a.get("/api/okf/stats", 200, &s)
	// Live: alpha (0.1, Go, MIT, glossary, 3 concepts), beta (0.2, Python,
	// Apache-2.0, catalog, 10), gamma (domain, 0.2, 0), delta (0.10, Rust, 150).
	if s.Total != 4 || s.ByOrigin["code_host"] != 3 || s.ByOrigin["domain"] != 1 {
		t.Errorf("total %d by_origin %v", s.Total, s.ByOrigin)
	}
	if facet(s.ByVersion, "0.2") != 2 || facet(s.ByVersion, "0.1") != 1 || facet(s.ByVersion, "0.10") != 1 ||
		s.ByVersion[0].V != "0.2" {
		t.Errorf("by_version %v", s.ByVersion)
	}
	if facet(s.ByLanguage, "Go") != 1 || facet(s.ByLanguage, "Python") != 1 || facet(s.ByLanguage, "Rust") != 1 {
		t.Errorf("by_language %v", s.ByLanguage)
	}
	if facet(s.ByType, "glossary") != 1 || facet(s.ByType, "catalog") != 1 {
		t.Errorf("by_type %v", s.ByType)
	}
	if facet(s.ByLicense, "MIT") != 1 || facet(s.ByLicense, "Apache-2.0") != 1 {
		t.Errorf("by_license %v", s.ByLicense)
	}
	wantBands := []wire.Facet{{V: "0", N: 1}, {V: "1-5", N: 1}, {V: "6-20", N: 1}, {V: "21-100", N: 0}, {V: "101+", N: 1}}
	if !slices.Equal(s.ByConcepts, wantBands) {
		t.Errorf("by_concepts %v, want %v", s.ByConcepts, wantBands)
	}
	if s.LastUpdate == nil {
		t.Error("last_update null with live bundles")
	}

	// The base variant's answer is the same numbers, fewer keys.
	var b wire.BaseIndexStats
	newAPIOn(t, a.store, config.VariantBase).get("/api/stats", 200, &b)
	if b.Total != 4 || !maps.Equal(b.ByOrigin, s.ByOrigin) || !slices.Equal(b.ByVersion, s.ByVersion) {
		t.Errorf("base stats %+v differ from full %+v", b, s)
	}

	// A hidden bundle leaves the numbers.
	if err := a.store.HideBundle(t.Context(), f.gamma); err != nil {
		t.Fatal(err)
	}
	recount(t, a.store)
	a.get("/api/stats", 200, &s)
	if s.Total != 3 || s.ByOrigin["domain"] != 0 || facet(s.ByVersion, "0.2") != 1 || facet(s.ByConcepts, "0") != 0 {
		t.Errorf("after hide: %+v", s)
	}
}
