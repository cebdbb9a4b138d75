package server

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/okfindex/okf-index/api"
	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/discovery"
	"github.com/okfindex/okf-index/services/api/server/openapi"
	"github.com/okfindex/okf-index/services/api/server/route"
)

var variants = []string{config.VariantBase, config.VariantFull}

// TestEmbeddedOpenAPIValid loads and validates api/openapi.json as committed.
func TestEmbeddedOpenAPIValid(t *testing.T) {
	t.Parallel()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %s", doc.OpenAPI)
	}
}

// TestRouteTableMatchesOpenAPI checks, per variant, that the route table and
// the published document have the same operations, summaries and variant
// marks.
func TestRouteTableMatchesOpenAPI(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		full := variant == config.VariantFull
		doc := loadContract(t, full).doc
		var fromDoc, fromTable []string
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				fromDoc = append(fromDoc, method+" "+path+" | "+op.Summary)
				if _, marked := op.Extensions[openapi.VariantKey]; marked && !full {
					t.Errorf("%s: %s %s still marked full-only", variant, method, path)
				}
			}
		}
		for _, r := range route.ForVariant((&Server{}).routeTable(), full) {
			fromTable = append(fromTable, r.Method+" "+r.Path+" | "+r.Summary)
		}
		slices.Sort(fromDoc)
		slices.Sort(fromTable)
		if !slices.Equal(fromDoc, fromTable) {
			t.Errorf("%s: route table\n  %s\ndocument\n  %s", variant, strings.Join(fromTable, "\n  "), strings.Join(fromDoc, "\n  "))
		}
	}
	// Full-only routes are exactly the operations marked in the embedded document.
	full := loadContract(t, true).doc
	for _, r := range (&Server{}).routeTable() {
		op := full.Paths.Value(r.Path).GetOperation(r.Method)
		_, marked := op.Extensions[openapi.VariantKey]
		if marked != r.Full {
			t.Errorf("%s %s: Full %v, document mark %v", r.Method, r.Path, r.Full, marked)
		}
		if noCORS := op.Extensions[openapi.CORSKey] == false; noCORS != r.Session {
			t.Errorf("%s %s: Session %v, document x-cors false %v", r.Method, r.Path, r.Session, noCORS)
		}
	}
}

