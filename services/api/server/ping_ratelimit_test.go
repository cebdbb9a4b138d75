package server

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/clocktest"
	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

func TestRetryAfterSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "1", time.Millisecond: "1", time.Second: "1", 1500 * time.Millisecond: "2", time.Hour: "3600"} {
		if got := respond.RetryAfterSeconds(d); got != want {
			t.Errorf("respond.RetryAfterSeconds(%s) = %s, want %s", d, got, want)
		}
	}
}

// POST /api/ping through HTTP: a client past PING_RATE_PER_MINUTE gets 429
// rate_limited with Retry-After, behind a trusted proxy the clients count
// apart, submit_bundles shares the limit, and the wait announced is enough.
func TestPingRateLimit(t *testing.T) {
	t.Parallel()
	clk := clocktest.New(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
	a := newAPIWithClock(t, storetest.NewStore(t), map[string]string{"PUBLIC_BASE_URL": publicBase,
		"PING_RATE_PER_MINUTE": "3", "TRUSTED_PROXY_HEADER": "X-Forwarded-For"}, clk.Now)
	h := "docs.example"
	send := func(client string, i int) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, a.url+"/api/ping",
			bytes.NewReader(pingBody(h, testKey, roots(h, i, 1), nil)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", client)
		resp, err := a.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for i := range 3 {
		if resp := send("198.51.100.1", i); resp.StatusCode != 202 {
			t.Fatalf("submission %d: %d", i, resp.StatusCode)
		}
	}
	resp := send("198.51.100.1", 3)
	wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != 429 || wait < 1 || wait > 20 {
		t.Fatalf("4th submission: %d, Retry-After %q; want 429 and a wait of at most 20 s", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp := send("198.51.100.2", 4); resp.StatusCode != 202 {
		t.Errorf("another client behind the proxy: %d", resp.StatusCode)
	}
	status, body := rpc(t, a, "", map[string]string{"X-Forwarded-For": "198.51.100.1"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"submit_bundles","arguments":{"host":"docs.example","key":"`+testKey+`","urlList":["https://docs.example/x.md"]}}}`)
	if status != 200 || !bytes.Contains(body, []byte(`\"error\":\"rate_limited\"`)) {
		t.Errorf("submit_bundles past the limit: %d %s", status, body)
	}
	clk.Advance(time.Duration(wait) * time.Second)
	if resp := send("198.51.100.1", 5); resp.StatusCode != 202 {
		t.Errorf("after Retry-After: %d", resp.StatusCode)
	}
}

// The attack: two submissions of 100 URLs with a made-up key used
// to leave the owner with 429 for the rest of the UTC day. Now the owner,
// whose key has matched before, still submits; the 429 of the cap says
// when the day ends.
func TestPingOwnerKeepsTheCap(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	h := "owner.example"
	if err := a.store.RecordProvenKey(t.Context(), h, testKey); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if resp, body := a.post("/api/ping", pingBody(h, "made-up-key-123", roots(h, i*100, 100), nil)); resp.StatusCode != 202 {
			t.Fatalf("attacker's submission %d: %d %s", i, resp.StatusCode, body)
		}
	}
	resp, _ := a.post("/api/ping", pingBody(h, "made-up-key-456", roots(h, 200, 1), nil))
	secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != 429 || secs < 1 || secs > 86400 {
		t.Fatalf("third unproven submission: %d, Retry-After %q; want 429 until midnight UTC", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp, body := a.post("/api/ping", pingBody(h, testKey, roots(h, 300, 100), nil)); resp.StatusCode != 202 {
		t.Fatalf("the owner after the attack: %d %s", resp.StatusCode, body)
	}
}
