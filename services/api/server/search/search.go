// Package search serves the index's read routes for programs and their MCP
// tools: search (GET /api/bundles, through the page cache), cards (GET
// /api/bundles/{id}, JSON through the card cache or markdown), statistics
// (GET /api/stats, /api/okf/stats), the change feed (GET /api/changes) and
// its Atom form (GET /feed.atom). It owns the validation of a search's
// query string (ParseSearch) and its one canonical encoding
// (CanonicalQuery), which is both the next link and the page cache's key.
// The web pages (package pages) answer from the same functions.
package search

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/okfindex/okf-index/pkg/pagecache"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// Store is what the read routes read.
type Store interface {
	Search(ctx context.Context, p store.SearchParams) ([]store.Bundle, error)
	Suggest(ctx context.Context, q string, found store.Found) ([]string, error)
	GetBundle(ctx context.Context, id string) (store.Bundle, error)
	Stats(ctx context.Context) (wire.IndexStats, error)
	Changes(ctx context.Context, after store.ChangeCursor, limit int) (store.ChangePage, error)
	RecentChanges(ctx context.Context, n int) ([]store.Change, error)
}

// Deps are what the read routes need.
type Deps struct {
	Store Store
	// Written, when set, says which bundles were written since a point
	// (store.BundlesWritten): the caches' freshness. Without it nothing
	// is cached.
	Written pagecache.CheckFunc
	// PageStaleness is how long a search page written over is still
	// served (config.SearchStaleness).
	PageStaleness time.Duration
	// AdmitRead and AdmitLookup take a slot of the index reads in
	// flight on the read pool (search pages) and on the lookup pool
	// (cards), or fail with 503 unavailable (the server's admission); a
	// cache miss takes one.
	AdmitRead, AdmitLookup func(context.Context) (release func(), err error)

	Title   string           // the service's display name, the feed's author
	BaseURL string           // PUBLIC_BASE_URL without a trailing slash
	Full    bool             // the full variant: its parameters and facets
	Now     func() time.Time // the clock of the feed's Last-Modified
	Started time.Time        // the feed's updated time when it has no entry
	Log     *slog.Logger     // what is served anyway, degraded (did_you_mean)
}

// Service answers the read routes.
type Service struct {
	d      Deps
	caches *answerCaches // nil without Deps.Written
}

// New builds the read routes of d.
func New(d Deps) *Service {
	s := &Service{d: d}
	if d.Written != nil {
		s.caches = newAnswerCaches(d.Written, d.PageStaleness)
	}
	return s
}

// Routes are the read routes' rows of the route table.
func (s *Service) Routes() []route.Route {
	tools := s.tools()
	return []route.Route{
		{Method: http.MethodGet, Path: "/api/bundles", Summary: "Search live bundles",
			Handler: s.searchBundles, Usage: route.CountedAsAPI, ReadsIndex: true, Cached: true, Tool: tools.SearchBundles},
		{Method: http.MethodGet, Path: "/api/bundles/{id}", Summary: "One bundle's card",
			Handler: s.getBundle, Usage: route.CountedAsAPI, ReadsIndex: true, Cached: true, Tool: tools.GetBundle},
		{Method: http.MethodGet, Path: "/api/stats", Summary: "Index statistics",
			Handler: s.getStats, Usage: route.CountedAsAPI, ReadsIndex: true, Tool: tools.IndexStats},
		{Method: http.MethodGet, Path: "/api/okf/stats", Summary: "Index statistics with every facet", Full: true,
			Handler: s.getOKFStats, Usage: route.CountedAsAPI, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/api/changes", Summary: "Changes of the live set, in commit order",
			Handler: s.getChanges, Usage: route.CountedAsAPI, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/feed.atom", Summary: "The newest changes as an Atom feed",
			Handler: s.getFeedAtom, Usage: route.CountedAsDoc, ReadsIndex: true},
	}
}
