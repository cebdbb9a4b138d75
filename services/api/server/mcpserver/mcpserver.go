// Package mcpserver is the MCP server at /mcp (contract 4.3): it builds
// the go-sdk server from the tools on the rows of the route table, with
// their schemas from api/openapi.json, checks the arguments of a call, and
// answers the SDK's plain-text refusals as JSON-RPC errors.
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/semaphore"

	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// The MCP server speaks streamable HTTP through the
// go-sdk handler. It is stateless: no Mcp-Session-Id, every POST stands
// alone, so any API replica can answer any request behind a load balancer,
// and clients of both protocol eras (with and without initialize) work.
// Answers are plain JSON, not SSE streams, since every tool answers at once.
//
// Each tool is placed on its REST route's row of the route table, calls the
// same function as the route and answers with the same JSON, as structured
// content and as a text block. Tool arguments and output schemas come from
// api/openapi.json (the route's parameters or request body, and its
// response schema), so a tool cannot drift from its route. A bad argument is a tool result with isError and the REST error
// body ({"error","message","field"}), never a JSON-RPC failure: the
// arguments' shape and types are checked here, naming the argument at
// fault, and their values by the REST route's own rules, so a tool's error
// has the name and field its route's would have.

// MaxBody caps one MCP request body; a submit_bundles of 100 long URLs
// fits with room to spare.
const MaxBody = 256 << 10

const instructions = "OKF Index is a public, free search index of OKF (Open Knowledge Format) bundles: " +
	"trees of markdown files whose root index.md declares okf_version. Use search_bundles to find bundles " +
	"(follow next_offset to page), get_bundle for one card, index_stats for totals, api_index for the " +
	"REST endpoints and documents, and submit_bundles to submit the bundle roots of a domain you control " +
	"(IndexNow key file). No account and no quota."

// ListedTool is a tool with the variant of its route.
type ListedTool struct {
	*route.Tool
	Full bool // full variant only, as its route
}

// Tools lists every tool of both variants (all is the route table of
// both), in the order tools/list answers them: the order of their rows.
func Tools(all []route.Route) []ListedTool {
	var tools []ListedTool
	for _, r := range all {
		if r.Tool != nil {
			tools = append(tools, ListedTool{r.Tool, r.Full})
		}
	}
	return tools
}

// ToolNames are the tool names of a variant, in tools/list order.
func ToolNames(all []route.Route, full bool) []string {
	var names []string
	for _, t := range Tools(all) {
		if full || !t.Full {
			names = append(names, t.Def.Name)
		}
	}
	return names
}

// Options configure the MCP server.
type Options struct {
	Routes  []route.Route // the deployment's routes; the tools are on their rows
	Full    bool          // the variant is full
	Title   string        // the service's display name
	Build   string        // the published commit, the server's version
	BaseURL string        // PUBLIC_BASE_URL
	Log     *slog.Logger
	// ToolCalled is told of every tool call with the request's headers
	// (usage counting).
	ToolCalled func(h http.Header)
}

// Server is the MCP server of a deployment.
type Server struct {
	handler http.Handler
	answers *semaphore.Weighted // the answer budget of every request (budget.go)
	// Listed are the tools as tools/list reports them, schemas included.
	Listed []*mcp.Tool
}

