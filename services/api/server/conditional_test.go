package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// Every conditional route answers its ETag, Last-Modified (where it has a
// time) and Cache-Control; If-None-Match with the ETag, or without it
// If-Modified-Since at or after Last-Modified, is a 304 without a body
// (GET and HEAD); an older date, or another ETag, is a 200; If-None-Match
// decides over If-Modified-Since. Every answer is checked against the
// OpenAPI document by the test client.
func TestConditionalRequests(t *testing.T) {
	for _, variant := range []string{"base", "full"} {
		t.Run(variant, func(t *testing.T) {
			st := newAPI(t, variant).store // a database for the clocked server below
			// The server's clock runs a minute ahead, so the feed's newest
			// change is settled and has a Last-Modified.
			a := newAPIWithClock(t, st, map[string]string{"PUBLIC_BASE_URL": publicBase + "/", "VARIANT": variant},
				func() time.Time { return time.Now().Add(time.Minute) })
			card := wire.Card{Name: "Conditional KB", Description: "About conditions.", OKFVersion: "0.1"}
			ids := upsert(t, st, repoBundle("acme", "cond", "index.md", card, signal(3, "Go", "MIT")))
			recount(t, st)
			var first wire.ChangePage
			a.get("/api/changes?limit=1", http.StatusOK, &first)

			type route struct {
				path, cache string
				modified    bool // has a Last-Modified
				header      http.Header
			}
			routes := []route{
				{"/api/bundles?q=conditional", respond.CacheSearch, true, nil},
				{"/api/bundles/" + ids[0], respond.CacheCard, true, nil},
				{"/api/bundles/" + ids[0], respond.CacheCard, true, http.Header{"Accept": {"text/markdown"}}},
				{"/api/stats", respond.CacheStats, true, nil},
				{"/api/changes", respond.CacheChanges, true, nil},
				{"/api/changes?since=" + first.Next, respond.CacheChanges, false, nil}, // empty page: no time
				{"/feed.atom", respond.CacheAtom, true, nil},
				{"/api/", respond.CacheDocument, true, nil},
				{"/openapi.json", respond.CacheDocument, true, nil},
				{"/llms.txt", respond.CacheDocument, true, nil},
				{"/llms-full.txt", respond.CacheDocument, true, nil},
				{"/okf/index.md", respond.CacheDocument, true, nil},
				{"/okf/api.md", respond.CacheDocument, true, nil},
				{"/agent.json", respond.CacheDocument, true, nil},
				{"/.well-known/agent-card.json", respond.CacheDocument, true, nil},
				{"/.well-known/api-catalog", respond.CacheDocument, true, nil},
				{"/.well-known/security.txt", respond.CacheDocument, true, nil},
				{"/.well-known/x402", respond.CacheDocument, true, nil},
				{"/.well-known/mcp-registry-auth", respond.CacheDocument, true, nil},
				{"/.well-known/apis.json", respond.CacheDocument, true, nil},
				{"/.well-known/mcp/server-card.json", respond.CacheDocument, true, nil},
				{"/apis.json", respond.CacheDocument, true, nil},
				{"/opensearch.xml", respond.CacheDocument, true, nil},
				{"/", "no-cache", false, nil},
				{"/b/" + ids[0], "no-cache", false, nil},
			}
			if variant == "full" {
				routes = append(routes, route{"/api/okf/stats", respond.CacheStats, true, nil})
			}
			with := func(h http.Header, k, v string) http.Header {
				out := h.Clone()
				if out == nil {
					out = http.Header{}
				}
				out.Set(k, v)
				return out
			}
			for _, r := range routes {
				t.Run(r.path+" "+r.header.Get("Accept"), func(t *testing.T) {
					resp, body := a.do(http.MethodGet, r.path, r.header)
					etag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
					if resp.StatusCode != http.StatusOK || len(body) == 0 || !strings.HasPrefix(etag, `W/"`) {
						t.Fatalf("GET: %d, ETag %q", resp.StatusCode, etag)
					}
					if got := resp.Header.Get("Cache-Control"); got != r.cache {
						t.Errorf("Cache-Control %q, want %q", got, r.cache)
					}
					if got := resp.Header.Get("Access-Control-Expose-Headers"); r.cache != "no-cache" && got != "ETag" {
						t.Errorf("Access-Control-Expose-Headers %q, want ETag", got)
					}
					if (lm != "") != r.modified {
						t.Fatalf("Last-Modified %q, want one: %v", lm, r.modified)
					}
					for _, method := range []string{http.MethodGet, http.MethodHead} {
						resp, body := a.do(method, r.path, with(r.header, "If-None-Match", etag))
						if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != etag {
							t.Errorf("%s If-None-Match: %d, %d bytes, ETag %q", method, resp.StatusCode, len(body), resp.Header.Get("ETag"))
						}
					}
					if resp, _ := a.do(http.MethodGet, r.path, with(r.header, "If-None-Match", `"other", W/"nope"`)); resp.StatusCode != http.StatusOK {
						t.Errorf("another ETag: %d, want 200", resp.StatusCode)
					}
					if resp, _ := a.do(http.MethodGet, r.path, with(r.header, "If-None-Match", `W/"x", `+etag)); resp.StatusCode != http.StatusNotModified {
						t.Errorf("a list holding the ETag: %d, want 304", resp.StatusCode)
					}
					if lm == "" {
						return
					}
					at, err := http.ParseTime(lm)
					if err != nil {
						t.Fatalf("Last-Modified %q: %v", lm, err)
					}
					for _, tt := range []struct {
						ims  string
						want int
					}{
						{lm, http.StatusNotModified},
						{at.Add(time.Hour).Format(http.TimeFormat), http.StatusNotModified},
						{at.Add(-time.Second).Format(http.TimeFormat), http.StatusOK},
						{"not a date", http.StatusOK},
					} {
						if resp, _ := a.do(http.MethodGet, r.path, with(r.header, "If-Modified-Since", tt.ims)); resp.StatusCode != tt.want {
							t.Errorf("If-Modified-Since %q: %d, want %d", tt.ims, resp.StatusCode, tt.want)
						}
					}
					h := with(with(r.header, "If-Modified-Since", lm), "If-None-Match", `"other"`)
					if resp, _ := a.do(http.MethodGet, r.path, h); resp.StatusCode != http.StatusOK {
						t.Errorf("another ETag with a current date: %d, want 200 (If-None-Match decides)", resp.StatusCode)
					}
				})
			}

			// A change changes the validators of what it touches.
			resp, _ := a.do(http.MethodGet, "/api/bundles/"+ids[0], nil)
			etag := resp.Header.Get("ETag")
			card.Tagline = "changed"
			upsert(t, st, repoBundle("acme", "cond", "index.md", card, signal(3, "Go", "MIT")))
			if resp, _ := a.do(http.MethodGet, "/api/bundles/"+ids[0], http.Header{"If-None-Match": {etag}}); resp.StatusCode != http.StatusOK {
				t.Errorf("a changed card with its old ETag: %d, want 200", resp.StatusCode)
			}
			resp, _ = a.do(http.MethodGet, "/api/changes?since="+first.Next, nil)
			if resp, _ := a.do(http.MethodGet, "/api/changes?since="+first.Next, http.Header{"If-None-Match": {resp.Header.Get("ETag")}}); resp.StatusCode != http.StatusNotModified {
				t.Errorf("the feed's tail unchanged: %d, want 304", resp.StatusCode)
			}
		})
	}
}
