package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/services/api/server/mcpserver"
)

// TestMCPRefusalsAreJSONRPCErrors sends /mcp what the SDK refuses and
// checks each answer is a JSON-RPC error object with the code the JSON-RPC
// specification gives, under the SDK's own HTTP status.
func TestMCPRefusalsAreJSONRPCErrors(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	tests := []struct {
		name        string
		body        string
		contentType string
		status      int
		code        int
		id          string
	}{
		{"malformed JSON", `{"jsonrpc":`, "application/json", 400, mcpserver.RPCParseError, "null"},
		{"not JSON at all", `hello`, "application/json", 400, mcpserver.RPCParseError, "null"},
		{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"bundles/steal"}`, "application/json", 400, mcpserver.RPCMethodNotFound, "7"},
		{"unknown method, string id", `{"jsonrpc":"2.0","id":"a","method":"nope"}`, "application/json", 400, mcpserver.RPCMethodNotFound, `"a"`},
		{"empty batch", `[]`, "application/json", 400, mcpserver.RPCInvalidRequest, "null"},
		{"a string", `"str"`, "application/json", 400, mcpserver.RPCInvalidRequest, "null"},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, "application/json", 400, mcpserver.RPCInvalidRequest, "1"},
		{"no version", `{"id":2}`, "application/json", 400, mcpserver.RPCInvalidRequest, "2"},
		{"object id", `{"jsonrpc":"2.0","id":{"x":1},"method":"nope"}`, "application/json", 400, mcpserver.RPCInvalidRequest, "null"},
		{"wrong content type", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "text/plain", 415, mcpserver.RPCInvalidRequest, "null"},
		{"oversized", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"` + strings.Repeat("a", mcpserver.MaxBody) + `"}}`, "application/json", 413, mcpserver.RPCInvalidRequest, "null"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, a.url+"/mcp", bytes.NewReader([]byte(tc.body)))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", tc.contentType)
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := a.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			var got struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("not JSON: %v: %s", err, body)
			}
			if got.JSONRPC != "2.0" || got.Error.Code != tc.code || got.Error.Message == "" || string(got.ID) != tc.id {
				t.Errorf("got %s, want code %d and id %s with a message", body, tc.code, tc.id)
			}
		})
	}
}

// TestMCPAnswersPassThrough: what the SDK answers with success, and its
// JSON-RPC errors, reach the client untouched.
func TestMCPAnswersPassThrough(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	status, body := rpc(t, a, "", nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"steal_bundles"}}`)
	if status != 200 || !bytes.Contains(body, []byte(`"code":-32602`)) {
		t.Errorf("unknown tool: %d %s, want the SDK's 200 with -32602", status, body)
	}
	status, body = rpc(t, a, "", nil, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if status != 200 || !bytes.Contains(body, []byte(`"search_bundles"`)) {
		t.Errorf("tools/list: %d %.200s", status, body)
	}
}
