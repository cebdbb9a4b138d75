package server

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Route is one endpoint of the API, with everything the service decides
// about it. The route table is the single list from which the router, the
// endpoints of GET /api/ and the MCP tools are built, and in which the usage
// counting and the request log look a request's route up; a test checks it
// against the paths and methods of api/openapi.json, so they cannot drift.
type Route struct {
	Method  string
	Path    string // OpenAPI form, with parameters in braces: /api/bundles/{id}
	Summary string // the operation's summary in api/openapi.json
	Full    bool   // full variant only (x-variant: full in the document)
	Handler echo.HandlerFunc

	// Usage is the usage counter its successful requests add to; every row
	// chooses one, notCounted included (TestRouteDecisions).
	Usage usageCounter
	// LogPathOnly keeps the query string out of the request log: the
	// contract keeps none of a client error report (4.4), and a visit's
	// query tells the log nothing it needs.
	LogPathOnly bool
	// Session marks a route of the global session (full variant): it
	// answers no CORS header at all (contract section 1: never
	// Access-Control-Allow-Origin: * on a session route), and the session
	// cookie, not an API key, says who calls.
	Session bool
	// IgnoresAPIKey marks a route that never reads an API key, so a key
	// presented there is neither checked nor refused (authenticateAPIKey):
	// the identity service's signed events, and the payment-view signal,
	// which answers only 202 or 204. Session routes ignore keys as well.
	IgnoresAPIKey bool
	// ReadsIndex marks a route that reads the index from the read pool
	// (search, cards, statistics, feeds, status, the pages built from
	// them): at most maxReadsInFlight of them are served at once, and the
	// rest answer 503 unavailable with Retry-After at once (admission.go).
	ReadsIndex bool
	// Cached marks a ReadsIndex route answered from the page cache
	// (searchcache.go): it takes its admission slot only when it misses and
	// reads the index, so that reads waiting for Postgres never turn away
	// answers that need none.
	Cached bool
	// Tool is the MCP tool that mirrors the route, or nil. Tools take their
	// schemas from the route's operation, and tools/list answers them in
	// the order of their rows.
	Tool *mcpTool
}

