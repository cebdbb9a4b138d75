package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/mcpserver"
)

// mcpSession connects the go-sdk client to the API's /mcp through the
// contract-checking client, so every MCP exchange is also checked against
// the OpenAPI document.
func mcpSession(t *testing.T, a *testAPI) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "okf-index-test", Version: "1"}, nil)
	session, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: a.url + "/mcp", HTTPClient: a.client}, nil)
	if err != nil {
		t.Fatalf("mcp connect: %v", err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

// toolCase is one call of a tool: with good arguments, rest is the REST
// route whose JSON the result must carry; with bad ones, wantError is the
// error name of the result's body and field the argument it names.
type toolCase struct {
	tool      string
	args      map[string]any
	rest      string
	bad       bool
	wantError string
	field     string
}

func TestMCPTools(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			a := newAPI(t, variant)
			ids := upsert(t, a.store,
				repoBundle("acme", "recipes", "index.md", wire.Card{Name: "Recipe Book", Tagline: "Bread and soup", OKFVersion: "0.2",
					ConceptList: concepts("Recipe", 3)}, signal(12, "Go", "MIT")),
				siteBundle("https://docs.example.org/okf/index.md", wire.Card{Name: "Example Docs", OKFVersion: "0.1"}),
			)
			recount(t, a.store)
			session := mcpSession(t, a)

			res, err := session.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"api_index", "search_bundles", "get_bundle", "index_stats", "submit_bundles"}
			if variant == config.VariantFull {
				want = append(want, "pricing", "billing")
			}
			var names []string
			outputs := map[string]*jsonschema.Resolved{}
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
				if tool.Description == "" || tool.Title == "" {
					t.Errorf("%s: no description or title", tool.Name)
				}
				outputs[tool.Name] = resolveSchema(t, tool.Name, tool.OutputSchema)
				in := resolveSchema(t, tool.Name, tool.InputSchema)
				if in.Schema().Type != "object" {
					t.Errorf("%s: input schema type %q", tool.Name, in.Schema().Type)
				}
			}
			slices.Sort(want) // tools/list answers in name order
			if !slices.Equal(names, want) {
				t.Fatalf("tools %v, want %v", names, want)
			}
			search, _ := json.Marshal(res.Tools[slices.Index(names, "search_bundles")].InputSchema)
			if got := strings.Contains(string(search), `"concept"`); got != (variant == config.VariantFull) {
				t.Errorf("search_bundles schema has concept: %v on %s", got, variant)
			}

			cases := []toolCase{
				{tool: "api_index", args: map[string]any{}, rest: "/api/"},
				{tool: "api_index", args: map[string]any{"verbose": true}, bad: true, wantError: apierror.InvalidParameter, field: "verbose"},
				{tool: "search_bundles", args: map[string]any{}, rest: "/api/bundles"},
				{tool: "search_bundles", args: map[string]any{"q": "recipe", "limit": 1, "sort": "name", "version": "0.2"},
					rest: "/api/bundles?q=recipe&limit=1&sort=name&version=0.2"},
				{tool: "search_bundles", args: map[string]any{"origin": "domain", "offset": 0}, rest: "/api/bundles?origin=domain&offset=0"},
				{tool: "search_bundles", args: map[string]any{"sort": "best"}, bad: true, wantError: apierror.InvalidParameter, field: "sort", rest: "/api/bundles?sort=best"},
				{tool: "search_bundles", args: map[string]any{"limit": 0}, bad: true, wantError: apierror.InvalidParameter, field: "limit", rest: "/api/bundles?limit=0"},
				{tool: "search_bundles", args: map[string]any{"limit": "ten"}, bad: true, wantError: apierror.InvalidParameter, field: "limit", rest: "/api/bundles?limit=ten"},
				{tool: "search_bundles", args: map[string]any{"limit": 1e308}, bad: true, wantError: apierror.InvalidParameter, field: "limit", rest: "/api/bundles?limit=1e%2B308"},
				{tool: "search_bundles", args: map[string]any{"limit": 2.5}, bad: true, wantError: apierror.InvalidParameter, field: "limit", rest: "/api/bundles?limit=2.5"},
				{tool: "search_bundles", args: map[string]any{"offset": -1}, bad: true, wantError: apierror.InvalidParameter, field: "offset", rest: "/api/bundles?offset=-1"},
				{tool: "search_bundles", args: map[string]any{"q": []any{"a", "b"}}, bad: true, wantError: apierror.InvalidParameter, field: "q"},
				{tool: "search_bundles", args: map[string]any{"q": nil, "limit": 1, "sort": "name"}, rest: "/api/bundles?limit=1&sort=name"},
				{tool: "search_bundles", args: map[string]any{"version": "1,2,3,4,5,6"}, bad: true, wantError: apierror.InvalidParameter, field: "version", rest: "/api/bundles?version=1,2,3,4,5,6"},
				{tool: "search_bundles", args: map[string]any{"language": " ,Go"}, bad: true, wantError: apierror.InvalidParameter, field: "language", rest: "/api/bundles?language=%20,Go"},
				{tool: "get_bundle", args: map[string]any{"id": ids[0]}, rest: "/api/bundles/" + ids[0]},
				{tool: "get_bundle", args: map[string]any{"id": ids[1]}, rest: "/api/bundles/" + ids[1]},
				{tool: "get_bundle", args: map[string]any{"id": "no-such-bundle"}, bad: true, wantError: apierror.NotFound, rest: "/api/bundles/no-such-bundle"},
				{tool: "get_bundle", args: map[string]any{"id": "UPPER"}, bad: true, wantError: apierror.NotFound, rest: "/api/bundles/UPPER"},
				{tool: "get_bundle", args: map[string]any{"id": 7}, bad: true, wantError: apierror.NotFound, rest: "/api/bundles/7"},
				{tool: "get_bundle", args: map[string]any{}, bad: true, wantError: apierror.InvalidParameter, field: "id"},
				{tool: "index_stats", args: map[string]any{}, rest: "/api/stats"},
				{tool: "index_stats", args: map[string]any{"full": true}, bad: true, wantError: apierror.InvalidParameter, field: "full"},
				{tool: "submit_bundles", args: map[string]any{"host": "docs.example.net", "key": "abcdef123456",
					"urlList": []any{"https://docs.example.net/okf/index.md"}}},
				{tool: "submit_bundles", args: map[string]any{"host": "docs.example.net", "key": "abcdef123456",
					"urlList": []any{"https://elsewhere.example/okf/index.md"}}, bad: true, wantError: apierror.URLOffHost, field: "urlList[0]"},
				{tool: "submit_bundles", args: map[string]any{"host": "10.0.0.1", "key": "abcdef123456",
					"urlList": []any{"https://10.0.0.1/index.md"}}, bad: true, wantError: apierror.InvalidHost, field: "host"},
				{tool: "submit_bundles", args: map[string]any{"host": "docs.example.net", "key": "short",
					"urlList": []any{"https://docs.example.net/index.md"}}, bad: true, wantError: apierror.InvalidKey, field: "key"},
				{tool: "submit_bundles", args: map[string]any{"host": "docs.example.net", "key": "abcdef123456"}, bad: true, wantError: apierror.InvalidURLList, field: "urlList"},
				{tool: "submit_bundles", args: map[string]any{"host": "docs.example.net", "key": "abcdef123456", "urlList": "https://docs.example.net/index.md"}, bad: true, wantError: apierror.InvalidParameter, field: "urlList"},
				{tool: "submit_bundles", args: map[string]any{"host": "docs.example.net", "key": "abcdef123456", "urlList": []any{1}}, bad: true, wantError: apierror.InvalidParameter, field: "urlList"},
			}
			if variant == config.VariantFull {
				cases = append(cases,
					toolCase{tool: "search_bundles", args: map[string]any{"concept": "recipe", "license": "MIT"}, rest: "/api/bundles?concept=recipe&license=MIT"},
					toolCase{tool: "pricing", args: map[string]any{}, rest: "/api/pricing"},
					toolCase{tool: "billing", args: map[string]any{}, rest: "/api/billing"},
					toolCase{tool: "billing", args: map[string]any{"network": "base"}, bad: true, wantError: apierror.InvalidParameter, field: "network"},
				)
			} else {
				cases = append(cases, toolCase{tool: "search_bundles", args: map[string]any{"concept": "recipe"}, bad: true, wantError: apierror.UnsupportedParameter, field: "concept", rest: "/api/bundles?concept=recipe"})
			}
			for _, c := range cases {
				checkToolCall(t, a, session, outputs[c.tool], c)
			}

			// The submission went the way POST /api/ping's do.
			var status wire.PingStatusPage
			a.get("/api/ping/status?host=docs.example.net", 200, &status)
			if len(status.Items) != 1 || status.Items[0].URL != "https://docs.example.net/okf/index.md" {
				t.Errorf("ping status after submit_bundles: %+v", status)
			}
		})
	}
}

