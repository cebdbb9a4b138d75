package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// The web pages for people: server-rendered by package web from
// the same functions the API routes answer with (s.search, s.bundle,
// s.stats), never through HTTP to the service itself. How they are sent
// (security headers, ETag, gzip) is at the end of this file.

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

// facets returns every facet of the index for the page's filters and
// charts; a base deployment fills only its own.
func (s *Server) facets(ctx context.Context) (wire.IndexStats, error) {
	st, err := s.stats(ctx)
	if err != nil {
		return wire.IndexStats{}, err
	}
	switch st := st.(type) {
	case wire.IndexStats:
		return st, nil
	case wire.BaseIndexStats:
		return wire.IndexStats{Total: st.Total, ByOrigin: st.ByOrigin, ByVersion: st.ByVersion,
			ByLanguage: st.ByLanguage, LastUpdate: st.LastUpdate}, nil
	}
	return wire.IndexStats{}, errors.New("server: statistics of an unknown shape")
}

// landingSize is how many bundles each list of the landing page shows.
const landingSize = 5

// searchView runs the search of a page's query, its count and, for the
// whole page (withFacets), the filters' counts for the query and, on the
// bare first page, the landing lists. A query the API refuses is a page
// that says why, with status 400.
func (s *Server) searchView(c echo.Context, withFacets bool) (web.SearchView, int, error) {
	ctx := c.Request().Context()
	status := http.StatusOK
	apiQuery, form, selected, err := pageQuery(c.Request().URL.RawQuery)
	in := web.SearchInput{Q: strings.TrimSpace(form.Get("q")), Origin: form.Get("origin"), Sort: form.Get("sort"),
		Selected: selected, Full: s.full, Form: form}
	var p store.SearchParams
	if err == nil {
		p, err = parseSearch(apiQuery, s.full)
	}
	if err == nil {
		in.Page, err = s.searchParsed(ctx, p)
	}
	var index wire.IndexStats
	if err == nil && (withFacets || bare(p)) {
		index, err = s.facets(ctx)
	}
	var count store.MatchCount
	var facets store.SearchFacets
	if err == nil {
		switch {
		case bare(p):
			count = store.MatchCount{N: index.Total, Exact: true}
		case withFacets:
			count, facets, err = s.store.SearchFacets(ctx, p)
		default:
			count, err = s.store.CountMatches(ctx, p)
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
			if in.Index, err = s.facets(ctx); err != nil {
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
func (s *Server) landingLists(ctx context.Context) ([]web.BundleList, error) {
	var out []web.BundleList
	for _, l := range []struct {
		id, title string
		sort      wire.Sort
	}{{"list-recent", "Recently added", wire.SortRecent}, {"list-updated", "Recently updated", wire.SortUpdated},
		{"list-stars", "Most starred", wire.SortStars}} {
		page, err := s.searchParsed(ctx, store.SearchParams{Sort: l.sort, Limit: landingSize})
		if err != nil {
			return nil, err
		}
		if len(page.Items) > 0 {
			out = append(out, web.LandingList(l.id, l.title, "/?sort="+string(l.sort), page.Items))
		}
	}
	return out, nil
}

// getSearchPage answers GET /: the search page, with the filters of
// contract 4.1 and the results of the query.
func (s *Server) getSearchPage(c echo.Context) error {
	v, status, err := s.searchView(c, true)
	if err != nil {
		return err
	}
	return s.writePage(c, status, func(w io.Writer) error { return s.web.Render(w, "search", v) })
}

// getResultsFragment answers GET /results: the results part of the search
// page alone, which the page's script swaps in as the visitor types.
func (s *Server) getResultsFragment(c echo.Context) error {
	v, status, err := s.searchView(c, false)
	if err != nil {
		return err
	}
	return s.writePage(c, status, func(w io.Writer) error { return s.web.RenderResults(w, v.Results) })
}

// getBundlePage answers GET /b/{id}: one bundle's page, live or low, as
// its card answers; a missing bundle is a 404 page.
func (s *Server) getBundlePage(c echo.Context) error {
	ctx := c.Request().Context()
	if !idShape.MatchString(c.Param("id")) {
		return apierror.New(apierror.NotFound, "No public bundle has that id.")
	}
	b, err := s.store.GetBundle(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	card := s.publish(b)
	v := web.NewBundleView(card, s.full, s.baseURL)
	v.Low = b.Visibility == wire.VisibilityLow
	if b.Imported {
		v.SetImported()
	}
	v.Canonical = s.baseURL + "/b/" + card.ID
	if card.Source.Repo != nil {
		links, ok, err := s.store.BundleLinks(ctx, card.ID)
		if err != nil {
			return err
		}
		if ok {
			v.SetLinks(links.Total, links.Missing)
		}
	}
	return s.writePage(c, http.StatusOK, func(w io.Writer) error { return s.web.Render(w, "bundle", v) })
}

// getStatsPage answers GET /stats: the statistics drawn as charts.
func (s *Server) getStatsPage(c echo.Context) error {
	st, err := s.facets(c.Request().Context())
	if err != nil {
		return err
	}
	v := web.NewStatsView(st, s.full)
	return s.writePage(c, http.StatusOK, func(w io.Writer) error { return s.web.Render(w, "stats", v) })
}

// getOpenSearch answers GET /opensearch.xml.
func (s *Server) getOpenSearch(c echo.Context) error {
	return respond.Conditional(c, mimeOpenSearch, s.web.OpenSearch(s.baseURL), s.started, respond.CacheDocument)
}

// getAsset answers GET /assets/{name}: the style sheet, the script and the
// icon of the pages.
func (s *Server) getAsset(c echo.Context) error {
	a, ok := s.web.Asset(c.Param("name"))
	if !ok {
		return apierror.New(apierror.NotFound, "The pages' assets are app.css, app.js, full.js and icon.svg.")
	}
	return s.writeAsset(c, a)
}

// mimeOpenSearch is the type of /opensearch.xml.
const mimeOpenSearch = "application/opensearchdescription+xml"

// pageCSP is the Content-Security-Policy of every page: scripts, styles,
// pictures and requests from this origin only, no inline script or style,
// no eval, no framing, forms to this origin.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// setPageHeaders sets the security headers of a page.
func setPageHeaders(h http.Header) {
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "DENY")
}

// writePage renders a page and sends it with the security headers, a weak
// ETag of its bytes (a matching If-None-Match is a 304; pages revalidate on
// every use, Cache-Control no-cache) and gzip when the client takes it.
func (s *Server) writePage(c echo.Context, status int, render func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return err
	}
	h := c.Response().Header()
	setPageHeaders(h)
	return respond.Compressible(c, status, respond.MIMEHTML, buf.Bytes(), "no-cache")
}

// writeAsset sends an embedded asset: cached for good when the request
// names its current version (?v=hash, as the pages do), else revalidated.
func (s *Server) writeAsset(c echo.Context, a web.Asset) error {
	cache := "no-cache"
	if c.QueryParam("v") == a.Hash {
		cache = "public, max-age=31536000, immutable"
	}
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return respond.Compressible(c, http.StatusOK, a.Type, a.Body, cache)
}
