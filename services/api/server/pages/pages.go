// Package pages serves the web pages for people: search (/ and
// /results), a bundle (/b/{id}), statistics (/stats), an owner's and a
// repository's bundles (/o/{owner}, /r/{owner}/{repo}), the documentation
// (/docs), the credit page of the full variant (/credit), and the pages'
// assets and OpenSearch description. Package web renders them; this package
// reads what they show from the same functions the API routes answer with
// (package search, repostatus, discovery's documents), never through HTTP
// to the service itself, and sends them with the pages' security headers,
// a weak ETag and gzip.
package pages

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/repostatus"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
	"github.com/okfindex/okf-index/services/api/server/search"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// Store is what the pages read beyond the search routes' answers.
type Store interface {
	SearchFacets(ctx context.Context, p store.SearchParams) (store.MatchCount, store.SearchFacets, error)
	CountMatches(ctx context.Context, p store.SearchParams) (store.MatchCount, error)
	GetBundle(ctx context.Context, id string) (store.Bundle, error)
	BundleLinks(ctx context.Context, id string) (store.LinkCounts, bool, error)
	OwnerBundles(ctx context.Context, owner string) (list []store.Bundle, more bool, err error)
	RepoBundles(ctx context.Context, repo string) (list []store.Bundle, more bool, err error)
}

// Docs are the documentation bundle's files (package discovery).
type Docs interface {
	OKFDoc(name string) (string, bool)
	OKFDocNames() []string
}

// Credit is what the credit page shows of the full variant's billing.
type Credit struct {
	PackagesUSD []int64     // the packages on sale
	Selling     func() bool // whether a pay-to address is configured
}

// Deps are what the pages need.
type Deps struct {
	Store      Store
	Search     *search.Service     // the search page's results and the statistics
	RepoStatus *repostatus.Service // what the sweep made of a repository
	Docs       Docs
	Site       *web.Site
	BaseURL    string    // PUBLIC_BASE_URL without a trailing slash
	Full       bool      // the full variant: its filters, facets and pages
	Started    time.Time // the Last-Modified of opensearch.xml
	Credit     Credit    // full variant
}

// Service answers the pages.
type Service struct{ d Deps }

// New builds the pages of d.
func New(d Deps) *Service { return &Service{d: d} }

// Routes are the rows of the pages of both variants but the credit page
// and the assets (CreditRoutes, AssetRoutes), which the table places after
// the account pages.
func (s *Service) Routes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/", Summary: "Web page: search",
			Handler: s.getSearchPage, Usage: route.CountedAsPage, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/results", Summary: "Web page: the results part of a search, alone",
			Handler: s.getResultsFragment, Usage: route.NotCounted, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/b/{id}", Summary: "Web page: one bundle",
			Handler: s.getBundlePage, Usage: route.CountedAsPage, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/stats", Summary: "Web page: statistics",
			Handler: s.getStatsPage, Usage: route.CountedAsPage, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/o/{owner}", Summary: "Web page: every bundle of a GitHub owner",
			Handler: s.getOwnerPage, Usage: route.CountedAsPage, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/r/{owner}/{repo}", Summary: "Web page: every bundle of a repository, and what the sweep made of it",
			Handler: s.getRepoPage, Usage: route.CountedAsPage, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/docs", Summary: "Web page: the documentation, rendered",
			Handler: s.getDocsPage, Usage: route.CountedAsPage},
		{Method: http.MethodGet, Path: "/docs/{name}", Summary: "Web page: one file of the documentation, rendered",
			Handler: s.getDocsPage, Usage: route.CountedAsPage},
	}
}

// CreditRoutes are the row of the credit page (full variant).
func (s *Service) CreditRoutes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/credit", Summary: "Web page: prepaid credit, its balance and how to buy it (full variant)", Full: true,
			Handler: s.getCreditPage, Usage: route.CountedAsPage},
	}
}

// AssetRoutes are the rows of the OpenSearch description and the pages'
// assets.
func (s *Service) AssetRoutes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/opensearch.xml", Summary: "OpenSearch description",
			Handler: s.getOpenSearch, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/assets/{name}", Summary: "Web page assets (style sheet, script, icon)",
			Handler: s.getAsset, Usage: route.NotCounted},
	}
}

// getOpenSearch answers GET /opensearch.xml.
func (s *Service) getOpenSearch(c echo.Context) error {
	return respond.Conditional(c, MIMEOpenSearch, s.d.Site.OpenSearch(s.d.BaseURL), s.d.Started, respond.CacheDocument)
}

// getAsset answers GET /assets/{name}: the style sheet, the script and the
// icon of the pages.
func (s *Service) getAsset(c echo.Context) error {
	a, ok := s.d.Site.Asset(c.Param("name"))
	if !ok {
		return apierror.New(apierror.NotFound, "The pages' assets are app.css, app.js, full.js and icon.svg.")
	}
	return writeAsset(c, a)
}

// MIMEOpenSearch is the type of /opensearch.xml.
const MIMEOpenSearch = "application/opensearchdescription+xml"

// CSP is the Content-Security-Policy of every page: scripts, styles,
// pictures and requests from this origin only, no inline script or style,
// no eval, no framing, forms to this origin.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// SetHeaders sets the security headers of a page.
func SetHeaders(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "DENY")
}

// Write renders a page and sends it with the security headers, a weak
// ETag of its bytes (a matching If-None-Match is a 304; pages revalidate on
// every use, Cache-Control no-cache) and gzip when the client takes it.
func Write(c echo.Context, status int, render func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return err
	}
	h := c.Response().Header()
	SetHeaders(h)
	return respond.Compressible(c, status, respond.MIMEHTML, buf.Bytes(), "no-cache")
}

// writeAsset sends an embedded asset: cached for good when the request
// names its current version (?v=hash, as the pages do), else revalidated.
func writeAsset(c echo.Context, a web.Asset) error {
	cache := "no-cache"
	if c.QueryParam("v") == a.Hash {
		cache = "public, max-age=31536000, immutable"
	}
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return respond.Compressible(c, http.StatusOK, a.Type, a.Body, cache)
}
