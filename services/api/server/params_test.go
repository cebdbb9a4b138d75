package server

import (
	"reflect"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

func TestBadParameters(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return strings.Repeat("x", n) }
	cases := []struct {
		query string
		name  string // error name
		field string
		base  bool // case applies to the base variant
		full  bool // case applies to the full variant
	}{
		{"limit=0", errInvalidParameter, "limit", true, true},
		{"limit=-1", errInvalidParameter, "limit", true, true},
		{"limit=abc", errInvalidParameter, "limit", true, true},
		{"limit=1.5", errInvalidParameter, "limit", true, true},
		{"limit=%2B5", errInvalidParameter, "limit", true, true},
		{"limit=10&limit=20", errInvalidParameter, "limit", true, true},
		{"offset=-1", errInvalidParameter, "offset", true, true},
		{"offset=abc", errInvalidParameter, "offset", true, true},
		{"offset=1e3", errInvalidParameter, "offset", true, true},
		{"sort=popular", errInvalidParameter, "sort", true, true},
		{"cursor=notacursor", errInvalidParameter, "cursor", true, true},
		{"cursor=eyJzIjoibmFtZSIsImkiOiJ4In0&sort=stars", errInvalidParameter, "cursor", true, true}, // a name cursor
		{"cursor=" + long(601), errInvalidParameter, "cursor", true, true},
		{"sort=NAME", errInvalidParameter, "sort", true, true},
		{"origin=gitlab", errInvalidParameter, "origin", true, true},
		{"repo=justaname", errInvalidParameter, "repo", true, true},
		{"repo=a/b/c", errInvalidParameter, "repo", true, true},
		{"repo=-bad/name", errInvalidParameter, "repo", true, true},
		{"repo=" + long(40) + "/x", errInvalidParameter, "repo", true, true},
		{"version=0.1,0.2,0.3,0.4,0.5,0.6", errInvalidParameter, "version", true, true},
		{"version=0.1,0.2,0.3&version=0.4,0.5,0.6", errInvalidParameter, "version", true, true},
		{"version=0.1,,0.2", errInvalidParameter, "version", true, true},
		{"version=0.1,%20", errInvalidParameter, "version", true, true},
		{"version=" + long(21), errInvalidParameter, "version", true, true},
		{"language=a,b,c,d,e,f", errInvalidParameter, "language", true, true},
		{"language=" + long(41), errInvalidParameter, "language", true, true},
		{"q=" + long(201), errInvalidParameter, "q", true, true},
		{"q=a&q=b", errInvalidParameter, "q", true, true},
		{"q=%FF%FE", errInvalidParameter, "q", true, true},
		{"q=a%00b", errInvalidParameter, "q", true, true},
		{"q=%zz", errInvalidParameter, "", true, true},
		{"concept=" + long(81), errInvalidParameter, "concept", false, true},
		{"concepts=7-9", errInvalidParameter, "concepts", false, true},
		{"concepts=0,1-5,6-20,21-100,101%2B,0", errInvalidParameter, "concepts", false, true},
		{"type=a,b,c,d,e,f", errInvalidParameter, "type", false, true},
		{"type=" + long(41), errInvalidParameter, "type", false, true},
		{"license=" + long(41), errInvalidParameter, "license", false, true},
		{"license=a,b,c,d,e,f", errInvalidParameter, "license", false, true},
		{"concept=x", errUnsupportedParameter, "concept", true, false},
		{"concepts=0", errUnsupportedParameter, "concepts", true, false},
		{"type=glossary", errUnsupportedParameter, "type", true, false},
		{"license=MIT", errUnsupportedParameter, "license", true, false},
	}
	for _, variant := range []string{config.VariantBase, config.VariantFull} {
		t.Run(variant, func(t *testing.T) {
			a := newAPI(t, variant)
			for _, c := range cases {
				if (variant == config.VariantBase && !c.base) || (variant == config.VariantFull && !c.full) {
					continue
				}
				e := a.getError("/api/bundles?"+c.query, 400, c.name)
				if e.Field != c.field {
					t.Errorf("?%.60s: field %q, want %q", c.query, e.Field, c.field)
				}
				if !strings.HasSuffix(e.Message, ".") || strings.Count(e.Message, ". ") > 0 {
					t.Errorf("?%.60s: message %q is not one sentence", c.query, e.Message)
				}
			}
			// At the limits, values are accepted.
			for _, q := range []string{
				"q=" + long(200), "version=" + long(20) + ",a,b,c,d", "language=" + long(40),
				"limit=1", "limit=100", "limit=101", "offset=0", "offset=1000", "repo=" + long(39) + "/" + long(100),
				"concept=", "type=", "license=", "concepts=", // empty is absent, in both variants
			} {
				a.get("/api/bundles?"+q, 200, nil)
			}
			if variant == config.VariantFull {
				for _, q := range []string{"concept=" + long(80), "type=" + long(40) + ",b,c,d,e", "license=" + long(40),
					"concepts=0,1-5,6-20,21-100,101%2B"} {
					a.get("/api/bundles?"+q, 200, nil)
				}
			}
		})
	}
}

// TestParseSearchOwnsTheRules checks that parseSearch hands the store its
// values in the form store.SearchParams documents: trimmed, lowercased where
// the store compares as stored, aliases resolved and defaults applied. The
// store does none of this again.
func TestParseSearchOwnsTheRules(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		query string
		want  store.SearchParams
	}{
		{"", store.SearchParams{Sort: wire.SortRecent, Limit: defaultLimit}},
		{"q=%20%20&concept=%20", store.SearchParams{Sort: wire.SortRecent, Limit: defaultLimit}},
		{"sort=relevance", store.SearchParams{Sort: wire.SortRecent, Limit: defaultLimit}},
		{"q=%20guide%20&sort=relevance", store.SearchParams{Q: "guide", Sort: wire.SortRelevance, Limit: defaultLimit}},
		{"origin=github&repo=Alpha/One&concept=%20event%20sour%20&limit=500&offset=5000",
			store.SearchParams{Origin: wire.OriginCodeHost, Repo: "alpha/one", Concept: "event sour",
				Sort: wire.SortRecent, Limit: maxLimit, Offset: resultCap}},
		{"origin=domain&language=Go,%20rust,Go&license=%20MIT&type=glossary&concepts=0,101%2B&version=0.1",
			store.SearchParams{Origin: wire.OriginDomain, Languages: []string{"Go", "rust"}, Licenses: []string{"MIT"},
				Types: []string{"glossary"}, ConceptBands: []string{"0", "101+"}, Versions: []string{"0.1"},
				Sort: wire.SortRecent, Limit: defaultLimit}},
	} {
		got, err := parseSearch(c.query, true)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseSearch(%q) = %+v, %v\nwant %+v", c.query, got, err, c.want)
		}
	}
}
