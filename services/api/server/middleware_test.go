package server

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/logging/logtest"
	"github.com/okfindex/okf-index/pkg/promreg"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/logging"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// logLines returns the JSON log lines written to b so far.
func logLines(t *testing.T, b *logtest.Buffer) []map[string]any {
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", l)
		}
		if strings.Count(l, `"request_id"`) > 1 {
			t.Errorf("request_id twice: %s", l)
		}
		out = append(out, m)
	}
	return out
}

// A handler's own log line (the MCP tool's failure, logged with the
// request's context) carries the id of its request, the same one the
// X-Request-Id header and the request log line show.
func TestRequestIDOnHandlerLogLines(t *testing.T) {
	st := storetest.NewStore(t)
	var logs logtest.Buffer
	cfg, err := config.Load(func(k string) string { return map[string]string{"PUBLIC_BASE_URL": publicBase}[k] })
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(st, Options{Config: cfg, Logger: logging.New(&logs, nil)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	st.Close() // every tool that reads the store now fails inside the service

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_bundles","arguments":{"q":"x"}}}`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, hs.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("X-Request-Id")
	if resp.StatusCode != http.StatusOK || id == "" || !strings.Contains(string(answer), `"isError":true`) {
		t.Fatalf("status %d id %q: %s", resp.StatusCode, id, answer)
	}

	var toolLine, requestLine map[string]any
	for _, l := range logLines(t, &logs) {
		switch l["msg"] {
		case "mcp tool failed":
			toolLine = l
		case "request":
			requestLine = l
		}
	}
	if toolLine == nil || requestLine == nil {
		t.Fatalf("missing log lines: %+v", logLines(t, &logs))
	}
	if toolLine["request_id"] != id || requestLine["request_id"] != id {
		t.Errorf("request ids: header %q, tool line %v, request line %v", id, toolLine["request_id"], requestLine["request_id"])
	}
}

// Requests are counted by Echo's route path, never by URL; a path with no
// route and an unknown method count under fixed labels.
func TestHTTPMetricsByRoute(t *testing.T) {
	reg := prometheus.NewRegistry()
	cfg, err := config.Load(func(k string) string { return map[string]string{"PUBLIC_BASE_URL": publicBase}[k] })
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(storetest.NewStore(t), Options{Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Metrics: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/bundles/no-such-bundle"},
		{"GET", "/api/bundles/another-missing-one"},
		{"GET", "/api/health"},
		{"HEAD", "/api/health"},
		{"DELETE", "/api/health"},
		{"BREW", "/api/health"},
		{"GET", "/no/such/path"},
		{"GET", "/api/bund"},
		{"GET", "/api/bundlez"},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), r.method, hs.URL+r.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	for _, tc := range []struct {
		route, method, status string
		want                  float64
	}{
		{"/api/bundles/:id", "GET", "404", 2},
		{"/api/health", "GET", "200", 1},
		{"/api/health", "HEAD", "200", 1},
		{"/api/health", "DELETE", "405", 1},
		{"/api/health", "other", "405", 1},
		{"unmatched", "GET", "404", 3},
	} {
		got := testutil.ToFloat64(srvCounter(t, reg, tc.route, tc.method, tc.status))
		if got != tc.want {
			t.Errorf("okf_http_requests_total{route=%q,method=%q,status=%q} = %v, want %v", tc.route, tc.method, tc.status, got, tc.want)
		}
	}
	// Only those series exist: no URL became a label.
	if n := testutil.CollectAndCount(reg, "okf_http_requests_total"); n != 6 {
		t.Errorf("%d request series, want 6", n)
	}
	if n := testutil.CollectAndCount(reg, "okf_http_request_duration_seconds"); n != 6 {
		t.Errorf("%d latency series, want 6", n)
	}
}

// srvCounter finds the registered request counter's child for the labels.
func srvCounter(t *testing.T, reg *prometheus.Registry, labels ...string) prometheus.Collector {
	t.Helper()
	c := promreg.Register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "okf_http_requests_total",
		Help: "HTTP requests answered, by route, method and status.",
	}, []string{"route", "method", "status"}))
	return c.WithLabelValues(labels...)
}

// TestForeignRequestID: a proxy's well-formed X-Request-Id is kept; any
// other is replaced by the service's own, so a client cannot write what it
// likes into the logs.
func TestForeignRequestID(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	for sent, kept := range map[string]bool{
		"lb-7f3a9c21.b":                  true,
		"forged id <script>":             false,
		strings.Repeat("a", 65):          false,
		"line\u2028break":                false,
		"0123456789abcdef0123456789abcd": true,
	} {
		resp, _ := a.do(http.MethodGet, "/api/health", http.Header{"X-Request-Id": {sent}})
		got := resp.Header.Get("X-Request-Id")
		if (got == sent) != kept || !requestIDShape.MatchString(got) {
			t.Errorf("sent %q, answered %q (kept: want %v)", sent, got, kept)
		}
		if !kept && strings.Contains(a.logs.String(), sent) {
			t.Errorf("the foreign id %q reached the log", sent)
		}
	}
}

// TestNoSniffOnEveryAnswer: answers of every kind, errors and refusals of
// the router included, tell browsers not to guess their type.
func TestNoSniffOnEveryAnswer(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	for _, path := range []string{"/api/", "/api/bundles?q=x", "/api/bundles?limit=0", "/api/nope", "/feed.atom",
		"/opensearch.xml", "/llms.txt", "/", "/nope", "/api/bundles/no-such-id"} {
		resp, _ := a.do(http.MethodGet, path, nil)
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s (%d %s): X-Content-Type-Options %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), got)
		}
	}
	resp, _ := a.do(http.MethodDelete, "/api/bundles", nil)
	if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("DELETE /api/bundles (%d): X-Content-Type-Options %q", resp.StatusCode, got)
	}
}

// TestLogPathOnly: the request log keeps the query string of a request,
// except on routes whose row says LogPathOnly, whatever the method.
func TestLogPathOnly(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	for _, tc := range []struct {
		method, target, logged string
	}{
		{http.MethodPost, "/api/erro-cliente?secret=1", "/api/erro-cliente"},
		{http.MethodPost, "/api/visit?p=/x", "/api/visit"},
		{http.MethodGet, "/api/visit?p=/x", "/api/visit"}, // 405
		{http.MethodGet, "/api/bundles?q=kept", "/api/bundles?q=kept"},
		{http.MethodGet, "/api/stats?x=1", "/api/stats?x=1"},
	} {
		resp, _ := a.send(tc.method, tc.target, nil, nil)
		id := resp.Header.Get("X-Request-Id")
		var uri any
		for _, l := range logLines(t, a.logs) {
			if l["msg"] == "request" && l["request_id"] == id {
				uri = l["uri"]
			}
		}
		if uri != tc.logged {
			t.Errorf("%s %s: logged uri %v, want %q", tc.method, tc.target, uri, tc.logged)
		}
	}
}
