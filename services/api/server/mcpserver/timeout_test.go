package mcpserver

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/okfindex/okf-index/services/api/server/route"
)

// TestTimedOutRequestAnswersAnError: when a request's time runs out while
// its call is being made, the SDK stops waiting and writes nothing; the
// client gets a 503 with a JSON-RPC error and Retry-After, not an empty
// success.
func TestTimedOutRequestAnswersAnError(t *testing.T) {
	slow := &route.Tool{Def: &mcp.Tool{Name: "search_bundles"}, Call: func(context.Context, map[string]any) (any, error) {
		time.Sleep(time.Second) // past the request's deadline
		return map[string]any{}, nil
	}}
	s, err := New(Options{Routes: []route.Route{{Method: http.MethodGet, Path: "/api/bundles", Tool: slow}},
		BaseURL: "https://okf.example/", Log: slog.New(slog.DiscardHandler), ToolCalled: func(http.Header) {}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_bundles","arguments":{"q":"x"}}}`
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	rec := httptest.NewRecorder()
	req, done := withAnswerBudget(req, s.answers)
	serveJSONRPC(s.handler, rec, req)
	done()
	var e rpcError
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
		json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error.Code != RPCInternalError || !strings.Contains(e.Error.Message, "time budget") {
		t.Errorf("a request out of time: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
}
