package discovery

import (
	"context"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/okfindex/okf-index/services/api/server/openapi"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// AppName is the service's display name, in the health and index answers
// and the documents.
const AppName = "OKF Index"

// Deps are what the discovery documents are written from.
type Deps struct {
	BaseURL         string    // PUBLIC_BASE_URL without a trailing slash
	Full            bool      // the variant is full
	Build           string    // the published commit
	Started         time.Time // the Last-Modified of every document written at start
	SecurityContact string    // SECURITY_CONTACT
	MCPRegistryAuth string    // MCP_REGISTRY_AUTH
	Payments        Payments  // the full variant's payments (package billing)
	MetricsToken    string    // the operator token: GET /api/health's operator side
}

// Payments is what the documents say of the full variant's payments.
type Payments interface {
	// PaidResources are the paid routes as the x402 manifest lists them.
	PaidResources(baseURL string) []map[string]any
	// ModeName is the payment mode (X402_MODE), for the operator.
	ModeName() string
}

// Service answers the discovery routes.
type Service struct {
	d      Deps
	routes []route.Route // this deployment's routes
	all    []route.Route // the route table of both variants

	index       APIIndex
	indexJSON   []byte
	healthJSON  []byte
	openAPIJSON []byte
	docs        *discoveryDocs
}

// New builds the discovery routes of d; Publish writes their documents.
func New(d Deps) *Service { return &Service{d: d} }

// Publish writes the documents once the route table (routes, this
// variant's; all, both variants') and the MCP server (tools, as
// tools/list reports them) exist.
func (s *Service) Publish(routes, all []route.Route, tools []*mcp.Tool) error {
	s.routes, s.all = routes, all
	var err error
	if s.docs, err = s.newDiscoveryDocs(tools); err != nil {
		return err
	}
	s.index = s.apiIndex()
	if s.indexJSON, err = respond.Marshal(s.index); err != nil {
		return err
	}
	if s.healthJSON, err = respond.Marshal(Health{OK: true, App: AppName, Build: s.d.Build}); err != nil {
		return err
	}
	if s.openAPIJSON, err = openapi.Published(s.d.BaseURL, s.d.Full); err != nil {
		return err
	}
	return nil
}

// IndexRoutes are the rows of GET /api/ (with the api_index tool) and GET
// /api/health.
func (s *Service) IndexRoutes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/api/", Summary: "Self-described index of the API",
			Handler: s.getAPIIndex, Usage: route.CountedAsAPI, Tool: &route.Tool{Def: &mcp.Tool{
				Name:  "api_index",
				Title: "Describe the index",
				Description: "Describe this index: name, build, public base URL, documentation links (llms.txt, OpenAPI, " +
					"MCP, web page), every REST endpoint of this deployment and the MCP tools. The same JSON as GET /api/. " +
					"Takes no arguments.",
				Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)},
			}, Call: func(context.Context, map[string]any) (any, error) { return s.index, nil }}},
		{Method: http.MethodGet, Path: "/api/health", Summary: "Liveness and published build",
			Handler: s.getHealth, Usage: route.NotCounted, Credentials: route.TakesOperatorToken},
	}
}

// Routes are the rows of the documents.
func (s *Service) Routes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/openapi.json", Summary: "This OpenAPI document",
			Handler: s.getOpenAPI, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/llms.txt", Summary: "llms.txt: the service for language models",
			Handler: s.getLLMs, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/llms-full.txt", Summary: "llms.txt with the documentation inlined",
			Handler: s.getLLMsFull, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/okf/{arquivo}", Summary: "The service's documentation, an OKF bundle",
			Handler: s.getOKF, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/agent.json", Summary: "Agent card",
			Handler: s.getAgentCard, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/agent-card.json", Summary: "Agent card",
			Handler: s.getAgentCard, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/api-catalog", Summary: "API catalog (RFC 9727 linkset)",
			Handler: s.getAPICatalog, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/security.txt", Summary: "Security contact (RFC 9116)",
			Handler: s.getSecurityTxt, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/x402", Summary: "x402 payment manifest",
			Handler: s.getX402, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/mcp-registry-auth", Summary: "MCP registry domain proof",
			Handler: s.getMCPRegistryAuth, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/apis.json", Summary: "APIs.json 0.19 document",
			Handler: s.getAPIsJSON, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/.well-known/mcp/server-card.json", Summary: "MCP server card",
			Handler: s.getServerCard, Usage: route.CountedAsDoc},
		{Method: http.MethodGet, Path: "/apis.json", Summary: "APIs.json 0.19 document",
			Handler: s.getAPIsJSON, Usage: route.CountedAsDoc},
	}
}

// Index is GET /api/'s document, as published.
func (s *Service) Index() APIIndex { return s.index }
