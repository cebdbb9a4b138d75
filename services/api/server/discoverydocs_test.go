package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/api"
	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/discovery"
	"github.com/okfindex/okf-index/services/api/server/mcpserver"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// getDoc fetches a document, checks status 200 and its content type, and
// returns the body.
func (a *testAPI) getDoc(path, contentType string) []byte {
	a.t.Helper()
	resp, body := a.do(http.MethodGet, path, nil)
	if resp.StatusCode != 200 {
		a.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	if got := resp.Header.Get("Content-Type"); got != contentType {
		a.t.Errorf("GET %s: Content-Type %q, want %q", path, got, contentType)
	}
	if bytes.Contains(body, []byte(api.BaseURLPlaceholder)) {
		a.t.Errorf("GET %s: the base URL placeholder was left in", path)
	}
	return body
}

func TestAgentCard(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		a := newAPI(t, variant)
		body := a.getDoc("/agent.json", "application/json")
		if wk := a.getDoc("/.well-known/agent-card.json", "application/json"); !bytes.Equal(body, wk) {
			t.Errorf("%s: /agent.json and /.well-known/agent-card.json differ", variant)
		}
		var card struct {
			Name, Description, Version, Protocol, URL string
			Provider                                  struct{ Organization, URL string }
			Interfaces                                []struct{ Protocol, URL string }
			SupportedInterfaces                       []struct{ URL, ProtocolBinding, ProtocolVersion string }
			Capabilities                              map[string]any
			DefaultInputModes, DefaultOutputModes     []string
			Skills                                    []struct {
				ID, Name, Description string
				Tags                  []string
			}
		}
		if err := json.Unmarshal(body, &card); err != nil {
			t.Fatal(err)
		}
		mcpURL := publicBase + "/mcp"
		if card.Name != AppName || card.Description == "" || card.Version != "test-build" || card.Protocol != "mcp" ||
			card.Provider.Organization == "" || card.Provider.URL != publicBase || card.URL != mcpURL ||
			card.Capabilities == nil || len(card.DefaultInputModes) == 0 || len(card.DefaultOutputModes) == 0 {
			t.Errorf("%s: card %+v", variant, card)
		}
		if len(card.Interfaces) == 0 || card.Interfaces[0].Protocol != "mcp" || card.Interfaces[0].URL != mcpURL {
			t.Errorf("%s: interfaces %+v", variant, card.Interfaces)
		}
		if len(card.SupportedInterfaces) == 0 || card.SupportedInterfaces[0].URL != mcpURL ||
			card.SupportedInterfaces[0].ProtocolBinding == "" || card.SupportedInterfaces[0].ProtocolVersion == "" {
			t.Errorf("%s: supportedInterfaces %+v", variant, card.SupportedInterfaces)
		}
		var skills []string
		for _, s := range card.Skills {
			if s.Name == "" || s.Description == "" || len(s.Tags) == 0 {
				t.Errorf("%s: skill %+v", variant, s)
			}
			skills = append(skills, s.ID)
		}
		if want := mcpserver.ToolNames((&Server{}).routeTable(), variant == config.VariantFull); !slices.Equal(skills, want) {
			t.Errorf("%s: skills %v, want the MCP tools %v", variant, skills, want)
		}
	}
}

func TestAPICatalog(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	body := a.getDoc("/.well-known/api-catalog", discovery.MIMELinkset)
	var doc struct {
		Linkset []map[string]json.RawMessage
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]json.RawMessage{}
	for _, l := range doc.Linkset {
		var anchor string
		_ = json.Unmarshal(l["anchor"], &anchor)
		anchors[anchor] = l
	}
	catalog := anchors[publicBase+"/.well-known/api-catalog"]
	if catalog == nil || !bytes.Contains(catalog["item"], []byte(`"`+publicBase+`/api/"`)) {
		t.Errorf("the catalog does not list the API: %s", body)
	}
	apiEntry := anchors[publicBase+"/api/"]
	if apiEntry == nil || !bytes.Contains(apiEntry["service-desc"], []byte(publicBase+"/openapi.json")) ||
		!bytes.Contains(apiEntry["service-desc"], []byte("application/openapi+json")) || apiEntry["status"] == nil || apiEntry["service-doc"] == nil {
		t.Errorf("the API's entry lacks service-desc, service-doc or status: %s", body)
	}
	// Every link of the catalog answers (the MCP endpoint takes POST).
	for _, href := range regexp.MustCompile(`"href":"([^"]+)"`).FindAllStringSubmatch(string(body), -1) {
		if href[1] != publicBase+"/mcp" {
			a.get(href[1], 200, nil)
		}
	}

	resp, head := a.do(http.MethodHead, "/.well-known/api-catalog", nil)
	if resp.StatusCode != 200 || len(head) != 0 || resp.Header.Get("Content-Type") != discovery.MIMELinkset ||
		!strings.Contains(resp.Header.Get("Link"), "<"+publicBase+"/.well-known/api-catalog>; rel=\"api-catalog\"") {
		t.Errorf("HEAD api-catalog: %d %q %v", resp.StatusCode, head, resp.Header)
	}
}

