package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/metrics"
)

// send sends one request with a body through the contract-checking client.
func (a *testAPI) send(method, path string, body []byte, header map[string]string) (*http.Response, []byte) {
	a.t.Helper()
	req, err := http.NewRequestWithContext(a.t.Context(), method, a.url+path, bytes.NewReader(body))
	if err != nil {
		a.t.Fatal(err)
	}
	if body == nil {
		req.Body, req.GetBody, req.ContentLength = nil, nil, 0
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := a.client.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	return resp, out
}

// metricsNow flushes the server's usage counts and reads GET /api/metrics
// anonymously, past its cache.
func (a *testAPI) metricsNow() metrics.Metrics {
	a.t.Helper()
	if err := a.server.usage.Flush(a.t.Context()); err != nil {
		a.t.Fatal(err)
	}
	a.server.metrics.Forget()
	var m metrics.Metrics
	a.get("/api/metrics", 200, &m)
	return m
}

func TestVisit(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	asJSON := map[string]string{"Content-Type": "application/json"}
	cases := []struct {
		name    string
		body    []byte
		header  map[string]string
		counted bool
	}{
		{"no body", nil, nil, true},
		{"empty object", []byte(`{}`), asJSON, true},
		{"page path", []byte(`{"p":"/"}`), asJSON, true},
		{"not JSON", []byte(`visit!`), nil, true},
		{"broken JSON", []byte(`{"smoke":`), asJSON, true},
		{"array", []byte(`[1,2]`), asJSON, true},
		{"smoke of the wrong type", []byte(`{"smoke":"yes"}`), asJSON, true},
		{"smoke false", []byte(`{"smoke":false}`), asJSON, true},
		{"too long to read", bytes.Repeat([]byte("x"), 100<<10), nil, true},
		{"smoke in the body", []byte(`{"smoke":true,"p":"/"}`), asJSON, false},
		{"smoke header", nil, map[string]string{"X-House-Smoke": "1"}, false},
		{"empty smoke header", nil, map[string]string{"X-House-Smoke": ""}, false},
		{"smoke user agent", nil, map[string]string{"User-Agent": "house-smoke"}, false},
		{"smoke user agent with a version", nil, map[string]string{"User-Agent": "House-Smoke/1.4"}, false},
		{"a browser", nil, map[string]string{"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0"}, true},
	}
	want := int64(0)
	for _, c := range cases {
		resp, body := a.send(http.MethodPost, "/api/visit", c.body, c.header)
		var ack VisitAck
		if err := json.Unmarshal(body, &ack); err != nil || resp.StatusCode != 200 || !ack.OK || ack.Counted != c.counted {
			t.Errorf("%s: %d %s, want 200 ok counted=%v", c.name, resp.StatusCode, body, c.counted)
		}
		if c.counted {
			want++
		}
	}
	if m := a.metricsNow(); m.TodayVisits != want || m.Days[len(m.Days)-1].Visits != want || m.Usage.OKF.Visits != want {
		t.Errorf("today_visits %d (day %+v), want %d", m.TodayVisits, m.Days[len(m.Days)-1], want)
	}
}

func TestMetricsToken(t *testing.T) {
	t.Parallel()
	st := storetest.NewStore(t)
	none := newAPIOn(t, st, config.VariantBase)
	withToken := newAPIWith(t, st, map[string]string{"PUBLIC_BASE_URL": publicBase, "METRICS_TOKEN": "op-token-0123456789"})
	cases := []struct {
		api           *testAPI
		authorization string
		status        int
		errName       string
		payments      bool
	}{
		{none, "", 200, "", false},
		{none, "Bearer op-token-0123456789", 503, apierror.TokenNotConfigured, false},
		{none, "Bearer ", 503, apierror.TokenNotConfigured, false},
		{withToken, "", 200, "", false},
		{withToken, "Bearer op-token-0123456789", 200, "", true},
		{withToken, "bearer op-token-0123456789", 200, "", true},
		{withToken, "Bearer op-token-012345678", 401, apierror.InvalidToken, false},
		{withToken, "Bearer op-token-0123456789x", 401, apierror.InvalidToken, false},
		{withToken, "Bearer", 401, apierror.InvalidToken, false},
		{withToken, "Basic op-token-0123456789", 401, apierror.InvalidToken, false},
		{withToken, "op-token-0123456789", 401, apierror.InvalidToken, false},
	}
	for _, c := range cases {
		resp, body := c.api.do(http.MethodGet, "/api/metrics", http.Header{"Authorization": {c.authorization}})
		if resp.StatusCode != c.status {
			t.Errorf("%q: status %d, want %d: %s", c.authorization, resp.StatusCode, c.status, body)
			continue
		}
		if c.errName != "" {
			var e wire.ErrorBody
			if json.Unmarshal(body, &e); e.Error != c.errName || e.Message == "" {
				t.Errorf("%q: error %s, want %s", c.authorization, body, c.errName)
			}
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"app", "today", "today_visits", "days", "usage", "accounts"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%q: no %s in %s", c.authorization, k, body)
			}
		}
		payments, ok := m["payments"].(map[string]any)
		if ok != c.payments {
			t.Errorf("%q: payments present %v, want %v", c.authorization, ok, c.payments)
		}
		for k, v := range payments {
			if v != float64(0) && v != "0.00" && k != "currency" && v != nil {
				t.Errorf("payments.%s = %v, want zero on the base variant", k, v)
			}
		}
	}
}

