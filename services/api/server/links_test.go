package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
)

// Every answer, success or error, page or document, carries the Link
// header naming the API catalog, the OpenAPI document and llms.txt, with
// absolute URLs from PUBLIC_BASE_URL (never the Host header).
func TestDiscoveryLinksOnEveryAnswer(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	want := []string{
		"<" + publicBase + "/.well-known/api-catalog>; rel=\"api-catalog\"",
		"<" + publicBase + "/openapi.json>; rel=\"service-desc\"",
		"<" + publicBase + "/llms.txt>; rel=\"describedby\"",
	}
	for _, path := range []string{"/api/", "/api/bundles?q=guide", "/api/bundles/no-such-bundle", "/nope", "/llms.txt", "/", "/api/bundles?limit=0"} {
		resp, _ := a.do(http.MethodGet, path, http.Header{"Host": {"evil.example"}})
		link := resp.Header.Get("Link")
		for _, w := range want {
			if !strings.Contains(link, w) {
				t.Errorf("GET %s (%d): Link %q lacks %s", path, resp.StatusCode, link, w)
			}
		}
	}
}
