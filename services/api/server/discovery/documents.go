// Package discovery serves how people and agents find and use the
// service on their own (contract 4.3): GET /api/ (the endpoints of this
// deployment and its MCP tools), the health answer, the OpenAPI document,
// llms.txt, the documentation bundle, the agent card, the API catalog,
// security.txt, the x402 manifest, APIs.json, the MCP server card, and the
// Link headers on every answer. Every document is written once at start
// (Publish) from the configured public base URL, except security.txt,
// whose Expires moves with the clock.
package discovery

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/okfindex/okf-index/api"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// MIMELinkset is the content type of the API catalog (RFC 9727).
const MIMELinkset = `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`

// securityTxtLifetime is how far ahead security.txt's Expires lies; RFC 9116
// asks for less than a year.
const securityTxtLifetime = 180 * 24 * time.Hour

// discoveryDocs are the documents computed at start.
type discoveryDocs struct {
	agentCard  []byte
	apiCatalog []byte
	apisJSON   []byte
	x402       []byte
	serverCard []byte
	llms       string
	llmsFull   string
	okf        map[string]string
	// modified is the Last-Modified of every document built at start:
	// they change only when the process starts with another build or
	// configuration.
	modified time.Time
}

// newDiscoveryDocs writes the documents of the deployment; tools are the
// MCP tools as tools/list reports them.
func (s *Service) newDiscoveryDocs(tools []*mcp.Tool) (*discoveryDocs, error) {
	d := &discoveryDocs{okf: map[string]string{}, modified: s.d.Started}
	var err error
	if d.agentCard, err = respond.Marshal(s.agentCard()); err != nil {
		return nil, err
	}
	if d.apiCatalog, err = respond.Marshal(s.apiCatalog()); err != nil {
		return nil, err
	}
	if d.apisJSON, err = respond.Marshal(s.apisJSON()); err != nil {
		return nil, err
	}
	if d.x402, err = respond.Marshal(s.x402Manifest()); err != nil {
		return nil, err
	}
	if d.serverCard, err = respond.Marshal(s.serverCard(tools)); err != nil {
		return nil, err
	}
	d.llms = api.Expand(api.LLMs, s.d.BaseURL)
	var full strings.Builder
	full.WriteString(d.llms)
	for _, name := range api.OKFFiles {
		text, _ := api.OKF(name)
		d.okf[name] = api.Expand(text, s.d.BaseURL)
		full.WriteString("\n\n---\n\n<!-- " + s.d.BaseURL + "/okf/" + name + " -->\n\n")
		full.WriteString(d.okf[name])
	}
	d.llmsFull = full.String()
	return d, nil
}

// getAgentCard answers GET /agent.json and GET /.well-known/agent-card.json.
func (s *Service) getAgentCard(c echo.Context) error {
	return s.writeDocument(c, echo.MIMEApplicationJSON, s.docs.agentCard)
}

// getAPICatalog answers GET and HEAD /.well-known/api-catalog (RFC 9727).
// Every answer's Link header names the catalog (links.go).
func (s *Service) getAPICatalog(c echo.Context) error {
	return s.writeDocument(c, MIMELinkset, s.docs.apiCatalog)
}

// getSecurityTxt answers GET /.well-known/security.txt (RFC 9116).
func (s *Service) getSecurityTxt(c echo.Context) error {
	now := time.Now()
	// Its text changes at the start of each UTC day (Expires).
	return respond.Conditional(c, respond.MIMEText, []byte(s.securityTxt(now)), now.UTC().Truncate(24*time.Hour), respond.CacheDocument)
}

// getX402 answers GET /.well-known/x402.
func (s *Service) getX402(c echo.Context) error {
	return s.writeDocument(c, echo.MIMEApplicationJSON, s.docs.x402)
}

// getMCPRegistryAuth answers GET /.well-known/mcp-registry-auth: the MCP
// registry's proof line for this domain, from MCP_REGISTRY_AUTH. Without
// one the answer says so in a comment line, so the path still answers as
// the contract publishes it.
func (s *Service) getMCPRegistryAuth(c echo.Context) error {
	line := s.d.MCPRegistryAuth
	if line == "" {
		line = "# No MCP registry key is configured for this deployment (MCP_REGISTRY_AUTH)."
	}
	return s.writeDocument(c, respond.MIMEText, []byte(line+"\n"))
}

// getAPIsJSON answers GET /apis.json and GET /.well-known/apis.json.
func (s *Service) getAPIsJSON(c echo.Context) error {
	return s.writeDocument(c, echo.MIMEApplicationJSON, s.docs.apisJSON)
}

// getLLMs answers GET /llms.txt.
func (s *Service) getLLMs(c echo.Context) error {
	return s.writeDocument(c, respond.MIMEText, []byte(s.docs.llms))
}

// getLLMsFull answers GET /llms-full.txt: llms.txt with the documentation
// bundle inlined.
func (s *Service) getLLMsFull(c echo.Context) error {
	return s.writeDocument(c, respond.MIMEText, []byte(s.docs.llmsFull))
}

// getOKF answers GET /okf/{arquivo}: one file of the service's own
// documentation bundle; any other name is a 404.
func (s *Service) getOKF(c echo.Context) error {
	text, ok := s.docs.okf[c.Param("arquivo")]
	if !ok {
		return apierror.New(apierror.NotFound, "The documentation bundle has index.md, sobre.md, api.md and faq.md; start at index.md.")
	}
	return s.writeDocument(c, respond.MIMEMarkdown, []byte(text))
}

// writeDocument answers a document built at start, conditionally
// (respond.Conditional), cached for an hour.
func (s *Service) writeDocument(c echo.Context, contentType string, body []byte) error {
	return respond.Conditional(c, contentType, body, s.docs.modified, respond.CacheDocument)
}

// securityTxt is the RFC 9116 file as of now: Expires lies
// securityTxtLifetime ahead, from the start of the current UTC day, so the
// text changes once a day.
func (s *Service) securityTxt(now time.Time) string {
	expires := now.UTC().Truncate(24 * time.Hour).Add(securityTxtLifetime)
	return "Contact: " + s.d.SecurityContact + "\n" +
		"Expires: " + expires.Format(time.RFC3339) + "\n" +
		"Preferred-Languages: en, pt\n" +
		"Canonical: " + s.d.BaseURL + "/.well-known/security.txt\n" +
		"Policy: " + s.d.BaseURL + "/okf/sobre.md\n"
}

// getOpenAPI answers GET /openapi.json with the document computed at start.
func (s *Service) getOpenAPI(c echo.Context) error {
	return s.writeDocument(c, echo.MIMEApplicationJSON, s.openAPIJSON)
}

// OKFDoc is one file of the service's documentation bundle, as GET
// /okf/{name} serves it (the base URL filled in); ok is false for any
// other name. The web page renders it for people.
func (s *Service) OKFDoc(name string) (text string, ok bool) {
	text, ok = s.docs.okf[name]
	return text, ok
}

// OKFDocNames are the files of the documentation bundle, index.md first.
func (s *Service) OKFDocNames() []string {
	names := []string{"index.md"}
	for _, n := range slices.Sorted(maps.Keys(s.docs.okf)) {
		if n != "index.md" {
			names = append(names, n)
		}
	}
	return names
}
