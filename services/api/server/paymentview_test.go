package server

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/usage"
	"github.com/okfindex/okf-index/services/api/server/discovery"
	"github.com/okfindex/okf-index/services/api/server/metrics"
)

// usageToday flushes the server's counts and reads today's count of one
// metric from usage_daily.
func (a *testAPI) usageToday(metric string) int64 {
	a.t.Helper()
	if err := a.server.usage.Flush(a.t.Context()); err != nil {
		a.t.Fatal(err)
	}
	now := time.Now()
	rows, err := a.store.Usage(a.t.Context(), now, now)
	if err != nil {
		a.t.Fatal(err)
	}
	var n int64
	for _, r := range rows {
		if r.Metric == metric {
			n += r.N
		}
	}
	return n
}

// settledUsageToday is usageToday once the requests already answered are
// counted: the count is added after the answer is written (it needs the
// status), so a client can read the answer before it is counted. It reads
// until two reads 100 ms apart agree (at most 3 s).
func (a *testAPI) settledUsageToday(metric string) int64 {
	a.t.Helper()
	n := a.usageToday(metric)
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		m := a.usageToday(metric)
		if m == n {
			break
		}
		n = m
	}
	return n
}

// TestPaymentView: POST /api/pagamento/aberto is accepted (202, no body,
// the counter moves) only with the page's three headers and no body; each
// condition missing or wrong, repeated, a body, or test traffic is ignored
// (204, no body, nothing counted). Every answer is no-store.
func TestPaymentView(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantFull)
	page := func() map[string]string {
		return map[string]string{"Origin": publicBase, "Sec-Fetch-Site": "same-origin", paymentViewHeader: "1"}
	}
	without := func(k string) map[string]string { h := page(); delete(h, k); return h }
	with := func(k, v string) map[string]string { h := page(); h[k] = v; return h }
	cases := []struct {
		name     string
		header   map[string]string
		body     []byte
		accepted bool
	}{
		{"the page's signal", page(), nil, true},
		{"no Origin", without("Origin"), nil, false},
		{"Origin of another site", with("Origin", "https://evil.example"), nil, false},
		{"Origin null", with("Origin", "null"), nil, false},
		{"Origin with a path", with("Origin", publicBase+"/"), nil, false},
		{"Origin over http", with("Origin", strings.Replace(publicBase, "https:", "http:", 1)), nil, false},
		{"Origin of the Host header", with("Origin", "http://"+strings.TrimPrefix(a.url, "http://")), nil, false},
		{"no Sec-Fetch-Site", without("Sec-Fetch-Site"), nil, false},
		{"Sec-Fetch-Site same-site", with("Sec-Fetch-Site", "same-site"), nil, false},
		{"Sec-Fetch-Site cross-site", with("Sec-Fetch-Site", "cross-site"), nil, false},
		{"Sec-Fetch-Site none", with("Sec-Fetch-Site", "none"), nil, false},
		{"no X-House-Payment-View", without(paymentViewHeader), nil, false},
		{"X-House-Payment-View 0", with(paymentViewHeader, "0"), nil, false},
		{"X-House-Payment-View true", with(paymentViewHeader, "true"), nil, false},
		{"X-House-Payment-View empty", with(paymentViewHeader, ""), nil, false},
		{"a JSON body", page(), []byte(`{"usd":1}`), false},
		{"a body of one byte", page(), []byte(`x`), false},
		{"test traffic", with("X-House-Smoke", "1"), nil, false},
		{"an API key that is not valid is not read", with("X-Api-Key", "hsk_nope"), nil, true},
		{"the page's signal again", page(), nil, true},
	}
	want := a.usageToday(usage.PaymentView)
	for _, c := range cases {
		resp, body := a.send(http.MethodPost, paymentViewPath, c.body, c.header)
		status := http.StatusNoContent
		if c.accepted {
			status = http.StatusAccepted
			want++
		}
		if resp.StatusCode != status || len(body) != 0 || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d %q Cache-Control %q, want %d, no body, no-store", c.name, resp.StatusCode, body, resp.Header.Get("Cache-Control"), status)
		}
		if got := a.usageToday(usage.PaymentView); got != want {
			t.Errorf("%s: okf_payment_view %d, want %d", c.name, got, want)
		}
	}
	// Repeated headers are not the page's.
	for _, k := range []string{"Origin", "Sec-Fetch-Site", paymentViewHeader} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, a.url+paymentViewPath, nil)
		for hk, v := range page() {
			req.Header.Set(hk, v)
		}
		req.Header.Add(k, req.Header.Get(k))
		resp, err := a.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s twice: %d", k, resp.StatusCode)
		}
	}
	// A body of unknown length (sent chunked) is a body too.
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, a.url+paymentViewPath, struct{ *bytes.Reader }{bytes.NewReader([]byte("{}"))})
	for hk, v := range page() {
		req.Header.Set(hk, v)
	}
	resp, err := a.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("chunked body: status %d, want 204", resp.StatusCode)
	}
	if got := a.usageToday(usage.PaymentView); got != want {
		t.Errorf("okf_payment_view %d, want %d", got, want)
	}
	// The signal is no usage of the API, the pages or the documents.
	if m := a.metricsNow().Days[metrics.Days-1]; m.API != 0 || m.Pages != 0 || m.Docs != 0 {
		t.Errorf("the signals counted as other usage: %+v", m)
	}
	// Another method is the router's 405.
	if resp, _ := a.send(http.MethodGet, paymentViewPath, nil, page()); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d, want 405", resp.StatusCode)
	}
}

