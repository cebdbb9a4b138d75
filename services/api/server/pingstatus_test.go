package server

import (
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// The status pages through a host's submissions with limit and the cursor
// of next, each URL once, and refuses a parameter given twice (as the
// search does), a bad limit and a bad cursor.
func TestPingStatusPaging(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	var urls []string
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		urls = append(urls, "https://docs.example/"+p+"/index.md")
	}
	if resp, body := a.post("/api/ping", pingBody("docs.example", testKey, urls, nil)); resp.StatusCode != 202 {
		t.Fatalf("ping: %d %s", resp.StatusCode, body)
	}
	seen := map[string]bool{}
	path, pages := "/api/ping/status?host=docs.example&limit=2", 0
	for {
		var page wire.PingStatusPage
		raw := a.get(path, 200, &page)
		pages++
		if len(page.Items) == 0 || len(page.Items) > 2 || !strings.Contains(string(raw), `"retry_at":null`) {
			t.Fatalf("page %d: %s", pages, raw)
		}
		for _, it := range page.Items {
			if seen[it.URL] {
				t.Fatalf("%s on two pages", it.URL)
			}
			seen[it.URL] = true
		}
		if page.Next == nil {
			break
		}
		if !strings.HasPrefix(*page.Next, publicBase+"/api/ping/status?") {
			t.Fatalf("next %s", *page.Next)
		}
		path = strings.TrimPrefix(*page.Next, publicBase)
	}
	if len(seen) != len(urls) || pages != 3 {
		t.Errorf("%d URLs over %d pages, want %d over 3", len(seen), pages, len(urls))
	}
	var all wire.PingStatusPage
	if a.get("/api/ping/status?host=docs.example&limit=500", 200, &all); len(all.Items) != len(urls) || all.Next != nil {
		t.Errorf("limit above the most: %+v", all)
	}

	for _, c := range []struct{ query, field string }{
		{"host=docs.example&host=other.example", "host"},
		{"host=docs.example&limit=2&limit=3", "limit"},
		{"host=docs.example&limit=0", "limit"},
		{"host=docs.example&limit=ten", "limit"},
		{"host=docs.example&cursor=abc", "cursor"},
		{"host=docs.example&cursor=1&cursor=2", "cursor"},
	} {
		if e := a.getError("/api/ping/status?"+c.query, 400, apierror.InvalidParameter); e.Field != c.field {
			t.Errorf("%s: field %q, want %q", c.query, e.Field, c.field)
		}
	}
}