// routeTable lists every route of both variants. Every GET also answers
// HEAD, and OPTIONS (CORS preflight) is answered by the cors middleware.
//
// Adding a route is a row here (Usage is required; Full, LogPathOnly,
// Session, IgnoresAPIKey, ReadsIndex and Tool when they apply), its handler, and its operation in
// api/openapi.json. A tool is defined in newMCPToolSet (mcp.go) and placed
// on its route's row here.
func (s *Server) routeTable() []Route {
	tools := s.newMCPToolSet()
	return []Route{
		{Method: http.MethodGet, Path: "/api/", Summary: "Self-described index of the API",
			Handler: s.getAPIIndex, Usage: countedAsAPI, Tool: tools.apiIndex},
		{Method: http.MethodGet, Path: "/api/health", Summary: "Liveness and published build",
			Handler: s.getHealth, Usage: notCounted},
		{Method: http.MethodGet, Path: "/api/bundles", Summary: "Search live bundles",
			Handler: s.searchBundles, Usage: countedAsAPI, ReadsIndex: true, Cached: true, Tool: tools.searchBundles},
		{Method: http.MethodGet, Path: "/api/bundles/{id}", Summary: "One bundle's card",
			Handler: s.getBundle, Usage: countedAsAPI, ReadsIndex: true, Cached: true, Tool: tools.getBundle},
		{Method: http.MethodGet, Path: "/api/stats", Summary: "Index statistics",
			Handler: s.getStats, Usage: countedAsAPI, ReadsIndex: true, Tool: tools.indexStats},
		{Method: http.MethodGet, Path: "/api/okf/stats", Summary: "Index statistics with every facet", Full: true,
			Handler: s.getOKFStats, Usage: countedAsAPI, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/api/changes", Summary: "Changes of the live set, in commit order",
			Handler: s.getChanges, Usage: countedAsAPI, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/feed.atom", Summary: "The newest changes as an Atom feed",
			Handler: s.getFeedAtom, Usage: countedAsDoc, ReadsIndex: true},
		{Method: http.MethodPost, Path: "/api/ping", Summary: "Submit bundle roots of a domain (IndexNow)",
			Handler: s.postPing, Usage: countedAsAPI, Tool: tools.submitBundles},
		{Method: http.MethodGet, Path: "/api/ping/status", Summary: "What became of a host's submissions",
			Handler: s.getPingStatus, Usage: countedAsAPI, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/api/status", Summary: "What the sweep made of a repository's index.md files",
			Handler: s.getRepoStatus, Usage: countedAsAPI, ReadsIndex: true},
		{Method: http.MethodPost, Path: "/api/visit", Summary: "Count a page visit",
			Handler: s.postVisit, Usage: notCounted, LogPathOnly: true},
		{Method: http.MethodGet, Path: "/api/metrics", Summary: "Public usage numbers; with the operator token, the finance block",
			Handler: s.getMetrics, Usage: notCounted},
		{Method: http.MethodPost, Path: "/api/erro-cliente", Summary: "Report a failure of the web page",
			Handler: s.postErroCliente, Usage: notCounted, LogPathOnly: true},
		{Method: http.MethodPost, Path: paymentViewPath, Summary: "Signal that the credit page showed a payment's requirements", Full: true,
			Handler: s.postPaymentView, Usage: notCounted, LogPathOnly: true, IgnoresAPIKey: true},
		{Method: http.MethodGet, Path: "/api/pricing", Summary: "What is free, what is paid, and list prices", Full: true,
			Handler: s.getPricing, Usage: countedAsAPI, Tool: tools.pricing},
		{Method: http.MethodGet, Path: "/api/billing", Summary: "How to pay: x402 configuration and prepaid credit", Full: true,
			Handler: s.getBilling, Usage: countedAsAPI, Tool: tools.billing},
		{Method: http.MethodGet, Path: "/api/partners", Summary: "The partnership offer: placements, prices, sponsors, how to propose", Full: true,
			Handler: s.getPartners, Usage: countedAsAPI},
		{Method: http.MethodPost, Path: "/api/contact", Summary: "Write to the house: the human form with captcha, or an agent's paid message", Full: true,
			Handler: s.postContact, Usage: countedAsAPI},
		{Method: http.MethodPost, Path: "/api/credito", Summary: "Buy prepaid credit with x402", Full: true,
			Handler: s.postCredito, Usage: countedAsAPI},
		{Method: http.MethodGet, Path: "/api/credito", Summary: "Balance and movements of a credit token", Full: true,
			Handler: s.getCredito, Usage: countedAsAPI},
		{Method: http.MethodGet, Path: "/api/vitrine", Summary: "Public usage projection, published hourly by the collector", Full: true,
			Handler: s.getVitrine, Usage: countedAsAPI},
		{Method: http.MethodGet, Path: "/api/vitrine/operador", Summary: "The collector's exact usage document (operator token)", Full: true,
			Handler: s.getVitrineOperador, Usage: notCounted},
		{Method: http.MethodGet, Path: "/api/vitrine/painel", Summary: "Operator panel of the products the collector publishes (operator token)", Full: true,
			Handler: s.getVitrinePainel, Usage: notCounted},
		{Method: http.MethodGet, Path: "/api/vitrine/cursores", Summary: "How far the collector has read each source (operator token)", Full: true,
			Handler: s.getVitrineCursores, Usage: notCounted},
		{Method: http.MethodGet, Path: "/api/auth/bootstrap", Summary: "CSRF token and view context of this browser and session", Full: true,
			Handler: s.getBootstrap, Usage: notCounted, Session: true},
		{Method: http.MethodGet, Path: "/api/me", Summary: "The session's user", Full: true,
			Handler: s.getMe, Usage: notCounted, Session: true},
		{Method: http.MethodGet, Path: "/api/account/profile", Summary: "The session user's profile", Full: true,
			Handler: s.getProfile, Usage: notCounted, Session: true},
		{Method: http.MethodGet, Path: "/api/account/avatar", Summary: "The session user's own picture (WebP)", Full: true,
			Handler: s.getAvatar, Usage: notCounted, Session: true},
		{Method: http.MethodPost, Path: "/api/auth/logout", Summary: "End this product's session", Full: true,
			Handler: s.postLogout, Usage: notCounted, Session: true},
		{Method: http.MethodGet, Path: "/api/account/keys", Summary: "The session user's API keys", Full: true,
			Handler: s.listKeys, Usage: notCounted, Session: true},
		{Method: http.MethodPost, Path: "/api/account/keys/create", Summary: "Create an API key", Full: true,
			Handler: s.createKey, Usage: notCounted, Session: true},
		{Method: http.MethodPost, Path: "/api/account/keys/revoke", Summary: "Revoke an API key", Full: true,
			Handler: s.revokeKey, Usage: notCounted, Session: true},
		{Method: http.MethodPost, Path: identityEventsPath, Summary: "Receive a signed event of the identity service", Full: true,
			Handler: s.postIdentityEvent, Usage: notCounted, IgnoresAPIKey: true},
		{Method: http.MethodPost, Path: "/mcp", Summary: "MCP server (streamable HTTP, JSON-RPC 2.0)",
			Handler: s.serveMCP, Usage: countedAsMCP},
		{Method: http.MethodGet, Path: "/openapi.json", Summary: "This OpenAPI document",
			Handler: s.getOpenAPI, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/llms.txt", Summary: "llms.txt: the service for language models",
			Handler: s.getLLMs, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/llms-full.txt", Summary: "llms.txt with the documentation inlined",
			Handler: s.getLLMsFull, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/okf/{arquivo}", Summary: "The service's documentation, an OKF bundle",
			Handler: s.getOKF, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/agent.json", Summary: "Agent card",
			Handler: s.getAgentCard, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/agent-card.json", Summary: "Agent card",
			Handler: s.getAgentCard, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/api-catalog", Summary: "API catalog (RFC 9727 linkset)",
			Handler: s.getAPICatalog, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/security.txt", Summary: "Security contact (RFC 9116)",
			Handler: s.getSecurityTxt, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/x402", Summary: "x402 payment manifest",
			Handler: s.getX402, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/mcp-registry-auth", Summary: "MCP registry domain proof",
			Handler: s.getMCPRegistryAuth, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/apis.json", Summary: "APIs.json 0.19 document",
			Handler: s.getAPIsJSON, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/mcp/server-card.json", Summary: "MCP server card",
			Handler: s.getServerCard, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/apis.json", Summary: "APIs.json 0.19 document",
			Handler: s.getAPIsJSON, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/", Summary: "Web page: search",
			Handler: s.getSearchPage, Usage: countedAsPage, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/results", Summary: "Web page: the results part of a search, alone",
			Handler: s.getResultsFragment, Usage: notCounted, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/b/{id}", Summary: "Web page: one bundle",
			Handler: s.getBundlePage, Usage: countedAsPage, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/stats", Summary: "Web page: statistics",
			Handler: s.getStatsPage, Usage: countedAsPage, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/account", Summary: "Web page: your API keys (full variant)", Full: true,
			Handler: s.getAccountPage, Usage: countedAsPage, Session: true},
		{Method: http.MethodGet, Path: "/account/keys", Summary: "Web page: the key list of the account page, alone (full variant)", Full: true,
			Handler: s.getAccountKeys, Usage: notCounted, Session: true},
		{Method: http.MethodGet, Path: "/credit", Summary: "Web page: prepaid credit, its balance and how to buy it (full variant)", Full: true,
			Handler: s.getCreditPage, Usage: countedAsPage},
		{Method: http.MethodGet, Path: "/opensearch.xml", Summary: "OpenSearch description",
			Handler: s.getOpenSearch, Usage: countedAsDoc},
		{Method: http.MethodGet, Path: "/assets/{name}", Summary: "Web page assets (style sheet, script, icon)",
			Handler: s.getAsset, Usage: notCounted},
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

// routesByPath finds rows of the route table by Echo's route path, the
// form in which the middleware sees a request's route (c.Path()). It is
// built once with the router.
type routesByPath map[string][]Route

func newRoutesByPath(routes []Route) routesByPath {
	byPath := routesByPath{}
	for _, r := range routes {
		byPath[r.echoPath()] = append(byPath[r.echoPath()], r)
	}
	return byPath
}

// row returns the row of a method at an Echo route path. HEAD finds the GET
// row, since the router answers HEAD with the GET handler.
func (byPath routesByPath) row(method, echoPath string) (Route, bool) {
	if method == http.MethodHead {
		method = http.MethodGet
	}
	for _, r := range byPath[echoPath] {
		if r.Method == method {
			return r, true
		}
	}
	return Route{}, false
}

// session reports whether an Echo route path is a session route, whatever
// the method, so that a preflight or a refused method gets no CORS header
// either.
func (byPath routesByPath) session(echoPath string) bool {
	for _, r := range byPath[echoPath] {
		if r.Session {
			return true
		}
	}
	return false
}

// logPathOnly reports whether requests to an Echo route path are logged
// without their query string, whatever their method, so that a refused
// method (405) keeps no query either.
func (byPath routesByPath) logPathOnly(echoPath string) bool {
	for _, r := range byPath[echoPath] {
		if r.LogPathOnly {
			return true
		}
	}
	return false
}
