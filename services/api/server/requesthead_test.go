package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
)

// Headers over 32 KiB answer the JSON 431 of the contract (checked against
// the document by the contract transport); under it, the request is served.
// Past Go's own limit (1 MiB) the server answers plain text before the API
// sees the request: the documented exception.
func TestRequestHeadLimit(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	for _, tc := range []struct {
		size   int
		status int
	}{{20 << 10, 200}, {40 << 10, 431}} {
		resp, body := a.do(http.MethodGet, "/api/stats", http.Header{"X-Big": {strings.Repeat("a", tc.size)}})
		if resp.StatusCode != tc.status {
			t.Errorf("header of %d bytes: %d %s, want %d", tc.size, resp.StatusCode, body, tc.status)
		}
		if tc.status == 431 && !strings.Contains(string(body), `"error":"headers_too_large"`) {
			t.Errorf("431 body: %s", body)
		}
	}
	// A long query string counts too.
	if resp, _ := a.do(http.MethodGet, "/api/bundles?x="+strings.Repeat("a", 40<<10), nil); resp.StatusCode != 431 {
		t.Errorf("40 KiB query string: %d, want 431", resp.StatusCode)
	}

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, a.url+"/api/stats", nil)
	req.Header.Set("X-Huge", strings.Repeat("a", 2<<20))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 431 || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(body), `"headers_too_large"`) {
		t.Errorf("2 MiB header: %d %q %.100s, want Go's own 431 as the JSON headers_too_large (package protoerr)", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}
