package discovery

import (
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP server card (draft SEP-2127, read by registries and scanners) at
// /.well-known/mcp/server-card.json: who the server is, what it can do,
// where it answers and over which transport, and its tools exactly as
// tools/list reports them (the same definitions and schemas, kept by
// mcpserver.New), so a registry can list the server without opening a
// session.

// serverCard is the card's document. Its tools are in tools/list's order
// (the SDK lists them by name).
func (s *Service) serverCard(tools []*mcp.Tool) map[string]any {
	tools = slices.SortedFunc(slices.Values(tools), func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	return map[string]any{
		"$schema":     "https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json",
		"name":        "okf-index",
		"title":       AppName,
		"version":     s.d.Build,
		"description": indexDescription,
		"websiteUrl":  s.d.BaseURL + "/",
		"capabilities": map[string]any{
			"tools": map[string]any{"listChanged": false},
		},
		"remotes": []map[string]string{
			{"type": "streamable-http", "url": s.d.BaseURL + "/mcp"},
		},
		"documentation": s.d.BaseURL + "/okf/api.md",
		"tools":         tools,
	}
}

// getServerCard answers GET /.well-known/mcp/server-card.json.
func (s *Service) getServerCard(c echo.Context) error {
	return s.writeDocument(c, echo.MIMEApplicationJSON, s.docs.serverCard)
}