func TestSecurityTxt(t *testing.T) {
	t.Parallel()
	a := newAPIWith(t, storetest.NewStore(t), map[string]string{"PUBLIC_BASE_URL": publicBase, "SECURITY_CONTACT": "mailto:security@okf-index.example"})
	body := a.getDoc("/.well-known/security.txt", respond.MIMEText)
	fields := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			t.Errorf("line %q is not a field", sc.Text())
		}
		fields[k] = append(fields[k], v)
	}
	if !slices.Equal(fields["Contact"], []string{"mailto:security@okf-index.example"}) {
		t.Errorf("Contact %v", fields["Contact"])
	}
	if len(fields["Expires"]) != 1 {
		t.Fatalf("Expires %v, want one", fields["Expires"])
	}
	expires, err := time.Parse(time.RFC3339, fields["Expires"][0])
	if err != nil || !expires.After(time.Now().Add(30*24*time.Hour)) || !expires.Before(time.Now().AddDate(1, 0, 0)) {
		t.Errorf("Expires %v (%v): want RFC 3339, in the future, under a year ahead", fields["Expires"], err)
	}
	if !slices.Equal(fields["Canonical"], []string{publicBase + "/.well-known/security.txt"}) || len(fields["Policy"]) != 1 {
		t.Errorf("Canonical %v Policy %v", fields["Canonical"], fields["Policy"])
	}
}

func TestWellKnownUnknownNames(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	for _, p := range []string{"/.well-known/openid-configuration", "/.well-known/security", "/.well-known/", "/.well-known/x402/",
		"/.well-known/API-CATALOG", "/.well-known/apis.json.bak", "/okf/readme.md", "/okf/INDEX.md", "/okf/", "/okf/index", "/okf/%2e%2e%2fopenapi.json"} {
		e := a.getError(p, 404, apierror.NotFound)
		if e.Message == "" {
			t.Errorf("%s: empty message", p)
		}
	}
}

func TestX402Manifest(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		a := newAPI(t, variant)
		var m struct {
			X402Version int
			Paid        bool
			Description string
			Resources   []struct{ Resource, Method string }
		}
		if err := json.Unmarshal(a.getDoc("/.well-known/x402", "application/json"), &m); err != nil {
			t.Fatal(err)
		}
		if m.X402Version != 1 || m.Description == "" {
			t.Errorf("%s: %+v", variant, m)
		}
		full := variant == config.VariantFull
		if m.Paid != full || (len(m.Resources) > 0) != full {
			t.Errorf("%s: paid %v with %d resources", variant, m.Paid, len(m.Resources))
		}
		if full && (m.Resources[0].Resource != publicBase+"/api/contact" || m.Resources[0].Method != "POST") {
			t.Errorf("full: resources %+v", m.Resources)
		}
	}
}

func TestMCPRegistryAuth(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	line := "v=MCPv1; k=ed25519; p=MCowBQYDK2VwAyEAzC2vk3W1rJvR2Pm0fWvE7Q9rXKOQH4l1x9cUe3wA4jM="
	a := newAPIWith(t, st, map[string]string{"PUBLIC_BASE_URL": publicBase, "MCP_REGISTRY_AUTH": line})
	if got := string(a.getDoc("/.well-known/mcp-registry-auth", respond.MIMEText)); got != line+"\n" {
		t.Errorf("configured: %q", got)
	}
	b := newAPIOn(t, st, config.VariantBase)
	if got := string(b.getDoc("/.well-known/mcp-registry-auth", respond.MIMEText)); !strings.HasPrefix(got, "# ") {
		t.Errorf("unconfigured: %q, want a comment line", got)
	}
}

