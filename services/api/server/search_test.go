package server

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// fixture is a small index with one bundle per kind, for exact assertions.
type fixture struct {
	api                    *testAPI
	alpha, beta, gamma     string // live: repository, repository, domain
	delta                  string // live repository bundle, mixed-case repo name
	low, hidden            string // an example bundle (low) and a gone one (hidden)
	alphaIn, betaIn, delIn store.BundleInput
}

// newFixture seeds, in this order of arrival: alpha, beta, gamma, delta,
// low, hidden.
func newFixture(t *testing.T, variant string) *fixture {
	t.Helper()
	a := newAPI(t, variant)
	alpha := repoBundle("alpha", "one", "okf/index.md", wire.Card{
		Name: "Alpha Guide", Tagline: "Operating clusters", OKFVersion: "0.1", Type: "glossary",
		Description: "A guide to kubernetes operators and their lifecycle.",
		Concepts:    3,
		ConceptList: wire.ConceptList{
			{Name: "Operator", URL: "https://raw.githubusercontent.com/alpha/one/HEAD/okf/operator.md", Summary: "what an operator does"},
			{Name: "Reconciler", URL: "https://raw.githubusercontent.com/alpha/one/HEAD/okf/reconciler.md", Summary: "the loop that converges state"},
			{Name: "CRD", URL: "https://raw.githubusercontent.com/alpha/one/HEAD/okf/crd.md"},
		},
	}, signal(50, "Go", "MIT"))
	beta := repoBundle("beta", "two", "index.md", wire.Card{
		Name: "Beta Catalog", OKFVersion: "0.2", Type: "catalog",
		Description: "Regional recipes, sorted by season.",
		Concepts:    10, ConceptList: concepts("https://raw.githubusercontent.com/beta/two/HEAD", 10),
	}, signal(5, "Python", "Apache-2.0"))
	gamma := siteBundle("https://docs.gamma.example/okf/index.md", wire.Card{
		Name: "Gamma Docs", OKFVersion: "0.2", Description: "Site documentation for gamma widgets.",
	})
	delta := repoBundle("Delta", "Three", "docs/index.md", wire.Card{
		Name: "Delta Handbook", OKFVersion: "0.10", Description: "A very large handbook.",
		Concepts: 150, ConceptList: concepts("https://raw.githubusercontent.com/Delta/Three/HEAD/docs", 150),
	}, signal(500, "Rust", ""))
	low := repoBundle("alpha", "one", "examples/demo/index.md", wire.Card{
		Name: "Demo", OKFVersion: "0.1", Description: "An example bundle about kubernetes.",
	}, signal(50, "Go", "MIT"))
	hidden := repoBundle("zeta", "gone", "index.md", wire.Card{
		Name: "Zeta", OKFVersion: "0.1", Description: "A repository that went away; kubernetes.",
	}, signal(1, "Go", "MIT"))
	ids := upsert(t, a.store, alpha, beta, gamma, delta, low, hidden)
	if _, err := a.store.HideRepoBundlesExcept(t.Context(), "zeta/gone", nil); err != nil {
		t.Fatal(err)
	}
	return &fixture{api: a, alpha: ids[0], beta: ids[1], gamma: ids[2], delta: ids[3], low: ids[4], hidden: ids[5],
		alphaIn: alpha, betaIn: beta, delIn: delta}
}

// search GETs /api/bundles?query and returns the page.
func (a *testAPI) search(query string) wire.Page {
	a.t.Helper()
	var p wire.Page
	a.get("/api/bundles?"+query, 200, &p)
	return p
}

