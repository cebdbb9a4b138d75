// Package route is the shape of one row of the API's route table, and the
// lookups the router and the middleware make in the table. The table
// itself is one list (package server's routeTable) built from the rows each
// capability package returns (Routes(deps) []route.Route); it feeds the
// router, GET /api/, the MCP tools, the OpenAPI checks and admission.
package route

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Route is one endpoint of the API, with everything the service decides
// about it. A test checks the table against the paths and methods of
// api/openapi.json, so they cannot drift.
type Route struct {
	Method  string
	Path    string // OpenAPI form, with parameters in braces: /api/bundles/{id}
	Summary string // the operation's summary in api/openapi.json
	Full    bool   // full variant only (x-variant: full in the document)
	Handler echo.HandlerFunc

	// Usage is the usage counter its successful requests add to; every row
	// chooses one, NotCounted included (TestRouteDecisions).
	Usage Usage
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
	// presented there is neither checked nor refused: the identity
	// service's signed events, and the payment-view signal, which answers
	// only 202 or 204. Session routes ignore keys as well.
	IgnoresAPIKey bool
	// Credentials names the Authorization credentials the route takes
	// besides an API key: TakesOperatorToken (Bearer <METRICS_TOKEN>, the
	// handler judges it) and TakesCredit (Bearer cred_..., the handler
	// charges it). Any other Authorization is refused before the handler
	// (account/keyauth.go): never a silent anonymous request.
	Credentials Credentials
	// ReadsIndex marks a route that reads the index from the read pool
	// (search, cards, statistics, feeds, status, the pages built from
	// them): only so many of them are served at once, and the rest answer
	// 503 unavailable with Retry-After at once (admission).
	ReadsIndex bool
	// Cached marks a ReadsIndex route answered from the page cache: it
	// takes its admission slot only when it misses and reads the index, so
	// that reads waiting for Postgres never turn away answers that need
	// none.
	Cached bool
	// Tool is the MCP tool that mirrors the route, or nil. Tools take their
	// schemas from the route's operation, and tools/list answers them in
	// the order of their rows.
	Tool *Tool
}

// Credentials are the Authorization credentials a route takes besides an
// API key, as bits.
type Credentials int

// The credentials.
const (
	TakesOperatorToken Credentials = 1 << iota
	TakesCredit
)

// Usage is the usage counter a route's successful requests add to, chosen
// on its row (Route.Usage). The zero value is no choice: TestRouteDecisions
// refuses a row that leaves it unset, so a new route is neither counted
// nor left out by accident.
type Usage int

// The usage counters.
const (
	_             Usage = iota // unset: the row has not chosen
	CountedAsAPI               // usage.API, and usage.APIAI or usage.APIMachine by caller
	CountedAsPage              // usage.Page: the web page
	CountedAsDoc               // usage.Doc: the documents for people and agents
	CountedAsMCP               // usage.MCP: requests to the MCP server (tool calls count apart)
	NotCounted                 // the operations routes, and the health answer orchestrators poll
)

// Tool is an MCP tool and the function that answers a call of it. Its
// input and output schemas are filled in from its route's operation.
type Tool struct {
	Def  *mcp.Tool
	Call func(ctx context.Context, args map[string]any) (any, error)
	// AnswerBound is the most bytes a call with args can answer (its
	// result as structured content and as text), which the MCP server
	// holds from its answer budgets before it makes the call. Nil is a
	// small answer (mcpserver.SmallAnswer).
	AnswerBound func(args map[string]any) int64
}

// ForVariant keeps the routes of a variant: all of them for full, those
// not marked Full for base.
func ForVariant(all []Route, full bool) []Route {
	var out []Route
	for _, r := range all {
		if full || !r.Full {
			out = append(out, r)
		}
	}
	return out
}

// EchoPath is the route's path in Echo's syntax: {id} becomes :id.
func (r Route) EchoPath() string {
	segs := strings.Split(r.Path, "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			segs[i] = ":" + seg[1:len(seg)-1]
		}
	}
	return strings.Join(segs, "/")
}

// ByPath finds rows of the route table by Echo's route path, the form in
// which the middleware sees a request's route (c.Path()). It is built once
// with the router.
type ByPath map[string][]Route

// NewByPath indexes routes by their Echo paths.
func NewByPath(routes []Route) ByPath {
	byPath := ByPath{}
	for _, r := range routes {
		byPath[r.EchoPath()] = append(byPath[r.EchoPath()], r)
	}
	return byPath
}

// Row returns the row of a method at an Echo route path. HEAD finds the GET
// row, since the router answers HEAD with the GET handler.
func (byPath ByPath) Row(method, echoPath string) (Route, bool) {
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

// Session reports whether an Echo route path is a session route, whatever
// the method, so that a preflight or a refused method gets no CORS header
// either.
func (byPath ByPath) Session(echoPath string) bool {
	for _, r := range byPath[echoPath] {
		if r.Session {
			return true
		}
	}
	return false
}

// LogPathOnly reports whether requests to an Echo route path are logged
// without their query string, whatever their method, so that a refused
// method (405) keeps no query either.
func (byPath ByPath) LogPathOnly(echoPath string) bool {
	for _, r := range byPath[echoPath] {
		if r.LogPathOnly {
			return true
		}
	}
	return false
}
