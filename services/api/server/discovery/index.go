package discovery

import (
	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/services/api/server/mcpserver"
)

// APIIndex is the answer of GET /api/ (contract 4.3).
type APIIndex struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Build       string            `json:"build"`
	BaseURL     string            `json:"base_url"`
	Docs        map[string]string `json:"docs"`
	Endpoints   []Endpoint        `json:"endpoints"`
	MCPTools    []string          `json:"mcp_tools"`
}

// Endpoint is one entry of APIIndex.Endpoints, written from the route table.
type Endpoint struct {
	Method  string `json:"method"`
	Path    string `json:"path"`
	Summary string `json:"summary"`
}

const indexDescription = "Public, free search index of OKF (Open Knowledge Format) bundles: " +
	"search and filter bundles, read one bundle's card, read index statistics, submit a domain's bundles; " +
	"over JSON and MCP. No account, no quota."

// apiIndex builds the index of this deployment from the route table and
// the MCP tool list.
func (s *Service) apiIndex() APIIndex {
	idx := APIIndex{
		Name:        AppName,
		Description: indexDescription,
		Build:       s.d.Build,
		BaseURL:     s.d.BaseURL,
		Docs: map[string]string{
			"llms_txt":        s.d.BaseURL + "/llms.txt",
			"llms_full_txt":   s.d.BaseURL + "/llms-full.txt",
			"openapi":         s.d.BaseURL + "/openapi.json",
			"mcp":             s.d.BaseURL + "/mcp",
			"ui":              s.d.BaseURL + "/",
			"okf":             s.d.BaseURL + "/okf/index.md",
			"agent_card":      s.d.BaseURL + "/.well-known/agent-card.json",
			"api_catalog":     s.d.BaseURL + "/.well-known/api-catalog",
			"mcp_server_card": s.d.BaseURL + "/.well-known/mcp/server-card.json",
			"atom":            s.d.BaseURL + "/feed.atom",
		},
		Endpoints: []Endpoint{},
		MCPTools:  mcpserver.ToolNames(s.all, s.d.Full),
	}
	for _, r := range s.routes {
		idx.Endpoints = append(idx.Endpoints, Endpoint{r.Method, r.Path, r.Summary})
	}
	return idx
}

// getAPIIndex answers GET /api/ with the index computed at start.
func (s *Service) getAPIIndex(c echo.Context) error {
	return s.writeDocument(c, echo.MIMEApplicationJSON, s.indexJSON)
}
