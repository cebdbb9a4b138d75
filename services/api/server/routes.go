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
// operation in api/openapi.json. A route's MCP tool is defined on its
// row, in its capability package.
func (s *Server) routeTable() []Route {
	return slices.Concat(s.discovery.IndexRoutes(), s.search.Routes(), s.ping.Routes(), s.repoStatus.Routes(), []Route{
		{Method: http.MethodPost, Path: "/api/visit", Summary: "Count a page visit",
			Handler: s.postVisit, Usage: route.NotCounted, LogPathOnly: true},
	}, s.metrics.Routes(), []Route{
		{Method: http.MethodPost, Path: "/api/erro-cliente", Summary: "Report a failure of the web page",
			Handler: s.postClientError, Usage: route.NotCounted, LogPathOnly: true},
		{Method: http.MethodPost, Path: paymentViewPath, Summary: "Signal that the credit page showed a payment's requirements", Full: true,
			Handler: s.postPaymentView, Usage: route.NotCounted, LogPathOnly: true, IgnoresAPIKey: true},
	}, s.billing.PriceRoutes(), s.partners.Routes(),
		s.contact.Routes(), s.billing.CreditRoutes(), s.vitrine.Routes(), s.account.Routes(), []Route{
			{Method: http.MethodPost, Path: "/mcp", Summary: "MCP server (streamable HTTP, JSON-RPC 2.0)",
				Handler: func(c echo.Context) error { return s.mcp.Serve(c) }, Usage: route.CountedAsMCP},
		}, s.discovery.Routes(), s.pages.Routes(), s.account.PageRoutes(), s.pages.CreditRoutes(), s.pages.AssetRoutes())
}