// TestPaymentViewOnlyFull: the base variant has no such route (404), does
// not list it in GET /api/ or its OpenAPI document; the full variant does,
// and its documents name it.
func TestPaymentViewOnlyFull(t *testing.T) {
	t.Parallel()
	for _, variant := range variants {
		t.Run(variant, func(t *testing.T) {
			full := variant == config.VariantFull
			a := newAPI(t, variant)
			resp, _ := a.send(http.MethodPost, paymentViewPath, nil,
				map[string]string{"Origin": publicBase, "Sec-Fetch-Site": "same-origin", paymentViewHeader: "1"})
			if want := map[bool]int{true: 202, false: 404}[full]; resp.StatusCode != want {
				t.Errorf("POST %s: %d, want %d", paymentViewPath, resp.StatusCode, want)
			}
			var idx discovery.APIIndex
			a.get("/api/", 200, &idx)
			listed := false
			for _, e := range idx.Endpoints {
				listed = listed || (e.Method == http.MethodPost && e.Path == paymentViewPath)
			}
			_, body := a.do(http.MethodGet, "/openapi.json", nil)
			documented := strings.Contains(string(body), `"`+paymentViewPath+`"`)
			if listed != full || documented != full {
				t.Errorf("listed in GET /api/ %v, in the OpenAPI document %v; want %v", listed, documented, full)
			}
			if !full {
				return
			}
			if !strings.Contains(string(body), usage.PaymentView) {
				t.Error("the OpenAPI operation does not name its counter")
			}
			for _, doc := range []string{"/llms.txt", "/okf/api.md", "/llms-full.txt"} {
				if b := a.get(doc, 200, nil); !strings.Contains(string(b), paymentViewPath) {
					t.Errorf("%s does not mention %s", doc, paymentViewPath)
				}
			}
			// Not an MCP tool: agents must not call it.
			for _, tool := range idx.MCPTools {
				if strings.Contains(tool, "pagamento") || strings.Contains(tool, "payment_view") {
					t.Errorf("tool %s", tool)
				}
			}
		})
	}
}

// FuzzPaymentViewSignal: whatever the headers and body length, the signal
// is accepted only when it is exactly the page's.
func FuzzPaymentViewSignal(f *testing.F) {
	f.Add(publicBase, "same-origin", "1", int64(0), "")
	f.Add(publicBase+"/", "same-origin", "1", int64(0), "")
	f.Add("null", "cross-site", "0", int64(-1), "1")
	f.Add(strings.ToUpper(publicBase), "Same-Origin", " 1", int64(2), "")
	f.Fuzz(func(t *testing.T, origin, site, view string, length int64, smoke string) {
		req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1"+paymentViewPath, nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Sec-Fetch-Site", site)
		req.Header.Set(paymentViewHeader, view)
		if smoke != "" {
			req.Header.Set(smokeHeader, smoke)
		}
		req.ContentLength = length
		want := origin == publicBase && site == "same-origin" && view == "1" && length == 0 && smoke == ""
		if got := paymentViewSignal(req, publicBase); got != want {
			t.Errorf("origin %q site %q view %q length %d smoke %q: accepted %v", origin, site, view, length, smoke, got)
		}
	})
}