func TestAPIIndex(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		t.Run(variant, func(t *testing.T) {
			a := newAPI(t, variant)
			var idx discovery.APIIndex
			a.get("/api/", 200, &idx)
			if idx.Name != AppName || idx.Build != "test-build" || idx.BaseURL != publicBase || idx.Description == "" {
				t.Errorf("index %+v", idx)
			}
			for _, k := range []string{"llms_txt", "llms_full_txt", "openapi", "mcp", "ui", "okf", "agent_card", "api_catalog"} {
				if !strings.HasPrefix(idx.Docs[k], publicBase+"/") {
					t.Errorf("docs[%s] = %q, want a URL under the public base", k, idx.Docs[k])
				}
			}
			for k, link := range idx.Docs { // every document answers, except /mcp, which takes POST
				if k != "mcp" {
					a.get(link, 200, nil)
				}
			}
			wantTools := []string{"api_index", "search_bundles", "get_bundle", "index_stats", "submit_bundles"}
			if variant == config.VariantFull {
				wantTools = append(wantTools, "pricing", "billing")
			}
			if !slices.Equal(idx.MCPTools, wantTools) {
				t.Errorf("mcp_tools %v, want %v", idx.MCPTools, wantTools)
			}
			var want []discovery.Endpoint
			for _, r := range route.ForVariant((&Server{}).routeTable(), variant == config.VariantFull) {
				want = append(want, discovery.Endpoint{Method: r.Method, Path: r.Path, Summary: r.Summary})
			}
			if !slices.Equal(idx.Endpoints, want) {
				t.Errorf("endpoints %v, want %v", idx.Endpoints, want)
			}
			// The router serves exactly the listed endpoints (and HEAD for each GET).
			var served, listed []string
			for _, r := range a.server.echo.Routes() {
				if r.Method != http.MethodHead {
					served = append(served, r.Method+" "+regexp.MustCompile(`:(\w+)`).ReplaceAllString(r.Path, "{$1}"))
				}
			}
			for _, e := range idx.Endpoints {
				listed = append(listed, e.Method+" "+e.Path)
			}
			slices.Sort(served)
			slices.Sort(listed)
			if !slices.Equal(served, listed) {
				t.Errorf("the router serves %v; the index lists %v", served, listed)
			}
			// Every listed endpoint answers (the card with a 404 for an unknown
			// id; the ping routes and the owner status, called without their
			// input, with a 400; the
			// MCP endpoint, without a JSON body, with a 415; client error
			// reports with their 204; the account routes, without a session,
			// with their 401, or 403 for a write without an Origin; an
			// identity event without a body with a 400).
			refusedAccount := map[string]int{"/api/auth/events": 400, "/api/auth/logout": 403,
				"/api/account/keys/create": 403, "/api/account/keys/revoke": 403, "/api/contact": 400}
			// Without their input: the credit purchase without usd is a 400,
			// the balance without a token a 401.
			refusedCredit := map[string]int{"POST": 400, "GET": 401}
			for _, e := range idx.Endpoints {
				path := strings.Replace(e.Path, "{id}", "no-such-id", 1)
				path = strings.Replace(path, "{arquivo}", "index.md", 1)
				if strings.HasPrefix(path, "/docs/") {
					path = strings.Replace(path, "{name}", "faq", 1)
				}
				path = strings.Replace(path, "{name}", "app.js", 1)
				path = strings.Replace(strings.Replace(path, "{owner}", "acme", 1), "{repo}", "guide", 1)
				if resp, _ := a.do(e.Method, path, nil); resp.StatusCode != 200 && !(strings.Contains(e.Path, "{id}") && resp.StatusCode == 404) &&
					!(strings.HasPrefix(e.Path, "/api/ping") && resp.StatusCode == 400) &&
					!(e.Path == "/api/status" && resp.StatusCode == 400) &&
					!(e.Path == "/mcp" && resp.StatusCode == http.StatusUnsupportedMediaType) &&
					!(e.Path == "/api/erro-cliente" && resp.StatusCode == http.StatusNoContent) &&
					!(e.Path == paymentViewPath && resp.StatusCode == http.StatusNoContent) &&
					!((strings.HasPrefix(e.Path, "/api/account") || e.Path == "/api/me") && resp.StatusCode == 401) &&
					resp.StatusCode != refusedAccount[e.Path] &&
					!(e.Path == "/api/credito" && resp.StatusCode == refusedCredit[e.Method]) &&
					!(strings.HasPrefix(e.Path, "/api/vitrine/") && resp.StatusCode == 503) { // the operator views, on a service without an operator token
					t.Errorf("%s %s: %d", e.Method, path, resp.StatusCode)
				}
			}
		})
	}
}

func TestHealth(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	var h discovery.Health
	a.get("/api/health", 200, &h)
	if h != (discovery.Health{OK: true, App: AppName, Build: "test-build"}) {
		t.Errorf("health %+v", h)
	}
}

func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		t.Run(variant, func(t *testing.T) {
			full := variant == config.VariantFull
			a := newAPI(t, variant)
			resp, body := a.do("GET", "/openapi.json", nil)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("status %d content-type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			want, _ := openapi.Published(publicBase, full)
			if string(body) != string(want) {
				t.Error("served document differs from the published one")
			}
			var doc struct {
				Servers []struct{ URL string } `json:"servers"`
				Paths   map[string]map[string]struct {
					Parameters []struct{ Name string } `json:"parameters"`
				} `json:"paths"`
			}
			if err := json.Unmarshal(body, &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Servers) != 1 || doc.Servers[0].URL != publicBase {
				t.Errorf("servers %v", doc.Servers)
			}
			_, hasOKFStats := doc.Paths["/api/okf/stats"]
			var params []string
			for _, p := range doc.Paths["/api/bundles"]["get"].Parameters {
				params = append(params, p.Name)
			}
			hasConcept := slices.Contains(params, "concept")
			if hasOKFStats != full || hasConcept != full || strings.Contains(string(body), `"x-variant"`) == !full {
				t.Errorf("full-only parts present: /api/okf/stats %v, concept %v (full %v)", hasOKFStats, hasConcept, full)
			}
			if !full && len(params) != 9 {
				t.Errorf("base parameters %v", params)
			}
		})
	}
}

