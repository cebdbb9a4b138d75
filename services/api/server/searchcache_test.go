package server

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/okfindex/okf-index/pkg/pagecache"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

// widget is a bundle found by q=widgets.
func widget(n int) (string, wire.Card) {
	return fmt.Sprintf("w%d", n), wire.Card{Name: fmt.Sprintf("Widgets %d", n), Tagline: "widgets", Description: "All about widgets.",
		OKFVersion: "0.1", Concepts: 1, Type: "reference"}
}

// A search answered from the page cache is the answer the database gives
// when the request arrives: a write is seen by the next request, whatever
// process wrote it.
func TestSearchPageCacheSeesEveryWrite(t *testing.T) {
	a := newAPI(t, "base")
	name, card := widget(1)
	first := upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(3, "Go", "MIT")))[0]
	const path = "/api/bundles?q=widgets&sort=relevance"

	var p wire.Page
	body1 := a.get(path, 200, &p)
	if got := pageIDs(p); len(got) != 1 || got[0] != first {
		t.Fatalf("first search: %v, want [%s]", got, first)
	}
	if body2 := a.get(path, 200, nil); string(body2) != string(body1) {
		t.Fatal("the same search with nothing written: a different answer")
	}
	if s := a.pageCacheStats(); s.Hits != 1 || s.Misses != 1 {
		t.Fatalf("page cache %+v: want 1 miss, then 1 hit", s)
	}

	name, card = widget(2)
	second := upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(3, "Go", "MIT")))[0]
	a.get(path, 200, &p)
	if got := pageIDs(p); len(got) != 2 {
		t.Fatalf("after a second bundle was written: %v, want both", got)
	}
	if err := a.store.HideBundle(t.Context(), second); err != nil {
		t.Fatal(err)
	}
	a.get(path, 200, &p)
	if got := pageIDs(p); len(got) != 1 || got[0] != first {
		t.Fatalf("after the second was hidden: %v, want [%s]", got, first)
	}
	// A changed signal changes the card in the page.
	name, card = widget(1)
	upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(40, "Go", "MIT")))
	a.get(path, 200, &p)
	if len(p.Items) != 1 || p.Items[0].Repo == nil || p.Items[0].Repo.Stars != 40 {
		t.Fatalf("after the stars changed: %+v, want 40 stars", p.Items)
	}
	// The same query written otherwise is the same page.
	a.get("/api/bundles?sort=relevance&q="+url.QueryEscape("widgets")+"&limit=24", 200, nil)
	if s := a.pageCacheStats(); s.Hits != 2 {
		t.Fatalf("page cache %+v: want the spelled-out query to hit", s)
	}
}

// Under concurrent writers every search sees at least the bundles whose
// write had returned before the search was sent.
func TestSearchPageCacheReadAfterWriteUnderConcurrency(t *testing.T) {
	a := newAPI(t, "base")
	const writers, each = 2, 15
	var written atomic.Int64
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				name, card := widget(w*each + i)
				upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(1, "", "")))
				written.Add(1)
			}
		})
	}
	done := make(chan struct{})
	var readers sync.WaitGroup
	for range 4 {
		readers.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				before := written.Load()
				var p wire.Page
				a.get("/api/bundles?q=widgets&limit=100", 200, &p)
				if int64(len(p.Items)) < before {
					t.Errorf("a search sent after %d writes returned %d bundles", before, len(p.Items))
					return
				}
			}
		})
	}
	wg.Wait()
	close(done)
	readers.Wait()
	var p wire.Page
	a.get("/api/bundles?q=widgets&limit=100", 200, &p)
	if len(p.Items) != writers*each {
		t.Fatalf("after the writers: %d bundles, want %d", len(p.Items), writers*each)
	}
	t.Logf("page cache: %+v", a.pageCacheStats())
}

// The page cache's counts are on the operator's metrics.
func TestPageCacheMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	a := newAPIWithOptions(t, storetest.NewStore(t), map[string]string{"PUBLIC_BASE_URL": publicBase}, Options{Metrics: reg})
	for range 3 {
		a.get("/api/bundles?q=widgets", 200, nil)
	}
	a.get("/api/bundles/no-such-bundle", 404, nil)
	want := map[string]float64{
		`okf_page_cache_lookups_total{cache="search"}{result="hit"}`: 2, `okf_page_cache_lookups_total{cache="search"}{result="miss"}`: 1,
		`okf_page_cache_lookups_total{cache="search"}{result="unchecked"}`: 0, `okf_page_cache_lookups_total{cache="card"}{result="miss"}`: 1,
		"okf_page_cache_emptied_total": 1, "okf_page_cache_checks_total": 4}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			name := f.GetName()
			for _, l := range m.GetLabel() {
				name += fmt.Sprintf(`{%s=%q}`, l.GetName(), l.GetValue())
			}
			got[name] = m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if k := `okf_page_cache_bytes{cache="search"}`; got[k] <= 0 {
		t.Errorf("%s = %v, want the page held", k, got[k])
	}
}