// checkToolCall calls one tool and checks its result against the case.
func checkToolCall(t *testing.T, a *testAPI, session *mcp.ClientSession, output *jsonschema.Resolved, c toolCase) {
	t.Helper()
	res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
	if err != nil {
		t.Errorf("%s %v: transport error %v (a bad argument must be a tool error)", c.tool, c.args, err)
		return
	}
	text := ""
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	if c.bad {
		if !res.IsError || text == "" {
			t.Errorf("%s %v: isError %v, text %q; want a tool error", c.tool, c.args, res.IsError, text)
			return
		}
		var body wire.ErrorBody
		if err := json.Unmarshal([]byte(text), &body); err != nil || body.Error != c.wantError || body.Message == "" || body.Field != c.field {
			t.Errorf("%s %v: error text %q, want the REST error body %q with field %q", c.tool, c.args, text, c.wantError, c.field)
		}
		if c.rest != "" { // the route refuses the same request with the same body
			if _, rest := a.do(http.MethodGet, c.rest, nil); !jsonEqual(t, rest, []byte(text)) {
				t.Errorf("%s %v: tool error %s, but GET %s answers %s", c.tool, c.args, text, c.rest, rest)
			}
		}
		return
	}
	if res.IsError {
		t.Errorf("%s %v: tool error %s", c.tool, c.args, text)
		return
	}
	structured, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, []byte(text), structured) {
		t.Errorf("%s: text %s differs from structured content %s", c.tool, text, structured)
	}
	var v any
	_ = json.Unmarshal(structured, &v)
	if err := output.Validate(v); err != nil {
		t.Errorf("%s: structured content does not match the output schema: %v\n%s", c.tool, err, structured)
	}
	if c.rest != "" {
		if rest := a.get(c.rest, 200, nil); !jsonEqual(t, rest, structured) {
			t.Errorf("%s %v:\n got %s\nwant %s (GET %s)", c.tool, c.args, structured, rest, c.rest)
		}
	}
}

