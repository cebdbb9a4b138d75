package discovery

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/okfindex/okf-index/services/api/server/mcpserver"
)

// agentCard is the agent card (contract 4.3) at /agent.json and
// /.well-known/agent-card.json. It carries the contract's fields (provider,
// protocol, interfaces, skills) and those A2A readers require: v1.0's
// supportedInterfaces, capabilities and input/output modes, and v0.3's
// top-level url and protocolVersion. The service speaks MCP, not A2A's own
// methods, so its interface binding is named MCP.
func (s *Service) agentCard() map[string]any {
	mcpURL := s.d.BaseURL + "/mcp"
	var skills []map[string]any
	for _, t := range mcpserver.Tools(s.all) {
		if t.Full && !s.d.Full {
			continue
		}
		skills = append(skills, map[string]any{
			"id":          t.Def.Name,
			"name":        t.Def.Title,
			"description": t.Def.Description,
			"tags":        []string{"okf", "mcp-tool"},
		})
	}
	return map[string]any{
		"name":        AppName,
		"description": indexDescription,
		"version":     s.d.Build,
		"provider":    map[string]any{"organization": AppName, "url": s.d.BaseURL},
		"protocol":    "mcp",
		"url":         mcpURL,
		// A2A v0.3 readers take protocolVersion and preferredTransport at the top.
		"protocolVersion":    "0.3.0",
		"preferredTransport": "MCP",
		"interfaces": []map[string]any{
			{"protocol": "mcp", "transport": "streamable-http", "url": mcpURL, "protocolVersions": mcp.SupportedProtocolVersions()},
			{"protocol": "rest", "url": s.d.BaseURL + "/api/", "openapi": s.d.BaseURL + "/openapi.json"},
		},
		"supportedInterfaces": []map[string]any{
			{"url": mcpURL, "protocolBinding": "MCP", "protocolVersion": "1.0"},
		},
		"capabilities":       map[string]any{"streaming": false, "pushNotifications": false, "extendedAgentCard": false},
		"defaultInputModes":  []string{"application/json"},
		"defaultOutputModes": []string{"application/json"},
		"skills":             skills,
		"documentationUrl":   s.d.BaseURL + "/okf/index.md",
	}
}

// apiCatalog is the RFC 9727 linkset: the catalog lists the REST API and
// the MCP endpoint, and describes each with its service description,
// documentation and status.
func (s *Service) apiCatalog() map[string]any {
	link := func(href, typ string) []map[string]string {
		return []map[string]string{{"href": href, "type": typ}}
	}
	return map[string]any{"linkset": []map[string]any{
		{
			"anchor": s.d.BaseURL + "/.well-known/api-catalog",
			"item":   []map[string]string{{"href": s.d.BaseURL + "/api/"}, {"href": s.d.BaseURL + "/mcp"}},
		},
		{
			"anchor":       s.d.BaseURL + "/api/",
			"service-desc": link(s.d.BaseURL+"/openapi.json", "application/openapi+json"),
			"service-doc":  link(s.d.BaseURL+"/okf/api.md", "text/markdown"),
			"status":       link(s.d.BaseURL+"/api/health", "application/json"),
		},
		{
			"anchor":      s.d.BaseURL + "/mcp",
			"service-doc": link(s.d.BaseURL+"/okf/api.md", "text/markdown"),
			"service-meta": []map[string]string{
				{"href": s.d.BaseURL + "/.well-known/agent-card.json", "type": "application/json"},
				{"href": s.d.BaseURL + "/.well-known/mcp/server-card.json", "type": "application/json"},
			},
			"status": link(s.d.BaseURL+"/api/health", "application/json"),
		},
	}}
}

// apisJSON is the APIs.json 0.19 document.
func (s *Service) apisJSON() map[string]any {
	props := []map[string]string{
		{"type": "OpenAPI", "url": s.d.BaseURL + "/openapi.json"},
		{"type": "Documentation", "url": s.d.BaseURL + "/okf/api.md"},
		{"type": "X-llms-txt", "url": s.d.BaseURL + "/llms.txt"},
		{"type": "X-MCP", "url": s.d.BaseURL + "/mcp"},
		{"type": "X-agent-card", "url": s.d.BaseURL + "/.well-known/agent-card.json"},
		{"type": "RateLimits", "url": s.d.BaseURL + "/okf/faq.md"},
	}
	if s.d.Full {
		props = append(props, map[string]string{"type": "Pricing", "url": s.d.BaseURL + "/api/pricing"})
	}
	return map[string]any{
		"name":                 AppName,
		"description":          indexDescription,
		"url":                  s.d.BaseURL + "/apis.json",
		"specificationVersion": "0.19",
		"created":              "2026-11-25",
		"tags":                 []string{"okf", "open knowledge format", "search", "mcp", "indexnow"},
		"apis": []map[string]any{{
			"name":        AppName + " API",
			"description": "Search and filter OKF bundles, read one bundle's card and index statistics; submit a domain's bundles with IndexNow; the same over MCP at /mcp.",
			"humanURL":    s.d.BaseURL + "/",
			"baseURL":     s.d.BaseURL + "/api",
			"tags":        []string{"okf", "search"},
			"properties":  props,
		}},
		"maintainers": []map[string]string{{"FN": AppName, "url": s.d.BaseURL + "/okf/sobre.md"}},
	}
}

// x402Manifest is the payment manifest at /.well-known/x402: which routes
// are paid and how. A base deployment has none, and says so.
func (s *Service) x402Manifest() map[string]any {
	m := map[string]any{
		"x402Version": 1,
		"service":     AppName,
		"paid":        s.d.Full,
		"resources":   []map[string]any{},
		"free":        "Search, bundle cards, statistics, discovery documents and MCP are free and need no payment.",
	}
	if !s.d.Full {
		m["description"] = "No route of this deployment is paid."
		return m
	}
	m["description"] = "Agent contact is paid per message after the first free one; prepaid credit is sold in packages."
	m["pricing"] = s.d.BaseURL + "/api/pricing"
	m["billing"] = s.d.BaseURL + "/api/billing"
	m["resources"] = s.d.Payments.PaidResources(s.d.BaseURL)
	return m
}