func pageIDs(p wire.Page) []string {
	ids := make([]string, len(p.Items))
	for i, b := range p.Items {
		ids[i] = b.ID
	}
	return ids
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestSearchFilters(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{config.VariantBase, config.VariantFull} {
		t.Run(variant, func(t *testing.T) {
			f := newFixture(t, variant)
			live := []string{f.alpha, f.beta, f.gamma, f.delta}
			cases := []struct {
				query string
				want  []string
				full  bool
			}{
				{"", live, false},
				{"q=kubernetes", []string{f.alpha}, false}, // not the low nor the hidden one
				{"q=recipes", []string{f.beta}, false},
				{"q=handbook", []string{f.delta}, false},
				{"q=%20%20", live, false}, // blank q is no q
				{"q=nothingmatchesthis", nil, false},
				{"origin=domain", []string{f.gamma}, false},
				{"origin=code_host", []string{f.alpha, f.beta, f.delta}, false},
				{"origin=github", []string{f.alpha, f.beta, f.delta}, false},
				{"repo=alpha/one", []string{f.alpha}, false},
				{"repo=DELTA/three", []string{f.delta}, false},
				{"repo=nobody/nothing", nil, false},
				{"version=0.2", []string{f.beta, f.gamma}, false},
				{"version=0.1,0.10", []string{f.alpha, f.delta}, false},
				{"version=0.1&version=0.2", []string{f.alpha, f.beta, f.gamma}, false},
				{"version=0.1,%200.2%20", []string{f.alpha, f.beta, f.gamma}, false},
				{"version=9.9", nil, false},
				{"language=go", []string{f.alpha}, false},
				{"language=Python,RUST", []string{f.beta, f.delta}, false},
				{"origin=code_host&version=0.2", []string{f.beta}, false},
				{"version=&language=&origin=&q=", live, false}, // empty is absent
				{"unknown=1&_=123", live, false},               // unknown parameters are ignored
				{"concept=reconciler", []string{f.alpha}, true},
				{"concept=converges", []string{f.alpha}, true},
				{"concepts=0", []string{f.gamma}, true},
				{"concepts=1-5", []string{f.alpha}, true},
				{"concepts=6-20", []string{f.beta}, true},
				{"concepts=21-100", nil, true},
				{"concepts=101%2B", []string{f.delta}, true},
				{"concepts=0,101%2B", []string{f.gamma, f.delta}, true},
				{"type=glossary", []string{f.alpha}, true},
				{"type=glossary,catalog", []string{f.alpha, f.beta}, true},
				{"license=mit", []string{f.alpha}, true},
				{"license=Apache-2.0,MIT", []string{f.alpha, f.beta}, true},
				{"license=mit&version=0.2", nil, true},
			}
			for _, c := range cases {
				if c.full && variant != config.VariantFull {
					continue
				}
				p := f.api.search(c.query)
				if got := pageIDs(p); !sameSet(got, c.want) {
					t.Errorf("?%s: got %v, want %v", c.query, got, c.want)
				}
			}
		})
	}
}

func TestSearchSorts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, config.VariantBase)
	a := f.api
	check := func(query string, want ...string) {
		t.Helper()
		if got := pageIDs(a.search(query)); !slices.Equal(got, want) {
			t.Errorf("?%s: got %v, want %v", query, got, want)
		}
	}
	// Arrival order: alpha, beta, gamma, delta; newest first.
	check("", f.delta, f.gamma, f.beta, f.alpha)
	check("sort=recent", f.delta, f.gamma, f.beta, f.alpha)
	check("sort=name", f.alpha, f.beta, f.delta, f.gamma)
	check("sort=stars", f.delta, f.alpha, f.beta, f.gamma) // the domain bundle has no stars
	check("sort=relevance", f.delta, f.gamma, f.beta, f.alpha)

	// A content change of beta moves its updated_at, not its arrival.
	changed := f.betaIn
	changed.Card.Description = "Regional recipes, sorted by season, now with desserts."
	upsert(t, a.store, changed)
	check("sort=updated", f.beta, f.delta, f.gamma, f.alpha)
	check("sort=recent", f.delta, f.gamma, f.beta, f.alpha)

	// Relevance: the name match (weight A) outranks the description match (C).
	sun := repoBundle("sun", "ny", "index.md", wire.Card{Name: "Widgets", OKFVersion: "0.1",
		Description: "Nothing else."}, signal(0, "", ""))
	upsert(t, a.store, sun)
	check("q=widgets&sort=relevance", sun.ID, f.gamma)
}

