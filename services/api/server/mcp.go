package server

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

	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// The MCP server at /mcp (contract 4.3) speaks streamable HTTP through the
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

// mcpMaxBody caps one MCP request body; a submit_bundles of 100 long URLs
// fits with room to spare.
const mcpMaxBody = 256 << 10

const mcpInstructions = "OKF Index is a public, free search index of OKF (Open Knowledge Format) bundles: " +
	"trees of markdown files whose root index.md declares okf_version. Use search_bundles to find bundles " +
	"(follow next_offset to page), get_bundle for one card, index_stats for totals, api_index for the " +
	"REST endpoints and documents, and submit_bundles to submit the bundle roots of a domain you control " +
	"(IndexNow key file). No account and no quota."

// mcpToolSet holds the tools of the routes this package still serves, for
// the route table to place each on its route's row (a capability package
// defines its tools on its own rows); tools/list answers every tool in the
// order of their rows. TestRouteDecisions checks that each is placed
// exactly once. A tool calls the same function as its route and takes its
// schemas from the route's operation in api/openapi.json.
type mcpToolSet struct {
	APIIndex, SearchBundles, GetBundle, IndexStats *route.Tool
}

// newMCPToolSet defines the tools. Schemas are filled in by newMCPHandler.
func (s *Server) newMCPToolSet() mcpToolSet {
	read := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}
	return mcpToolSet{
		APIIndex: &route.Tool{Def: &mcp.Tool{
			Name:  "api_index",
			Title: "Describe the index",
			Description: "Describe this index: name, build, public base URL, documentation links (llms.txt, OpenAPI, " +
				"MCP, web page), every REST endpoint of this deployment and the MCP tools. The same JSON as GET /api/. " +
				"Takes no arguments.",
			Annotations: read,
		}, Call: func(context.Context, map[string]any) (any, error) { return s.apiIndex(), nil }},
		SearchBundles: &route.Tool{Def: &mcp.Tool{
			Name:  "search_bundles",
			Title: "Search OKF bundles",
			Description: "Search the live OKF bundles. Every argument is optional and mirrors a query parameter of " +
				"GET /api/bundles; lists are comma-separated strings. Answers a page {items, limit, offset, " +
				"next_offset, next, did_you_mean?}: each item is a bundle card whose id get_bundle takes, with a " +
				"snippet {field, text, highlights} of the passage q matched when q is given. To read further, call " +
				"again with offset set to next_offset until it is null; the list ends at 1000 results. When q " +
				"finds fewer than 3 bundles, did_you_mean offers close names to search for instead. q may be a " +
				"question in any words: word forms and accents do not matter, and with sort=relevance the bundles " +
				"holding most of its words come first.",
			Annotations: read,
		}, Call: func(ctx context.Context, args map[string]any) (any, error) {
			q, err := queryOf(args)
			if err != nil {
				return nil, err
			}
			return toolAnswer(s.searchEncoded(ctx, q))
		}},
		GetBundle: &route.Tool{Def: &mcp.Tool{
			Name:  "get_bundle",
			Title: "Get one bundle's card",
			Description: "Fetch one bundle's card by its id (the id of a search_bundles item): name, tagline, " +
				"description, okf_version, concepts, source and repository signals. Bundles kept out of search " +
				"(visibility low) answer too. The same JSON as GET /api/bundles/{id}; an unknown id is a not_found error.",
			Annotations: read,
		}, Call: func(ctx context.Context, args map[string]any) (any, error) {
			id, ok := args["id"].(string)
			if !ok { // a path parameter: the route always has one
				return nil, apierror.Parameter("id", "id is required: the id of a bundle, as search_bundles gives it.")
			}
			return toolAnswer(s.cardEncoded(ctx, id))
		}},
		IndexStats: &route.Tool{Def: &mcp.Tool{
			Name:  "index_stats",
			Title: "Index statistics",
			Description: "Count the live bundles in total and by origin, okf_version and repository language " +
				"(and, on the full variant, by type, concept band and license), with the newest update time. " +
				"The same JSON as GET /api/stats. Takes no arguments.",
			Annotations: read,
		}, Call: func(ctx context.Context, _ map[string]any) (any, error) { return s.stats(ctx) }},
	}
}

