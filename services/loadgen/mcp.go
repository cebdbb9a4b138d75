package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// mcpProtocol is the MCP protocol version the harness speaks.
const mcpProtocol = "2025-06-18"

// mcpSession is one MCP client of the API's streamable HTTP endpoint: its
// own connection pool, initialized once, then tools/call after tools/call.
// The API's MCP server is stateless (no Mcp-Session-Id); when a server
// names a session, every later request carries it.
type mcpSession struct {
	endpoint string
	client   *http.Client
	id       string // Mcp-Session-Id, when the server gave one
}

// newMCPSession connects a client to endpoint and initializes it.
func newMCPSession(ctx context.Context, endpoint string) (*mcpSession, error) {
	s := &mcpSession{endpoint: endpoint, client: &http.Client{Transport: newTransport()}}
	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"okf-loadgen","version":"1"}}}`, mcpProtocol)
	resp, body, err := s.post(ctx, init)
	if err != nil {
		return nil, fmt.Errorf("mcp initialize: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("mcp initialize: %s: %s", resp.Status, body)
	}
	var r struct {
		Result *struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.Result == nil {
		return nil, fmt.Errorf("mcp initialize: no result in %.200s", body)
	}
	s.id = resp.Header.Get("Mcp-Session-Id")
	resp, body, err = s.post(ctx, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if err != nil {
		return nil, fmt.Errorf("mcp initialized: %w", err)
	}
	if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("mcp initialized: %s: %s", resp.Status, body)
	}
	return s, nil
}

func (s *mcpSession) post(ctx context.Context, msg string) (*http.Response, []byte, error) {
	req := s.request(msg)
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	resp, err := s.client.Do(req.WithContext(ctx))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	return resp, body, err
}

func (s *mcpSession) request(msg string) *http.Request {
	req := mustRequest("POST", s.endpoint, []byte(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", mcpProtocol)
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
	}
	return req
}

// toolCall is the k-th tools/call request of this session.
func (s *mcpSession) toolCall(k int, tool string, args map[string]any) *http.Request {
	params, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
	return s.request(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, k+1, params))
}

// checkToolResult says what is wrong with the answer of a tools/call: a
// JSON-RPC error, a tool error, or no structured result.
func checkToolResult(body []byte) string {
	var r struct {
		Result *struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	switch err := json.Unmarshal(body, &r); {
	case err != nil:
		return "not JSON-RPC: " + err.Error()
	case r.Error != nil:
		return "error: " + r.Error.Message
	case r.Result == nil:
		return "no result"
	case r.Result.IsError:
		return "tool error"
	case len(r.Result.StructuredContent) == 0:
		return "no structured content"
	}
	return ""
}

// newTransport is a keep-alive transport for many concurrent requests to
// one loopback host, over at most maxConns connections: the harness stands
// for many clients behind a proxy, which keeps a bounded pool of
// connections to the API, not one per request in flight. A request waits
// for a free connection in the harness, and that wait counts in its
// latency (from its due time). Without the bound a stall of a few
// milliseconds made the harness open hundreds of connections that then
// stayed open, idle, holding the API's buffers and goroutines.
func newTransport() *http.Transport {
	return &http.Transport{
		MaxConnsPerHost:     maxConns,
		MaxIdleConns:        maxConns,
		MaxIdleConnsPerHost: maxConns,
		IdleConnTimeout:     90 * time.Second,
	}
}

// maxConns bounds the connections of one transport.
const maxConns = 256
