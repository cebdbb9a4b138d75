package pages

import (
	"context"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/search"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// The search page and its results fragment.

// pageListParams are the list parameters of the search form: the page sends
// one value per checkbox, the API takes them comma-separated.
var pageListParams = []string{"version", "language", "type", "license", "concepts"}

// pageQuery turns a search page's query into the API's query string: each
// list parameter joined with commas, and relevance as the sort when words
// are typed and no sort is chosen. selected holds the list values as
// chosen.
func pageQuery(raw string) (apiQuery string, form url.Values, selected map[string][]string, err error) {
	form, err = url.ParseQuery(raw)
	if err != nil {
		return "", nil, nil, apierror.Parameter("", "The query string is not valid URL encoding.")
	}
	api := url.Values{}
	for k, vs := range form {
		for _, v := range vs {
			if v != "" {
				api[k] = append(api[k], v)
			}
		}
	}
	selected = map[string][]string{}
	for _, name := range pageListParams {
		var vals []string
		for _, v := range api[name] {
			vals = append(vals, strings.Split(v, ",")...)
		}
		if len(vals) > 0 {
			api[name] = []string{strings.Join(vals, ",")}
			selected[name] = vals
		}
	}
	if strings.TrimSpace(api.Get("q")) != "" && api.Get("sort") == "" {
		api.Set("sort", string(wire.SortRelevance))
	}
	return api.Encode(), form, selected, nil
}

// landingSize is how many bundles each list of the landing page shows.
const landingSize = 5

// searchView runs the search of a page's query, its count and, for the
// whole page (withFacets), the filters' counts for the query and, on the
// bare first page, the landing lists. A query the API refuses is a page
// that says why, with status 400.
func (s *Service) searchView(c echo.Context, withFacets bool) (web.SearchView, int, error) {
	ctx := c.Request().Context()
	status := http.StatusOK
	apiQuery, form, selected, err := pageQuery(c.Request().URL.RawQuery)
	in := web.SearchInput{Q: strings.TrimSpace(form.Get("q")), Origin: form.Get("origin"), Sort: form.Get("sort"),
		Selected: selected, Full: s.d.Full, Form: form}
	var p store.SearchParams
	if err == nil {
		p, err = search.ParseSearch(apiQuery, s.d.Full)
	}
	if err == nil {
		in.Page, err = s.d.Search.Page(ctx, p)
	}
	if err == nil && in.Page.CorrectedQ != nil {
		// The page lists what the corrected q finds: the search box, the
		// count, the filters' counts and the pager are that q's, and the
		// page says what was typed.
		in.Typed, in.Q, p.Q = in.Q, *in.Page.CorrectedQ, *in.Page.CorrectedQ
		in.Form = maps.Clone(form)
		in.Form.Set("q", p.Q)
	}
	var index wire.IndexStats
	if err == nil && (withFacets || bare(p)) {
		index, err = s.d.Search.Facets(ctx)
	}
	var count store.MatchCount
	var facets store.SearchFacets
	if err == nil {
		switch {
		case bare(p):
			count = store.MatchCount{N: index.Total, Exact: true}
		case withFacets:
			count, facets, err = s.d.Store.SearchFacets(ctx, p)
		default:
			count, err = s.d.Store.CountMatches(ctx, p)
		}
	}
	if err != nil {
		// A refusal of the query (a bad parameter, a q that excludes
		// itself) is the page's own 400, in HTML; anything else is the
		// router's error (an error page too).
		code, body, _ := apierror.Response(err)
		if code != http.StatusBadRequest {
			return web.SearchView{}, 0, err
		}
		status, in.Err = code, body.Message
	} else {
		in.Count = web.Count{N: count.N, Exact: count.Exact, Known: true}
	}
	if in.Page.Next != nil {
		if u, err := url.Parse(*in.Page.Next); err == nil {
			in.NextQuery = u.RawQuery
		}
	}
	if withFacets {
		in.Index = index
		if in.Index.ByOrigin == nil { // a refused query: the index's facets were not read
			if in.Index, err = s.d.Search.Facets(ctx); err != nil {
				return web.SearchView{}, 0, err
			}
		}
		if in.Err == "" && !bare(p) {
			f := facets
			in.Facets = &web.FacetCounts{ByOrigin: f.ByOrigin, ByVersion: f.ByVersion, ByLanguage: f.ByLanguage,
				ByType: f.ByType, ByLicense: f.ByLicense, ByConcepts: f.ByConcepts, Estimated: f.Estimated}
		}
		if in.Err == "" && bare(p) && p.Offset == 0 && p.After == "" {
			if in.Lists, err = s.landingLists(ctx); err != nil {
				return web.SearchView{}, 0, err
			}
		}
	}
	return web.NewSearchView(in), status, nil
}

// bare reports whether a search has no words and no filter: the whole
// index, in some order.
func bare(p store.SearchParams) bool {
	return p.Q == "" && p.Origin == "" && p.Repo == "" && len(p.Versions) == 0 && len(p.Languages) == 0 &&
		p.Concept == "" && len(p.ConceptBands) == 0 && len(p.Types) == 0 && len(p.Licenses) == 0
}

// landingLists are the landing page's short lists: the newest bundles, the
// last updated and the most starred.
func (s *Service) landingLists(ctx context.Context) ([]web.BundleList, error) {
	var out []web.BundleList
	for _, l := range []struct {
		id, title string
		sort      wire.Sort
	}{{"list-recent", "Recently added", wire.SortRecent}, {"list-updated", "Recently updated", wire.SortUpdated},
		{"list-stars", "Most starred", wire.SortStars}} {
		page, err := s.d.Search.Page(ctx, store.SearchParams{Sort: l.sort, Limit: landingSize})
		if err != nil {
			return nil, err
		}
		items := page.Items
		if l.sort == wire.SortStars {
			items = starred(items)
		}
		if len(items) > 0 {
			out = append(out, web.LandingList(l.id, l.title, "/?sort="+string(l.sort), items))
		}
	}
	return out, nil
}

// starred is the cards of items whose repository has a star: "Most
// starred" names no bundle that nobody starred (an index of imported or
// domain bundles has none, and the stars sort would list them by name).
func starred(items []wire.Card) []wire.Card {
	var out []wire.Card
	for _, c := range items {
		if c.Repo != nil && c.Repo.Stars > 0 {
			out = append(out, c)
		}
	}
	return out
}

// getSearchPage answers GET /: the search page, with the filters of
// contract 4.1 and the results of the query.
func (s *Service) getSearchPage(c echo.Context) error {
	v, status, err := s.searchView(c, true)
	if err != nil {
		return err
	}
	return Write(c, status, func(w io.Writer) error { return s.d.Site.Render(w, "search", v) })
}

// getResultsFragment answers GET /results: the results part of the search
// page alone, which the page's script swaps in as the visitor types.
func (s *Service) getResultsFragment(c echo.Context) error {
	v, status, err := s.searchView(c, false)
	if err != nil {
		return err
	}
	return Write(c, status, func(w io.Writer) error { return s.d.Site.RenderResults(w, v.Results) })
}
