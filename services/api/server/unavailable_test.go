package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// TestDatabaseGoneAnswersUnavailable drops the API's database under it:
// every route that reads or writes it answers 503 unavailable with
// Retry-After at once (not after the request timeout), every MCP tool that
// uses it answers the same body, the log names the dependency, and the
// routes that need no database still answer. (services/faults stops and
// restarts a real server under load.)
func TestDatabaseGoneAnswersUnavailable(t *testing.T) {
	t.Parallel()
	dbURL := storetest.NewDatabase(t)
	st, err := store.Open(t.Context(), store.Config{URL: dbURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	a := newAPIOn(t, st, config.VariantFull)
	session := mcpSession(t, a)
	u, _ := url.Parse(dbURL)
	dropDatabase(t, strings.TrimPrefix(u.Path, "/"))

	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/bundles?q=guide", ""},
		{"GET", "/api/bundles/acme-recipes", ""},
		{"GET", "/api/stats", ""},
		{"GET", "/api/okf/stats", ""},
		{"GET", "/api/ping/status?host=docs.example.org", ""},
		{"GET", "/api/metrics", ""},
		{"POST", "/api/ping", string(pingBody("docs.example.org", testKey, roots("docs.example.org", 0, 1), nil))},
	} {
		start := time.Now()
		var resp *http.Response
		var body []byte
		if c.method == "POST" {
			resp, body = a.post(c.path, []byte(c.body))
		} else {
			resp, body = a.do(c.method, c.path, nil)
		}
		took := time.Since(start)
		var e wire.ErrorBody
		_ = json.Unmarshal(body, &e)
		if resp.StatusCode != http.StatusServiceUnavailable || e.Error != apierror.Unavailable || resp.Header.Get("Retry-After") != apierror.DefaultRetryAfter {
			t.Errorf("%s %s: %d Retry-After %q %s", c.method, c.path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		if took > 2*time.Second {
			t.Errorf("%s %s: answered after %s, want at once", c.method, c.path, took)
		}
	}
	if !strings.Contains(a.logs.String(), `"dependency":"postgres","cause":"connect: `) {
		t.Errorf("the log does not name the dependency and its failure:\n%s", a.logs.String())
	}

	// The routes that read no database keep answering.
	a.get("/api/health", http.StatusOK, nil)
	if resp, body := a.post("/api/visit", []byte(`{}`)); resp.StatusCode != http.StatusOK {
		t.Errorf("POST /api/visit: %d %s", resp.StatusCode, body)
	}

	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"search_bundles", map[string]any{"q": "guide"}},
		{"get_bundle", map[string]any{"id": "acme-recipes"}},
		{"index_stats", map[string]any{}},
		{"submit_bundles", map[string]any{"host": "docs.example.org", "key": testKey, "urlList": roots("docs.example.org", 0, 1)}},
	} {
		res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: call.tool, Arguments: call.args})
		if err != nil {
			t.Fatalf("%s: %v", call.tool, err)
		}
		var e wire.ErrorBody
		if len(res.Content) == 1 {
			_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &e)
		}
		if !res.IsError || e.Error != apierror.Unavailable || e.Message == "" {
			t.Errorf("%s: want the unavailable body, got error=%v %+v", call.tool, res.IsError, e)
		}
	}
}

// dropDatabase drops a test database, ending its sessions.
func dropDatabase(t *testing.T, name string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), storetest.AdminURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), fmt.Sprintf("DROP DATABASE %s WITH (FORCE)", pgx.Identifier{name}.Sanitize())); err != nil {
		t.Fatal(err)
	}
}