func TestSearchPageShape(t *testing.T) {
	t.Parallel()
	f := newFixture(t, config.VariantFull)
	a := f.api
	p := a.search("")
	if p.Limit != 24 || p.Offset != 0 || p.NextOffset != nil || p.Next != nil {
		t.Errorf("default page: limit %d offset %d next_offset %v next %v", p.Limit, p.Offset, p.NextOffset, p.Next)
	}
	if p = a.search("limit=500"); p.Limit != 100 {
		t.Errorf("limit=500 applied as %d, want 100", p.Limit)
	}
	if p = a.search("limit=99999999999999999999999"); p.Limit != 100 {
		t.Errorf("huge limit applied as %d, want 100", p.Limit)
	}
	p = a.search("limit=2&sort=name")
	if got := pageIDs(p); !slices.Equal(got, []string{f.alpha, f.beta}) {
		t.Fatalf("first page %v", got)
	}
	if p.NextOffset == nil || *p.NextOffset != 2 || p.Next == nil {
		t.Fatalf("next_offset %v next %v", p.NextOffset, p.Next)
	}
	// next carries the cursor of the last bundle beside the offset.
	if want := publicBase + "/api/bundles?sort=name&limit=2&offset=2&cursor="; !strings.HasPrefix(*p.Next, want) || len(*p.Next) == len(want) {
		t.Errorf("next = %s, want %s and a cursor", *p.Next, want)
	}
	for _, b := range p.Items {
		if b.API != publicBase+"/api/bundles/"+b.ID {
			t.Errorf("api = %s", b.API)
		}
	}
	// Every filter at once.
	p = a.search("license=MIT,%20apache-2.0&origin=github&repo=Alpha/One&version=0.1,0.1&concepts=1-5&q=%20guide&type=glossary&language=go&concept=operator")
	if got := pageIDs(p); !slices.Equal(got, []string{f.alpha}) || p.Next != nil {
		t.Errorf("all filters: %v next %v", got, p.Next)
	}
	// The next link keeps every filter, normalised, in one canonical form,
	// and following it gives the rest.
	p = a.search("origin=github&limit=1&sort=stars&version=0.1,0.10&unknown=x")
	want := publicBase + "/api/bundles?origin=code_host&version=0.1,0.10&sort=stars&limit=1&offset=1&cursor="
	if got := pageIDs(p); !slices.Equal(got, []string{f.delta}) || p.Next == nil || !strings.HasPrefix(*p.Next, want) {
		t.Fatalf("got %v next %v, want next %s", got, p.Next, want)
	}
	var p2 wire.Page
	a.get(*p.Next, 200, &p2)
	if got := pageIDs(p2); !slices.Equal(got, []string{f.alpha}) || p2.Next != nil || p2.NextOffset != nil || p2.Offset != 1 {
		t.Errorf("second page %v next %v offset %d", got, p2.Next, p2.Offset)
	}
	// HEAD answers like GET, without a body.
	resp, body := a.do("HEAD", "/api/bundles?limit=1", nil)
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("HEAD: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// A search that runs past the read timeout is the query's cost, not the
// service's fault: GET /api/bundles answers 422 query_too_costly, the request
// log says so at info level with no error, and the search_bundles tool
// answers the same error body. The index is 20,000 bundles holding "the",
// and "world", so "the -world" checks every one of them; the read timeout
// is 1 ms.
func TestSearchTooCostly(t *testing.T) {
	t.Parallel()
	st, err := store.Open(t.Context(), store.Config{URL: storetest.NewDatabase(t), ReadTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	in := repoBundle("many", "guides", "index.md", wire.Card{Name: "The guide", OKFVersion: "0.2",
		Description: "All about the things in the world of the index."}, signal(1, "Go", ""))
	upsert(t, st, in)
	storetest.CloneBundle(t, st, in.ID, 20000)
	a := newAPIOn(t, st, config.VariantBase)

	for _, query := range []string{"q=the+-world", "q=the+-world&sort=relevance"} {
		if e := a.getError("/api/bundles?"+query, http.StatusUnprocessableEntity, apierror.QueryTooCostly); e.Field != "" {
			t.Errorf("?%s: field %q, want none", query, e.Field)
		}
	}
	checkToolCall(t, a, mcpSession(t, a), nil, toolCase{tool: "search_bundles", args: map[string]any{"q": "the -world"},
		rest: "/api/bundles?q=the+-world", bad: true, wantError: apierror.QueryTooCostly})

	// A word both asked for and excluded is refused before anything is read.
	if e := a.getError("/api/bundles?q=the+-the", http.StatusBadRequest, apierror.QueryExcludesItself); e.Field != "q" {
		t.Errorf("the -the: field %q, want q", e.Field)
	}

	logs := a.logs.String()
	if strings.Contains(logs, `"level":"ERROR"`) || !strings.Contains(logs, `"status":422`) {
		t.Errorf("a costly query must be logged as a 422 at info, not as the service's failure:\n%s", logs)
	}
}