// TestUsageCounting: each public surface counts under its metric, by the
// kind of caller; test traffic, unknown paths, preflights and the
// operations routes count nothing.
func TestUsageCounting(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	chrome := http.Header{"User-Agent": {"Mozilla/5.0 (Macintosh) AppleWebKit/537.36 Chrome/131.0 Safari/537.36"}}
	claude := http.Header{"User-Agent": {"Claude-User (claude-code/2.1; +https://support.anthropic.com/)"}}
	curl := http.Header{"User-Agent": {"curl/8.5.0"}}
	smoke := http.Header{"X-House-Smoke": {"1"}, "User-Agent": {"curl/8.5.0"}}
	for _, r := range []struct {
		path   string
		header http.Header
	}{
		{"/", chrome}, {"/", chrome}, // 2 pages
		{"/llms.txt", claude}, {"/okf/index.md", curl}, {"/.well-known/api-catalog", curl}, // 3 documents
		{"/api/bundles", chrome}, {"/api/bundles", claude}, {"/api/stats", claude}, {"/api/ping/status?host=a.example", curl}, // 4 API: 2 AI, 1 machine
		{"/api/health", curl}, {"/api/metrics", curl}, {"/api/nope", curl}, {"/nope", chrome}, // not counted
		{"/api/bundles/no-such", curl}, {"/okf/made-up.md", curl}, {"/api/bundles?limit=0", curl}, // refusals: not counted
		{"/api/bundles", smoke}, {"/", smoke}, {"/llms.txt", smoke}, // test traffic
	} {
		a.do(http.MethodGet, r.path, r.header)
	}
	a.do(http.MethodOptions, "/api/bundles", http.Header{"Origin": {"https://x.example"}, "Access-Control-Request-Method": {"GET"}})
	a.do(http.MethodHead, "/api/bundles", curl)
	a.do(http.MethodPost, "/openapi.json", curl) // 405: not counted
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"index_stats","arguments":{}}}`
	rpc(t, a, "", map[string]string{"MCP-Protocol-Version": "2025-11-25"}, call)                       // 1 MCP request, 1 tool call
	rpc(t, a, "", map[string]string{"MCP-Protocol-Version": "2025-11-25", "X-House-Smoke": "1"}, call) // test traffic

	got := a.metricsNow().Days[metrics.Days-1]
	want := metrics.MetricsDay{Day: got.Day, Pages: 2, Docs: 3, API: 4, APIAI: 2, APIMachine: 1, MCP: 1, MCPTools: 1}
	if got != want {
		t.Errorf("today's counts\n got %+v\nwant %+v", got, want)
	}
}

func TestCallerOf(t *testing.T) {
	for ua, want := range map[string]callerKind{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36":            callerBrowser,
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile Safari/604.1":                callerBrowser,
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)": callerAI,
		"Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)":                                      callerAI,
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0)":                      callerAI,
		"mcp-inspector/2.12.0": callerAI,
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)": callerMachine,
		"curl/8.5.0":             callerMachine,
		"python-requests/2.32.3": callerMachine,
		"Go-http-client/1.1":     callerMachine,
		"":                       callerMachine,
	} {
		if got := callerOf(ua); got != want {
			t.Errorf("callerOf(%q) = %v, want %v", ua, got, want)
		}
	}
}

// TestClientErrorReport: every report answers 204 with no body, the good ones
// become one merged log event per failure, and nothing is written to
// Postgres.
func TestClientErrorReport(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	before := tableDigest(t, a)
	good := `{"code":"UI-JS-001","phase":"global","path":"/busca?q=segredo","message":"TypeError at https://x.example/app.js?token=abc:1:2 for ana@example.com","line":1,"column":2}`
	bodies := [][]byte{
		[]byte(good), []byte(good), []byte(good), // one failure, three times
		[]byte(`{"code":"UI-CSP-001","phase":"script","message":"blocked, call +55 11 91234-5678","stack":"` + strings.Repeat("s", 20000) + `"}`),
		[]byte(`{"code":"JS-001","phase":"global"}`),     // bad code
		[]byte(`{"code":"UI-APP-001","phase":"Global"}`), // bad phase
		[]byte(`{"code":"UI-APP-001","phase":"global","message":"` + strings.Repeat("m", 5000) + `"}`),
		[]byte(`not json`), []byte(`null`), []byte(`[]`), nil,
		bytes.Repeat([]byte("{"), 100<<10), // over the body cap
	}
	for i, b := range bodies {
		resp, body := a.send(http.MethodPost, "/api/erro-cliente?token=query-secret", b, map[string]string{
			"Content-Type": "application/json", "User-Agent": "Mozilla/5.0 (X11) Firefox/133.0", "Cookie": "__Host-house-auth=secret-cookie",
		})
		if resp.StatusCode != http.StatusNoContent || len(body) != 0 {
			t.Errorf("report %d: %d %q, want 204 and no body", i, resp.StatusCode, body)
		}
	}
	time.Sleep(1500 * time.Millisecond) // a usage flush would have run by now
	if after := tableDigest(t, a); after != before {
		t.Errorf("the reports changed the database:\nbefore %s\nafter  %s", before, after)
	}

	a.server.reports.Flush()
	logs := a.logs.String()
	var events []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var ev map[string]any
		if json.Unmarshal([]byte(line), &ev) == nil && ev["msg"] == "client_error" {
			events = append(events, ev)
		}
	}
	if len(events) != 3 {
		t.Fatalf("%d client_error events, want 3 (the repeated one merged):\n%s", len(events), logs)
	}
	counts := map[string]float64{}
	for _, ev := range events {
		counts[fmt.Sprint(ev["code"])] += ev["count"].(float64)
	}
	if counts["UI-JS-001"] != 3 || counts["UI-CSP-001"] != 1 || counts["UI-APP-001"] != 1 {
		t.Errorf("event counts %v", counts)
	}
	for _, leak := range []string{"segredo", "token=abc", "ana@example.com", "91234-5678", "secret-cookie", "Firefox/133.0", "127.0.0.1", "query-secret"} {
		if strings.Contains(logs, leak) {
			t.Errorf("the log keeps %q:\n%s", leak, logs)
		}
	}
}

// tableDigest is a digest of every row of every table of the API's
// database.
func tableDigest(t *testing.T, a *testAPI) string {
	t.Helper()
	rows, err := a.store.Pool().Query(t.Context(),
		`SELECT format('%I.%I', schemaname, tablename) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	var digest strings.Builder
	for _, table := range tables {
		var n int64
		var sum *string
		q := fmt.Sprintf(`SELECT count(*), md5(string_agg(t::text, '|' ORDER BY t::text)) FROM %s t`, table)
		if err := a.store.Pool().QueryRow(t.Context(), q).Scan(&n, &sum); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&digest, "%s:%d:%v ", table, n, sum != nil && *sum != "")
		if sum != nil {
			digest.WriteString(*sum + " ")
		}
	}
	return digest.String()
}