// listedTool is a tool with the variant of its route.
type listedTool struct {
	*route.Tool
	full bool // full variant only, as its route
}

// mcpTools lists every tool of both variants, in the order tools/list
// answers them: the order of their rows in the route table.
func (s *Server) mcpTools() []listedTool {
	var tools []listedTool
	for _, r := range s.routeTable() {
		if r.Tool != nil {
			tools = append(tools, listedTool{r.Tool, r.Full})
		}
	}
	return tools
}

// mcpToolNames are the tool names of a variant, in tools/list order.
func (s *Server) mcpToolNames() []string {
	var names []string
	for _, t := range s.mcpTools() {
		if s.full || !t.full {
			names = append(names, t.Def.Name)
		}
	}
	return names
}

// newMCPHandler builds the MCP server of the deployment's variant, with the
// tools of its routes (s.routes), and its streamable HTTP handler.
//
// The SDK's DNS-rebinding guard refuses a request that reaches a loopback
// listener with a non-loopback Host. That is right for a service published
// on a loopback address (make run on a workstation), and wrong behind a
// reverse proxy, which forwards the public Host to a loopback listener; so
// the guard is on exactly when PUBLIC_BASE_URL is a loopback address. No
// Origin check: the index is public and answers every origin (CORS *).
func (s *Server) newMCPHandler(log *slog.Logger) (http.Handler, error) {
	schemas, err := newToolSchemas(s.full)
	if err != nil {
		return nil, err
	}
	fullSchemas, err := newToolSchemas(true)
	if err != nil {
		return nil, err
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "okf-index", Title: AppName, Version: s.build},
		&mcp.ServerOptions{Instructions: mcpInstructions, Logger: log})
	for _, r := range s.routes {
		if r.Tool == nil {
			continue
		}
		tool := *r.Tool.Def
		if tool.InputSchema, tool.OutputSchema, err = schemas.forRoute(r); err != nil {
			return nil, fmt.Errorf("mcp tool %s: %w", tool.Name, err)
		}
		var fullInput any
		if !s.full {
			if fullInput, _, err = fullSchemas.forRoute(r); err != nil {
				return nil, fmt.Errorf("mcp tool %s: %w", tool.Name, err)
			}
		}
		check, err := newArgChecker(tool.InputSchema, fullInput)
		if err != nil {
			return nil, fmt.Errorf("mcp tool %s: input schema: %w", tool.Name, err)
		}
		call, name := r.Tool.Call, tool.Name
		s.mcpListed = append(s.mcpListed, &tool)
		srv.AddTool(&tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Extra == nil || !isSmoke(req.Extra.Header) {
				s.usage.Add(usage.MCPTool, 1)
			}
			args, err := check.args(req.Params.Arguments)
			if err != nil {
				return s.toolResult(ctx, log, name, nil, err), nil
			}
			out, err := call(ctx, args)
			return s.toolResult(ctx, log, name, out, err), nil
		})
	}
	u, _ := url.Parse(s.baseURL) // validated by pkg/config
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		Logger:                     log,
		DisableLocalhostProtection: !isLoopbackHost(u.Hostname()),
		MaxRequestBodyBytes:        mcpMaxBody,
	}), nil
}

// serveMCP answers POST /mcp with the SDK's handler.
func (s *Server) serveMCP(c echo.Context) error {
	serveJSONRPC(s.mcp, c.Response(), c.Request())
	return nil
}

// toolResult turns a tool's answer into its result: the JSON the REST route
// answers, as structured content and as text. An error becomes a tool error
// whose text is the REST error body; the service's own failures are logged.
func (s *Server) toolResult(ctx context.Context, log *slog.Logger, name string, out any, err error) *mcp.CallToolResult {
	if err == nil {
		var b []byte
		if b, err = respond.Marshal(out); err == nil {
			raw := json.RawMessage(b[:len(b)-1]) // marshal ends with a newline
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

// queryOf writes a search_bundles argument object as the query string of
// GET /api/bundles, so the REST parser validates it. The input schema has
// already checked the types: strings and whole numbers.
func queryOf(args map[string]any) (string, error) {
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