// New builds the MCP server of the deployment's variant, with the tools
// of its routes, and its streamable HTTP handler.
//
// The SDK's DNS-rebinding guard refuses a request that reaches a loopback
// listener with a non-loopback Host. That is right for a service published
// on a loopback address (make run on a workstation), and wrong behind a
// reverse proxy, which forwards the public Host to a loopback listener; so
// the guard is on exactly when PUBLIC_BASE_URL is a loopback address. No
// Origin check: the index is public and answers every origin (CORS *).
func New(o Options) (*Server, error) {
	s := &Server{answers: semaphore.NewWeighted(MaxAnswersInFlight)}
	log := o.Log
	schemas, err := newToolSchemas(o.Full)
	if err != nil {
		return nil, err
	}
	fullSchemas, err := newToolSchemas(true)
	if err != nil {
		return nil, err
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "okf-index", Title: o.Title, Version: o.Build},
		&mcp.ServerOptions{Instructions: instructions, Logger: log})
	for _, r := range o.Routes {
		if r.Tool == nil {
			continue
		}
		tool := *r.Tool.Def
		if tool.InputSchema, tool.OutputSchema, err = schemas.forRoute(r); err != nil {
			return nil, fmt.Errorf("mcp tool %s: %w", tool.Name, err)
		}
		var fullInput any
		if !o.Full {
			if fullInput, _, err = fullSchemas.forRoute(r); err != nil {
				return nil, fmt.Errorf("mcp tool %s: %w", tool.Name, err)
			}
		}
		check, err := newArgChecker(tool.InputSchema, fullInput, r.Method == http.MethodGet)
		if err != nil {
			return nil, fmt.Errorf("mcp tool %s: input schema: %w", tool.Name, err)
		}
		call, name, answerBound := r.Tool.Call, tool.Name, r.Tool.AnswerBound
		s.Listed = append(s.Listed, &tool)
		srv.AddTool(&tool, func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
			var h http.Header
			if req.Extra != nil {
				h = req.Extra.Header
			}
			o.ToolCalled(h)
			args, err := check.args(req.Params.Arguments)
			if err != nil {
				return toolResult(ctx, log, name, nil, err), nil
			}
			bound := int64(SmallAnswer)
			if answerBound != nil {
				bound = answerBound(args)
			}
			if b := budgetOf(ctx); b != nil {
				if err := b.hold(ctx, bound); err != nil {
					return nil, err
				}
				defer func() { b.settle(bound, resultSize(res)) }()
			}
			out, err := call(ctx, args)
			return toolResult(ctx, log, name, out, err), nil
		})
	}
	u, _ := url.Parse(o.BaseURL) // validated by pkg/config
	s.handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		Logger:                     log,
		DisableLocalhostProtection: !isLoopbackHost(u.Hostname()),
		MaxRequestBodyBytes:        MaxBody,
	})
	return s, nil
}

// Serve answers POST /mcp with the SDK's handler.
func (s *Server) Serve(c echo.Context) error {
	r, done := withAnswerBudget(c.Request(), s.answers)
	defer done()
	serveJSONRPC(s.handler, c.Response(), r)
	return nil
}

// toolResult turns a tool's answer into its result: the JSON the REST route
// answers, as structured content and as text. An error becomes a tool error
// whose text is the REST error body; the service's own failures are logged.
func toolResult(ctx context.Context, log *slog.Logger, name string, out any, err error) *mcp.CallToolResult {
	if err == nil {
		// An answer the route encoded already (a cached page or card) is
		// taken as it is: the SDK compacts the result's JSON three times
		// over (a page is ~70 KB, twice in a result), and a fourth pass
		// here was ~2% of the API's CPU under make load's MCP searches.
		raw, encoded := out.(json.RawMessage)
		if !encoded {
			var b []byte
			if b, err = respond.Marshal(out); err == nil {
				raw = json.RawMessage(b[:len(b)-1]) // marshal ends with a newline
			}
		}
		if err == nil {
			return &mcp.CallToolResult{StructuredContent: raw, Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}}}
		}
	}
	_, body, internal := apierror.Response(err)
	if internal {
		log.LogAttrs(ctx, slog.LevelError, "mcp tool failed", append([]slog.Attr{slog.String("tool", name)}, apierror.LogAttrs(err)...)...)
	}
	b, _ := respond.Marshal(body)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b[:len(b)-1])}}}
}

// QueryOf writes a search_bundles argument object as the query string of
// GET /api/bundles, so the REST parser validates it. The argument checker
// has already made every value its text.
func QueryOf(args map[string]any) (string, error) {
	q := url.Values{}
	for k, v := range args {
		switch v := v.(type) {
		case string:
			q.Set(k, v)
		case float64:
			q.Set(k, strconv.FormatFloat(v, 'f', -1, 64))
		case json.Number:
			q.Set(k, v.String())
		default:
			return "", apierror.Parameter(k, "%s must be a string or a whole number.", k)
		}
	}
	return q.Encode(), nil
}

// isLoopbackHost reports whether a host name or address is loopback.
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
