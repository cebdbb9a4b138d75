package smoke

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"strings"
)

// document is a discovery document: its path, media type, and a fragment
// its body must hold.
type document struct {
	path, mediaType, holds string
}

// documents are the discovery documents of contract 4.3.
var documents = []document{
	{"/", "text/html", "<html"},
	{"/openapi.json", "application/json", `"openapi"`},
	{"/llms.txt", "text/plain", "# "},
	{"/llms-full.txt", "text/plain", "okf_version"},
	{"/okf/index.md", "text/markdown", "okf_version"},
	{"/okf/sobre.md", "text/markdown", "# "},
	{"/okf/api.md", "text/markdown", "# "},
	{"/okf/faq.md", "text/markdown", "# "},
	{"/agent.json", "application/json", `"protocol"`},
	{"/.well-known/agent-card.json", "application/json", `"skills"`},
	{"/.well-known/api-catalog", "application/linkset+json", `"linkset"`},
	{"/.well-known/security.txt", "text/plain", "Expires: "},
	{"/.well-known/x402", "application/json", `"x402Version"`},
	{"/.well-known/mcp-registry-auth", "text/plain", ""},
	{"/.well-known/apis.json", "application/json", `"specificationVersion"`},
	{"/apis.json", "application/json", `"apis"`},
	{"/feed.atom", "application/atom+xml", "<feed"},
}

// unknownDocuments must answer 404 (never an HTML 200).
var unknownDocuments = []string{"/okf/house-smoke.md", "/.well-known/house-smoke"}

// documentChecks are one check per document and per unknown name.
func (s *suite) documentChecks() []check {
	var cs []check
	for _, d := range documents {
		cs = append(cs, check{name: "GET " + d.path, run: func(ctx context.Context, s *suite) error {
			r, err := s.call(ctx, "GET", d.path, nil, nil)
			if err != nil {
				return err
			}
			if r.status != 200 {
				return fmt.Errorf("status %d, want 200", r.status)
			}
			if mt, _, _ := mime.ParseMediaType(r.header.Get("Content-Type")); mt != d.mediaType {
				return fmt.Errorf("Content-Type %q, want %s", r.header.Get("Content-Type"), d.mediaType)
			}
			if !bytes.Contains(r.body, []byte(d.holds)) {
				return fmt.Errorf("the body does not hold %q", d.holds)
			}
			return nil
		}})
	}
	for _, p := range unknownDocuments {
		cs = append(cs, check{name: "GET " + p + " (unknown)", run: func(ctx context.Context, s *suite) error {
			return s.wantError(ctx, "GET", p, nil, 404, "")
		}})
	}
	return cs
}

// checkMCP initializes an MCP session over streamable HTTP, lists the
// tools and calls index_stats, as an agent would.
func checkMCP(ctx context.Context, s *suite) error {
	rpc := func(method, params string) (json.RawMessage, error) {
		msg := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
		r, err := s.call(ctx, "POST", "/mcp", strings.NewReader(msg), map[string]string{
			"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"MCP-Protocol-Version": "2025-11-25",
		})
		if err != nil {
			return nil, err
		}
		var answer struct {
			Result json.RawMessage
			Error  *struct{ Message string }
		}
		if err := r.expectJSON(200, &answer, "jsonrpc"); err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		if answer.Error != nil {
			return nil, fmt.Errorf("%s: JSON-RPC error %s", method, answer.Error.Message)
		}
		return answer.Result, nil
	}
	if _, err := rpc("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"house-smoke","version":"1"}}`); err != nil {
		return err
	}
	raw, err := rpc("tools/list", `{}`)
	if err != nil {
		return err
	}
	var list struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(raw, &list); err != nil || len(list.Tools) != s.tools {
		return fmt.Errorf("tools/list has %d tools, want the %d of GET /api/ (%v)", len(list.Tools), s.tools, err)
	}
	raw, err = rpc("tools/call", `{"name":"index_stats","arguments":{}}`)
	if err != nil {
		return err
	}
	var call struct {
		IsError           bool
		StructuredContent map[string]any
	}
	if err := json.Unmarshal(raw, &call); err != nil || call.IsError || call.StructuredContent["total"] == nil {
		return fmt.Errorf("tools/call index_stats: %s", raw)
	}
	return nil
}