func TestAPIsJSON(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		a := newAPI(t, variant)
		body := a.getDoc("/apis.json", "application/json")
		if wk := a.getDoc("/.well-known/apis.json", "application/json"); !bytes.Equal(body, wk) {
			t.Errorf("/apis.json and /.well-known/apis.json differ")
		}
		var doc struct {
			Name, Description, URL, SpecificationVersion string
			APIs                                         []struct {
				Name, Description, BaseURL, HumanURL string
				Properties                           []struct{ Type, URL string }
			}
			Maintainers []struct{ FN string }
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.SpecificationVersion != "0.19" || doc.Name == "" || doc.URL != publicBase+"/apis.json" || len(doc.APIs) != 1 || len(doc.Maintainers) == 0 {
			t.Fatalf("%s: %+v", variant, doc)
		}
		api := doc.APIs[0]
		if api.BaseURL != publicBase+"/api" || api.HumanURL == "" || api.Name == "" || api.Description == "" {
			t.Errorf("%s: api %+v", variant, api)
		}
		types := map[string]string{}
		for _, p := range api.Properties {
			types[p.Type] = p.URL
			if !strings.HasPrefix(p.Type, "X-") && !slices.Contains([]string{"OpenAPI", "Documentation", "RateLimits", "Pricing"}, p.Type) {
				t.Errorf("%s: property type %q is neither a known type nor an X- extension", variant, p.Type)
			}
		}
		if types["OpenAPI"] != publicBase+"/openapi.json" || types["Documentation"] == "" {
			t.Errorf("%s: properties %+v", variant, api.Properties)
		}
		if _, priced := types["Pricing"]; priced != (variant == config.VariantFull) {
			t.Errorf("%s: Pricing property present: %v", variant, priced)
		}
	}
}

// linkLine is one link of an llms.txt section.
var linkLine = regexp.MustCompile(`^- \[([^\]]+)\]\((\S+)\)(: .+)?$`)

func TestLLMsTxt(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	body := string(a.getDoc("/llms.txt", respond.MIMEText))
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	if lines[0] != "# OKF Index" {
		t.Errorf("first line %q, want the H1", lines[0])
	}
	summary := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "> ") })
	firstSection := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "## ") })
	if summary < 1 || firstSection < summary {
		t.Errorf("want a > summary after the H1 and before the sections:\n%s", body)
	}
	links := 0
	for _, l := range lines[firstSection:] {
		if m := linkLine.FindStringSubmatch(l); m != nil {
			links++
			if !strings.HasPrefix(m[2], publicBase+"/") {
				t.Errorf("link %q is not under the public base URL", m[2])
			} else if m[2] != publicBase+"/mcp" {
				a.get(m[2], 200, nil)
			}
		} else if l != "" && !strings.HasPrefix(l, "## ") {
			t.Errorf("line %q in the sections is neither a heading nor a link", l)
		}
	}
	if links < 8 {
		t.Errorf("%d links, want the documents, the API and discovery", links)
	}

	full := string(a.getDoc("/llms-full.txt", respond.MIMEText))
	if !strings.HasPrefix(full, body) {
		t.Errorf("llms-full.txt does not start with llms.txt")
	}
	for _, name := range api.OKFFiles {
		doc := string(a.getDoc("/okf/"+name, respond.MIMEMarkdown))
		if !strings.Contains(full, doc) {
			t.Errorf("llms-full.txt does not inline %s", name)
		}
	}
}

// TestOKFDocsAreABundle reads the service's documentation as this service
// reads any domain bundle: the root served at /okf/index.md is a bundle
// whose concepts are the other three documents, and it is indexed and found.
func TestOKFDocsAreABundle(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	root := publicBase + "/okf/index.md"
	data := a.getDoc("/okf/index.md", respond.MIMEMarkdown)
	for _, name := range api.OKFFiles[1:] {
		a.getDoc("/okf/"+name, respond.MIMEMarkdown)
	}
	parsed, err := indexer.ParseSite(data, source.Site{URL: root})
	if err != nil {
		t.Fatalf("the served root is not a bundle: %v", err)
	}
	in := parsed.Input
	if in.Card.OKFVersion == "" || in.Low || parsed.Card.NameFellBack {
		t.Errorf("card: version %q, low %v", in.Card.OKFVersion, in.Low)
	}
	var got []string
	for _, c := range in.Card.ConceptList {
		got = append(got, c.URL)
		if c.Name == "" || c.Summary == "" {
			t.Errorf("concept %+v lacks a name or summary", c)
		}
	}
	want := []string{publicBase + "/okf/sobre.md", publicBase + "/okf/api.md", publicBase + "/okf/faq.md"}
	if !slices.Equal(got, want) || in.Card.Concepts != 3 {
		t.Errorf("concepts %v (count %d), want %v", got, in.Card.Concepts, want)
	}

	upsert(t, a.store, in)
	page := a.search("q=" + "okf-index.example")
	if len(page.Items) != 1 || page.Items[0].ID != in.ID || len(page.Items[0].ConceptList) != 3 {
		t.Errorf("the indexed documentation bundle is not found: %+v", page)
	}
}