// resolveSchema resolves a schema from tools/list as a strict client would.
func resolveSchema(t *testing.T, tool string, schema any) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: schema: %v", tool, err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: resolve schema: %v", tool, err)
	}
	return r
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("decode %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}

// rpc posts one JSON-RPC message to /mcp with extra headers and returns the
// status and body.
func rpc(t *testing.T, a *testAPI, host string, header map[string]string, msg string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, a.url+"/mcp", bytes.NewReader([]byte(msg)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := a.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

// TestMCPProtocolVersions drives /mcp by hand with each protocol version the
// SDK supports: the older ones start with initialize, and every later
// request stands alone (no session).
func TestMCPProtocolVersions(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	for _, version := range mcp.SupportedProtocolVersions() {
		status, body := rpc(t, a, "", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+
			`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
		var init struct {
			Result struct {
				ProtocolVersion string         `json:"protocolVersion"`
				ServerInfo      map[string]any `json:"serverInfo"`
				Instructions    string         `json:"instructions"`
			} `json:"result"`
		}
		_ = json.Unmarshal(body, &init)
		if status != 200 || init.Result.ServerInfo["name"] != "okf-index" || init.Result.Instructions == "" {
			t.Errorf("initialize %s: %d %s", version, status, body)
			continue
		}
		negotiated := init.Result.ProtocolVersion
		status, body = rpc(t, a, "", map[string]string{"MCP-Protocol-Version": negotiated, "Mcp-Method": "tools/list"},
			`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"`+negotiated+`"}}}`)
		var list struct {
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		}
		_ = json.Unmarshal(body, &list)
		if status != 200 || len(list.Result.Tools) != 5 {
			t.Errorf("tools/list at %s (asked %s): %d %s", negotiated, version, status, body)
		}
	}
	// Not a JSON-RPC message, or a method MCP does not have: a 400 that
	// says why (the SDK's answer), never a 5xx.
	for _, msg := range []string{`{"jsonrpc":`, `[]`, `{"jsonrpc":"2.0","id":3,"method":"bundles/steal"}`} {
		if status, body := rpc(t, a, "", map[string]string{"MCP-Protocol-Version": "2025-11-25"}, msg); status != 400 || len(body) == 0 {
			t.Errorf("%s: %d %s, want 400 with a reason", msg, status, body)
		}
	}
}

// TestMCPBatchBounded: a JSON-RPC batch of more than MaxBatch calls is
// refused whole with a JSON-RPC error saying the bound, before any call
// runs; a batch within it is not refused by the bound.
func TestMCPBatchBounded(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	batch := func(n int) string {
		calls := make([]string, n)
		for i := range calls {
			calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_bundles","arguments":{"q":"guide"}}}`, i+1)
		}
		return "[" + strings.Join(calls, ",") + "]"
	}
	header := map[string]string{"MCP-Protocol-Version": "2025-11-25"}
	for _, n := range []int{mcpserver.MaxBatch + 1, 1500} {
		status, body := rpc(t, a, "", header, batch(n))
		var e struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if status != 400 || json.Unmarshal(body, &e) != nil || e.Error.Code != mcpserver.RPCInvalidRequest ||
			!strings.Contains(e.Error.Message, fmt.Sprintf("at most %d calls; this one holds %d", mcpserver.MaxBatch, n)) {
			t.Errorf("a batch of %d: %d %.300s", n, status, body)
		}
	}
	status, body := rpc(t, a, "", header, batch(2))
	if strings.Contains(string(body), "at most") {
		t.Errorf("a batch of 2 refused by the bound: %d %.300s", status, body)
	}
}

