package server

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// Route is one row of the route table (package route).
type Route = route.Route

// routeTable lists every route of both variants: the one table, joined
// from the rows of each capability package in the order GET /api/ and
// tools/list show them, and the rows of the routes this package still
// serves. Every GET also answers HEAD, and OPTIONS (CORS preflight) is
// answered by the cors middleware.
//
// Adding a route is a row in its capability package's Routes (or here),
// with Usage (required), and Full, LogPathOnly, Session, IgnoresAPIKey,
// ReadsIndex, Cached and Tool when they apply; its handler; and its
// operation in api/openapi.json. The tools of the routes here are defined
// in newMCPToolSet (mcptools.go).
func (s *Server) routeTable() []Route {
	tools := s.newMCPToolSet()
	return slices.Concat(s.discovery.IndexRoutes(), []Route{
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
	}, s.ping.Routes(), s.repoStatus.Routes(), []Route{
		{Method: http.MethodPost, Path: "/api/visit", Summary: "Count a page visit",
			Handler: s.postVisit, Usage: route.NotCounted, LogPathOnly: true},
	}, s.metrics.Routes(), []Route{
		{Method: http.MethodPost, Path: "/api/erro-cliente", Summary: "Report a failure of the web page",
			Handler: s.postClientError, Usage: route.NotCounted, LogPathOnly: true},
		{Method: http.MethodPost, Path: paymentViewPath, Summary: "Signal that the credit page showed a payment's requirements", Full: true,
			Handler: s.postPaymentView, Usage: route.NotCounted, LogPathOnly: true, IgnoresAPIKey: true},
	}, s.billing.PriceRoutes(), s.partners.Routes(),
		s.contact.Routes(), s.billing.CreditRoutes(), s.vitrine.Routes(), []Route{
			{Method: http.MethodGet, Path: "/api/auth/bootstrap", Summary: "CSRF token and view context of this browser and session", Full: true,
				Handler: s.getBootstrap, Usage: route.NotCounted, Session: true},
			{Method: http.MethodGet, Path: "/api/me", Summary: "The session's user", Full: true,
				Handler: s.getMe, Usage: route.NotCounted, Session: true},
			{Method: http.MethodGet, Path: "/api/account/profile", Summary: "The session user's profile", Full: true,
				Handler: s.getProfile, Usage: route.NotCounted, Session: true},
			{Method: http.MethodGet, Path: "/api/account/avatar", Summary: "The session user's own picture (WebP)", Full: true,
				Handler: s.getAvatar, Usage: route.NotCounted, Session: true},
			{Method: http.MethodPost, Path: "/api/auth/logout", Summary: "End this product's session", Full: true,
				Handler: s.postLogout, Usage: route.NotCounted, Session: true},
			{Method: http.MethodGet, Path: "/api/account/keys", Summary: "The session user's API keys", Full: true,
				Handler: s.listKeys, Usage: route.NotCounted, Session: true},
			{Method: http.MethodPost, Path: "/api/account/keys/create", Summary: "Create an API key", Full: true,
				Handler: s.createKey, Usage: route.NotCounted, Session: true},
			{Method: http.MethodPost, Path: "/api/account/keys/revoke", Summary: "Revoke an API key", Full: true,
				Handler: s.revokeKey, Usage: route.NotCounted, Session: true},
			{Method: http.MethodPost, Path: identityEventsPath, Summary: "Receive a signed event of the identity service", Full: true,
				Handler: s.postIdentityEvent, Usage: route.NotCounted, IgnoresAPIKey: true},
			{Method: http.MethodPost, Path: "/mcp", Summary: "MCP server (streamable HTTP, JSON-RPC 2.0)",
				Handler: func(c echo.Context) error { return s.mcp.Serve(c) }, Usage: route.CountedAsMCP},
		}, s.discovery.Routes(), []Route{
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
			{Method: http.MethodGet, Path: "/account", Summary: "Web page: your API keys (full variant)", Full: true,
				Handler: s.getAccountPage, Usage: route.CountedAsPage, Session: true},
			{Method: http.MethodGet, Path: "/account/keys", Summary: "Web page: the key list of the account page, alone (full variant)", Full: true,
				Handler: s.getAccountKeys, Usage: route.NotCounted, Session: true},
			{Method: http.MethodGet, Path: "/credit", Summary: "Web page: prepaid credit, its balance and how to buy it (full variant)", Full: true,
				Handler: s.getCreditPage, Usage: route.CountedAsPage},
			{Method: http.MethodGet, Path: "/opensearch.xml", Summary: "OpenSearch description",
				Handler: s.getOpenSearch, Usage: route.CountedAsDoc},
			{Method: http.MethodGet, Path: "/assets/{name}", Summary: "Web page assets (style sheet, script, icon)",
				Handler: s.getAsset, Usage: route.NotCounted},
		})
}
