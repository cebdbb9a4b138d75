package server

import (
	"reflect"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
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
		{"limit=0", apierror.InvalidParameter, "limit", true, true},
		{"limit=-1", apierror.InvalidParameter, "limit", true, true},
		{"limit=abc", apierror.InvalidParameter, "limit", true, true},
		{"limit=1.5", apierror.InvalidParameter, "limit", true, true},
		{"limit=%2B5", apierror.InvalidParameter, "limit", true, true},
		{"limit=10&limit=20", apierror.InvalidParameter, "limit", true, true},
		{"offset=-1", apierror.InvalidParameter, "offset", true, true},
		{"offset=abc", apierror.InvalidParameter, "offset", true, true},
		{"offset=1e3", apierror.InvalidParameter, "offset", true, true},
		{"sort=popular", apierror.InvalidParameter, "sort", true, true},
		{"cursor=notacursor", apierror.InvalidParameter, "cursor", true, true},
		{"cursor=eyJzIjoibmFtZSIsImkiOiJ4In0&sort=stars", apierror.InvalidParameter, "cursor", true, true}, // a name cursor
		{"cursor=" + long(601), apierror.InvalidParameter, "cursor", true, true},
		{"sort=NAME", apierror.InvalidParameter, "sort", true, true},
		{"origin=gitlab", apierror.InvalidParameter, "origin", true, true},
		{"repo=justaname", apierror.InvalidParameter, "repo", true, true},
		{"repo=a/b/c", apierror.InvalidParameter, "repo", true, true},
		{"repo=-bad/name", apierror.InvalidParameter, "repo", true, true},
		{"repo=" + long(40) + "/x", apierror.InvalidParameter, "repo", true, true},
		{"version=0.1,0.2,0.3,0.4,0.5,0.6", apierror.InvalidParameter, "version", true, true},
		{"version=0.1,0.2,0.3&version=0.4,0.5,0.6", apierror.InvalidParameter, "version", true, true},
		{"version=0.1,,0.2", apierror.InvalidParameter, "version", true, true},
		{"version=0.1,%20", apierror.InvalidParameter, "version", true, true},
		{"version=" + long(21), apierror.InvalidParameter, "version", true, true},
		{"language=a,b,c,d,e,f", apierror.InvalidParameter, "language", true, true},
		{"language=" + long(41), apierror.InvalidParameter, "language", true, true},
		{"q=" + long(201), apierror.InvalidParameter, "q", true, true},
		{"q=a&q=b", apierror.InvalidParameter, "q", true, true},
		{"q=%FF%FE", apierror.InvalidParameter, "q", true, true},
		{"q=a%00b", apierror.InvalidParameter, "q", true, true},
		{"q=%zz", apierror.InvalidParameter, "", true, true},
		{"concept=" + long(81), apierror.InvalidParameter, "concept", false, true},
		{"concepts=7-9", apierror.InvalidParameter, "concepts", false, true},
		{"concepts=0,1-5,6-20,21-100,101%2B,0", apierror.InvalidParameter, "concepts", false, true},
		{"type=a,b,c,d,e,f", apierror.InvalidParameter, "type", false, true},
		{"type=" + long(41), apierror.InvalidParameter, "type", false, true},
		{"license=" + long(41), apierror.InvalidParameter, "license", false, true},
		{"license=a,b,c,d,e,f", apierror.InvalidParameter, "license", false, true},
		{"concept=x", apierror.UnsupportedParameter, "concept", true, false},
		{"concepts=0", apierror.UnsupportedParameter, "concepts", true, false},
		{"type=glossary", apierror.UnsupportedParameter, "type", true, false},
		{"license=MIT", apierror.UnsupportedParameter, "license", true, false},
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

// TestCanonicalQueryKeepsEveryParameter guards the page cache's key: the
// canonical query is both the next link and the key of a cached search, so
// a field of store.SearchParams that parseSearch reads but canonicalQuery
// leaves out would make two different searches share one cached answer.
// The fields are filled by reflection, so a field added later is covered
// without editing this test: a plain string gets a word, a list two words,
// a number a value inside its limits. Fields whose values come from a fixed
// set take them from sampleSearchValues.
func TestCanonicalQueryKeepsEveryParameter(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[store.SearchParams]()
	all := baseSearch()
	for i := range typ.NumField() {
		f := typ.Field(i)
		// Each field alone, beside the defaults, and then all together.
		one := baseSearch()
		setSample(t, reflect.ValueOf(&one).Elem(), f)
		setSample(t, reflect.ValueOf(&all).Elem(), f)
		assertRoundTrip(t, f.Name, one)
	}
	assertRoundTrip(t, "every field", all)
}

// baseSearch is a search with its defaults, the form parseSearch gives an
// empty query.
func baseSearch() store.SearchParams {
	return store.SearchParams{Sort: wire.SortRecent, Limit: defaultLimit}
}

// sampleSearchValues are valid non-default values of the fields that
// parseSearch checks against a fixed set or a shape; a field not named here
// gets a value made from its type.
var sampleSearchValues = map[string]any{
	"Origin":       wire.OriginDomain,
	"Repo":         "owner/repo.name",
	"ConceptBands": []string{"0", "101+"},
	"Sort":         wire.SortName,
	"Limit":        7,
	"Offset":       14,
	// A name cursor ({"s":"name","i":"x"}); After needs the matching sort.
	"After": "eyJzIjoibmFtZSIsImkiOiJ4In0",
}

// setSample gives the field f of the struct v a valid value that is not its
// default.
func setSample(t *testing.T, v reflect.Value, f reflect.StructField) {
	t.Helper()
	fv := v.FieldByIndex(f.Index)
	if s, ok := sampleSearchValues[f.Name]; ok {
		fv.Set(reflect.ValueOf(s))
		if f.Name == "After" {
			v.FieldByName("Sort").Set(reflect.ValueOf(wire.SortName))
		}
		return
	}
	word := strings.ToLower(f.Name) + " é,x/y"
	switch fv.Kind() {
	case reflect.String:
		fv.SetString(word)
	case reflect.Slice:
		if fv.Type().Elem().Kind() != reflect.String {
			t.Fatalf("SearchParams.%s: no sample for a list of %s; add one to sampleSearchValues", f.Name, fv.Type().Elem())
		}
		fv.Set(reflect.ValueOf([]string{strings.ToLower(f.Name), "second value"}))
	case reflect.Int:
		fv.SetInt(3)
	default:
		t.Fatalf("SearchParams.%s: no sample for kind %s; add one to sampleSearchValues", f.Name, fv.Kind())
	}
}

// assertRoundTrip checks parseSearch(canonicalQuery(p)) == p.
func assertRoundTrip(t *testing.T, what string, p store.SearchParams) {
	t.Helper()
	if reflect.DeepEqual(p, baseSearch()) {
		t.Fatalf("%s: the sample is the default search, so the check proves nothing", what)
	}
	enc := canonicalQuery(p)
	got, err := parseSearch(enc, true)
	if err != nil {
		t.Fatalf("%s: canonical query %q does not parse: %v", what, enc, err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("%s: canonical query %q parses as\n%+v\nwant\n%+v", what, enc, got, p)
	}
}