// TestMCPBehindProxy: behind a reverse proxy the request reaches the
// loopback listener with the public Host and is served; a deployment
// published on a loopback address keeps the DNS-rebinding guard.
func TestMCPBehindProxy(t *testing.T) {
	t.Parallel()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	public := newAPI(t, config.VariantBase) // PUBLIC_BASE_URL is https://okf-index.example
	if status, body := rpc(t, public, "okf-index.example", nil, init); status != 200 {
		t.Errorf("public Host behind a proxy: %d %s", status, body)
	}

	st := public.store
	local := newAPIWith(t, st, map[string]string{"PUBLIC_BASE_URL": "http://127.0.0.1:8080", "VARIANT": "base"})
	if status, body := rpc(t, local, "evil.example", nil, init); status != http.StatusForbidden {
		t.Errorf("rebinding Host on a loopback deployment: %d %s, want 403", status, body)
	}
	if status, body := rpc(t, local, "", nil, init); status != 200 {
		t.Errorf("loopback Host on a loopback deployment: %d %s", status, body)
	}
}

// TestMCPWithoutInitialize: a client of the 2026-07-28 era sends no
// initialize; each request carries its version in headers and _meta.
func TestMCPWithoutInitialize(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	const v = "2026-07-28"
	headers := map[string]string{"MCP-Protocol-Version": v, "Mcp-Method": "tools/call", "Mcp-Name": "index_stats"}
	status, body := rpc(t, a, "", headers, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"index_stats","arguments":{},`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"`+v+`","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`)
	var res struct {
		Result struct {
			StructuredContent map[string]any `json:"structuredContent"`
			IsError           bool           `json:"isError"`
		} `json:"result"`
	}
	_ = json.Unmarshal(body, &res)
	if status != 200 || res.Result.IsError || res.Result.StructuredContent["total"] == nil {
		t.Errorf("tools/call at %s without initialize: %d %s", v, status, body)
	}
}