// A card is answered from the card cache until its bundle, or any other,
// is written; the Markdown card and the get_bundle tool agree with it.
func TestCardCache(t *testing.T) {
	a := newAPI(t, "base")
	name, card := widget(1)
	id := upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(3, "Go", "MIT")))[0]
	var got wire.Card
	first := a.get("/api/bundles/"+id, 200, &got)
	if string(a.get("/api/bundles/"+id, 200, nil)) != string(first) {
		t.Fatal("the same card with nothing written: a different answer")
	}
	if s := a.cardCacheStats(); s.Hits != 1 || s.Misses != 1 {
		t.Fatalf("card cache %+v: want 1 miss, then 1 hit", s)
	}
	card.Tagline = "widgets, revised"
	upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(3, "Go", "MIT")))
	a.get("/api/bundles/"+id, 200, &got)
	if got.Tagline != "widgets, revised" {
		t.Fatalf("after the bundle changed: tagline %q", got.Tagline)
	}
	if err := a.store.HideBundle(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	a.getError("/api/bundles/"+id, 404, "not_found")
}

// Cached answers go out gzipped to clients that take it and inflated to
// the others, with the same validators; a 304 carries no encoding.
func TestCachedAnswersEncoding(t *testing.T) {
	a := newAPI(t, "base")
	name, card := widget(1)
	id := upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(3, "Go", "MIT")))[0]
	for _, path := range []string{"/api/bundles?q=widgets", "/api/bundles/" + id} {
		plainResp, plain := a.do("GET", path, http.Header{"Accept-Encoding": {"identity"}})
		if plainResp.StatusCode != 200 || plainResp.Header.Get("Content-Encoding") != "" || !json.Valid(plain) {
			t.Fatalf("%s without gzip: %d, encoding %q", path, plainResp.StatusCode, plainResp.Header.Get("Content-Encoding"))
		}
		for range 2 { // a miss, then a hit
			resp, body := a.do("GET", path, http.Header{"Accept-Encoding": {"gzip, br"}})
			if resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Accept-Encoding") {
				t.Fatalf("%s with gzip: encoding %q, Vary %q", path, resp.Header.Get("Content-Encoding"), resp.Header.Values("Vary"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			inflated, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(inflated, plain) {
				t.Fatalf("%s: the gzipped body is not the plain one (%v)", path, err)
			}
			if resp.Header.Get("ETag") != plainResp.Header.Get("ETag") || len(body) >= len(plain) {
				t.Fatalf("%s: ETag %q vs %q, %d gzipped bytes for %d", path, resp.Header.Get("ETag"), plainResp.Header.Get("ETag"), len(body), len(plain))
			}
		}
		resp, _ := a.do("GET", path, http.Header{"Accept-Encoding": {"gzip"}, "If-None-Match": {plainResp.Header.Get("ETag")}})
		if resp.StatusCode != 304 || resp.Header.Get("Content-Encoding") != "" {
			t.Fatalf("%s revalidated: %d, encoding %q; want 304 without one", path, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		head, _ := a.do("HEAD", path, http.Header{"Accept-Encoding": {"gzip"}})
		if head.StatusCode != 200 || head.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("HEAD %s: %d, encoding %q", path, head.StatusCode, head.Header.Get("Content-Encoding"))
		}
	}
}

// Concurrent requests for a page nobody has asked since the last write
// are answered by one search.
func TestSearchPageCacheSharesAMiss(t *testing.T) {
	a := newAPI(t, "base")
	name, card := widget(1)
	upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(3, "Go", "MIT")))
	var wg sync.WaitGroup
	bodies := make([]string, 16)
	for i := range bodies {
		wg.Go(func() { bodies[i] = string(a.get("/api/bundles?q=widgets&sort=relevance", 200, nil)) })
	}
	wg.Wait()
	for _, b := range bodies[1:] {
		if b != bodies[0] {
			t.Fatal("concurrent requests of one page: different answers")
		}
	}
	if s := a.pageCacheStats(); s.Misses+s.Hits != 16 || s.Entries != 1 {
		t.Fatalf("page cache %+v: want 16 lookups and one page", s)
	}
}

// pageCacheStats and cardCacheStats are the counts of the API's caches.
func (a *testAPI) pageCacheStats() pagecache.Stats {
	pages, _ := a.server.search.CacheStats()
	return pages
}

func (a *testAPI) cardCacheStats() pagecache.Stats {
	_, cards := a.server.search.CacheStats()
	return cards
}
