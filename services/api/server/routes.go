package server

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Route is one endpoint of the API. The route table is the single list from
// which the router is built and the endpoints of GET /api/ are written; a
// test checks it against the paths and methods of api/openapi.json, so the
// three cannot drift.
type Route struct {
	Method  string
	Path    string // OpenAPI form, with parameters in braces: /api/bundles/{id}
	Summary string // the operation's summary in api/openapi.json
	Full    bool   // full variant only (x-variant: full in the document)
	Handler echo.HandlerFunc
}

// routeTable lists every route of both variants. Every GET also answers
// HEAD, and OPTIONS (CORS preflight) is answered by the cors middleware.
func (s *Server) routeTable() []Route {
	return []Route{
		{http.MethodGet, "/api/", "Self-described index of the API", false, s.getAPIIndex},
		{http.MethodGet, "/api/health", "Liveness and published build", false, s.getHealth},
		{http.MethodGet, "/api/bundles", "Search live bundles", false, s.searchBundles},
		{http.MethodGet, "/api/bundles/{id}", "One bundle's card", false, s.getBundle},
		{http.MethodGet, "/api/stats", "Index statistics", false, s.getStats},
		{http.MethodGet, "/api/okf/stats", "Index statistics with every facet", true, s.getOKFStats},
		{http.MethodPost, "/api/ping", "Submit bundle roots of a domain (IndexNow)", false, s.postPing},
		{http.MethodGet, "/api/ping/status", "What became of a host's submissions", false, s.getPingStatus},
		{http.MethodPost, "/api/visit", "Count a page visit", false, s.postVisit},
		{http.MethodGet, "/api/metrics", "Public usage numbers; with the operator token, the finance block", false, s.getMetrics},
		{http.MethodPost, "/api/erro-cliente", "Report a failure of the web page", false, s.postErroCliente},
		{http.MethodGet, "/api/pricing", "What is free, what is paid, and list prices", true, s.getPricing},
		{http.MethodGet, "/api/billing", "How to pay: x402 configuration and prepaid credit", true, s.getBilling},
		{http.MethodPost, "/mcp", "MCP server (streamable HTTP, JSON-RPC 2.0)", false, s.serveMCP},
		{http.MethodGet, "/openapi.json", "This OpenAPI document", false, s.getOpenAPI},
		{http.MethodGet, "/llms.txt", "llms.txt: the service for language models", false, s.getLLMs},
		{http.MethodGet, "/llms-full.txt", "llms.txt with the documentation inlined", false, s.getLLMsFull},
		{http.MethodGet, "/okf/{arquivo}", "The service's documentation, an OKF bundle", false, s.getOKF},
		{http.MethodGet, "/agent.json", "Agent card", false, s.getAgentCard},
		{http.MethodGet, "/.well-known/agent-card.json", "Agent card", false, s.getAgentCard},
		{http.MethodGet, "/.well-known/api-catalog", "API catalog (RFC 9727 linkset)", false, s.getAPICatalog},
		{http.MethodGet, "/.well-known/security.txt", "Security contact (RFC 9116)", false, s.getSecurityTxt},
		{http.MethodGet, "/.well-known/x402", "x402 payment manifest", false, s.getX402},
		{http.MethodGet, "/.well-known/mcp-registry-auth", "MCP registry domain proof", false, s.getMCPRegistryAuth},
		{http.MethodGet, "/.well-known/apis.json", "APIs.json 0.19 document", false, s.getAPIsJSON},
		{http.MethodGet, "/apis.json", "APIs.json 0.19 document", false, s.getAPIsJSON},
		{http.MethodGet, "/", "Web page", false, s.getLandingPage},
	}
}

// routesFor keeps the routes of a variant: all of them for full, those not
// marked Full for base.
func routesFor(all []Route, full bool) []Route {
	var out []Route
	for _, r := range all {
		if full || !r.Full {
			out = append(out, r)
		}
	}
	return out
}

// echoPath is the route's path in Echo's syntax: {id} becomes :id.
func (r Route) echoPath() string {
	segs := strings.Split(r.Path, "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			segs[i] = ":" + seg[1:len(seg)-1]
		}
	}
	return strings.Join(segs, "/")
}
