package search

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

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
		got, err := ParseSearch(c.query, true)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseSearch(%q) = %+v, %v\nwant %+v", c.query, got, err, c.want)
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

// assertRoundTrip checks ParseSearch(CanonicalQuery(p)) == p.
func assertRoundTrip(t *testing.T, what string, p store.SearchParams) {
	t.Helper()
	if reflect.DeepEqual(p, baseSearch()) {
		t.Fatalf("%s: the sample is the default search, so the check proves nothing", what)
	}
	enc := CanonicalQuery(p)
	got, err := ParseSearch(enc, true)
	if err != nil {
		t.Fatalf("%s: canonical query %q does not parse: %v", what, enc, err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("%s: canonical query %q parses as\n%+v\nwant\n%+v", what, enc, got, p)
	}
}

func TestCanonicalQueryRoundTrip(t *testing.T) {
	t.Parallel()
	queries := []string{
		"",
		"q=caf%C3%A9+%22exact+phrase%22+-not&sort=relevance",
		"origin=domain&repo=A/B&version=0.1,0.2&language=Go,C%2B%2B&limit=7&offset=14",
		"concept=a%26b&concepts=0,101%2B&type=x,y&license=MIT&sort=updated",
	}
	for _, q := range queries {
		p, err := ParseSearch(q, true)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		enc := CanonicalQuery(p)
		p2, err := ParseSearch(enc, true)
		if err != nil {
			t.Fatalf("%q re-parsed: %v", enc, err)
		}
		if CanonicalQuery(p2) != enc {
			t.Errorf("%q: canonical %q re-encodes as %q", q, enc, CanonicalQuery(p2))
		}
		if _, err := url.ParseQuery(enc); err != nil || strings.Contains(enc, " ") {
			t.Errorf("%q: canonical %q is not a clean query", q, enc)
		}
	}
}