func TestUnknownRoutesAndMethods(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	for _, path := range []string{"/api/nope", "/api", "/api/bundles/x/y", "/index.html", "/api/okf/stats", "/api/pricing", "/api/billing"} {
		a.getError(path, 404, apierror.NotFound)
	}
	for _, c := range []struct{ method, path string }{
		{"POST", "/api/bundles"}, {"DELETE", "/api/bundles/abc"}, {"PUT", "/api/health"}, {"POST", "/api/"},
		{"PATCH", "/openapi.json"}, {"POST", "/api/stats"},
	} {
		resp, body := a.do(c.method, c.path, nil)
		var e wire.ErrorBody
		_ = json.Unmarshal(body, &e)
		if resp.StatusCode != 405 || e.Error != apierror.MethodNotAllowed || !strings.Contains(resp.Header.Get("Allow"), "GET") {
			t.Errorf("%s %s: %d %s allow %q", c.method, c.path, resp.StatusCode, body, resp.Header.Get("Allow"))
		}
	}
	if resp, body := a.do("HEAD", "/api/nope", nil); resp.StatusCode != 404 || len(body) != 0 {
		t.Errorf("HEAD unknown: %d %q", resp.StatusCode, body)
	}
}

func TestCORS(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		a := newAPI(t, variant)
		for _, r := range route.ForVariant((&Server{}).routeTable(), variant == config.VariantFull) {
			path := strings.Replace(r.Path, "{id}", "no-such-id", 1)
			// The contract transport checks Access-Control-Allow-Origin on
			// every answer; here with and without an Origin header.
			a.do("GET", path, http.Header{"Origin": {"https://elsewhere.example"}})
			a.do("GET", path, nil)
			resp, body := a.do("OPTIONS", path, http.Header{
				"Origin":                         {"https://elsewhere.example"},
				"Access-Control-Request-Method":  {r.Method},
				"Access-Control-Request-Headers": {"X-Custom, Content-Type"},
			})
			h := resp.Header
			if r.Session {
				// No CORS at all: the preflight names the methods, grants nothing.
				if resp.StatusCode != 204 || h.Get("Access-Control-Allow-Origin") != "" || h.Get("Access-Control-Allow-Methods") != "" ||
					!strings.Contains(h.Get("Allow"), r.Method) {
					t.Errorf("%s preflight %s: %d %v", variant, path, resp.StatusCode, h)
				}
				continue
			}
			allowed := h.Get("Access-Control-Allow-Methods")
			if resp.StatusCode != 204 || len(body) != 0 || h.Get("Access-Control-Allow-Origin") != "*" ||
				!strings.Contains(allowed, r.Method) ||
				(r.Method == http.MethodGet && !strings.Contains(allowed, "HEAD")) ||
				h.Get("Access-Control-Allow-Headers") != "X-Custom, Content-Type" || h.Get("Access-Control-Max-Age") == "" {
				t.Errorf("%s preflight %s: %d %v", variant, path, resp.StatusCode, h)
			}
		}
		if resp, _ := a.do("OPTIONS", "/api/nope", nil); resp.StatusCode != 404 {
			t.Errorf("preflight of an unknown path: %d", resp.StatusCode)
		}
	}
}

// TestForgedHostDoesNotLeak sends a forged Host and forwarding headers; no
// answer may carry them: absolute URLs come from PUBLIC_BASE_URL only.
func TestForgedHostDoesNotLeak(t *testing.T) {
	t.Parallel()
	f := newFixture(t, config.VariantFull)
	forged := http.Header{
		"Host":              {"evil.example"},
		"X-Forwarded-Host":  {"evil.example"},
		"X-Forwarded-Proto": {"gopher"},
		"Forwarded":         {"host=evil.example;proto=http"},
	}
	for _, path := range []string{"/api/", "/openapi.json", "/api/bundles?limit=1", "/api/bundles/" + f.alpha, "/api/stats"} {
		resp, body := f.api.do("GET", path, forged)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		if strings.Contains(string(body), "evil.example") || strings.Contains(string(body), "gopher") ||
			strings.Contains(string(body), "127.0.0.1") {
			t.Errorf("%s leaks the request's host: %.300s", path, body)
		}
		if path != "/api/stats" && !strings.Contains(string(body), publicBase) {
			t.Errorf("%s has no URL under the public base: %.300s", path, body)
		}
	}
}
