package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// TestAdmission: with every slot of the read pool's gate taken, a read of
// a ReadsIndex route waits up to maxAdmissionWait and is then refused with
// 503 unavailable and Retry-After; other routes pass; a read waiting when
// a slot frees is admitted; and a freed slot admits again.
func TestAdmission(t *testing.T) {
	t.Parallel()
	adm := newAdmission(1, 1)
	slots := cap(adm.reads.slots)
	release := make(chan struct{})
	var entered sync.WaitGroup
	hold := func(c echo.Context) error {
		entered.Done()
		<-release
		return c.NoContent(http.StatusNoContent)
	}
	quick := func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }
	rows := []Route{
		{Method: http.MethodGet, Path: "/hold", Handler: hold, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/read", Handler: quick, ReadsIndex: true},
		{Method: http.MethodGet, Path: "/other", Handler: quick},
	}
	e := echo.New()
	e.HTTPErrorHandler = respond.Error
	e.Use(adm.middleware(route.NewByPath(rows)))
	for _, r := range rows {
		e.Add(r.Method, r.EchoPath(), r.Handler)
		e.Add(http.MethodHead, r.EchoPath(), r.Handler)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)

	get := func(method, path string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}

	// getAsync sends a GET of path and its status (0: no answer) to into.
	getAsync := func(path string, into chan<- int) {
		go func() {
			resp, err := srv.Client().Get(srv.URL + path)
			if err != nil {
				into <- 0
				return
			}
			resp.Body.Close()
			into <- resp.StatusCode
		}()
	}

	entered.Add(slots)
	held := make(chan int, slots)
	for range slots {
		getAsync("/hold", held)
	}
	entered.Wait() // every slot is taken

	for _, method := range []string{http.MethodGet, http.MethodHead} {
		start := time.Now()
		resp := get(method, "/read")
		if waited := time.Since(start); waited < maxAdmissionWait || waited > maxAdmissionWait+2*time.Second {
			t.Errorf("%s /read with every slot taken was answered after %s; want the wait, %s, then a refusal", method, waited, maxAdmissionWait)
		}
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != apierror.DefaultRetryAfter {
			t.Errorf("%s /read with every slot taken: %d, Retry-After %q; want 503 and %s", method, resp.StatusCode, resp.Header.Get("Retry-After"), apierror.DefaultRetryAfter)
		}
		if method == http.MethodGet {
			var body wire.ErrorBody
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Error != apierror.Unavailable || body.Message == "" {
				t.Errorf("refusal body %+v (%v), want unavailable with a message", body, err)
			}
		}
	}
	if resp := get(http.MethodGet, "/other"); resp.StatusCode != http.StatusNoContent {
		t.Errorf("a route that reads no index with every slot taken: %d, want 204", resp.StatusCode)
	}

	// A read that arrives while every slot is taken and one frees within
	// the wait is served.
	waiter := make(chan int, 1)
	getAsync("/read", waiter)
	for adm.reads.waiting.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	release <- struct{}{} // one held read ends
	if code := <-held; code != http.StatusNoContent {
		t.Errorf("a held read answered %d, want 204", code)
	}
	if code := <-waiter; code != http.StatusNoContent {
		t.Errorf("a read waiting when a slot freed: %d, want 204", code)
	}

	close(release)
	for range slots - 1 {
		if code := <-held; code != http.StatusNoContent {
			t.Errorf("a held read answered %d, want 204", code)
		}
	}
	if resp := get(http.MethodGet, "/read"); resp.StatusCode != http.StatusNoContent {
		t.Errorf("/read after the slots were freed: %d, want 204", resp.StatusCode)
	}
}

// TestReadsIndexRows: the routes that read the index through the read pool
// are the ones admission bounds, and only reads (GET) carry the mark.
func TestReadsIndexRows(t *testing.T) {
	t.Parallel()
	a := newAPI(t, "full")
	want := map[string]bool{
		"/api/bundles": true, "/api/bundles/{id}": true, "/api/stats": true, "/api/okf/stats": true,
		"/api/changes": true, "/feed.atom": true, "/api/ping/status": true, "/api/status": true,
		"/": true, "/results": true, "/b/{id}": true, "/stats": true, "/o/{owner}": true, "/r/{owner}/{repo}": true,
	}
	for _, r := range a.server.routes {
		if r.ReadsIndex != want[r.Path] || (r.ReadsIndex && r.Method != http.MethodGet) {
			t.Errorf("%s %s: ReadsIndex %v", r.Method, r.Path, r.ReadsIndex)
		}
	}
}

// TestAdmissionOfCachedRoutes: with every slot of both gates taken, an
// answer the page cache holds is still served; a miss, which would read
// the index, is refused like any other index read. A card's miss reads
// the lookup pool: searches holding the read pool's gate do not refuse
// it.
func TestAdmissionOfCachedRoutes(t *testing.T) {
	a := newAPI(t, "base")
	name, card := widget(1)
	ids := upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(3, "Go", "MIT")))
	name2, card2 := widget(2)
	ids = append(ids, upsert(t, a.store, repoBundle("acme", name2, "two/index.md", card2, signal(3, "Go", "MIT")))...)
	a.get("/api/bundles?q=widgets", 200, nil)
	a.get("/api/bundles/"+ids[0], 200, nil)

	fill := func(g *gate) {
		for range cap(g.slots) {
			g.slots <- struct{}{}
		}
	}
	empty := func(g *gate) {
		for range cap(g.slots) {
			<-g.slots
		}
	}
	adm := a.server.admission
	fill(adm.reads)
	a.get("/api/bundles?q=widgets", 200, nil)
	a.get("/api/bundles/"+ids[0], 200, nil)
	a.getError("/api/bundles?q=gadgets", 503, apierror.Unavailable)
	a.getError("/api/stats", 503, apierror.Unavailable)
	fill(adm.lookups)
	a.get("/api/bundles/"+ids[0], 200, nil) // held by the card cache
	a.getError("/api/bundles/"+ids[1], 503, apierror.Unavailable)
	empty(adm.lookups)
	a.get("/api/bundles/"+ids[1], 200, nil) // the read pool's gate is still full
	empty(adm.reads)
	a.get("/api/bundles?q=gadgets", 200, nil)
}

// TestCachedRows: only the routes answered from the page cache are
// marked Cached, and they read the index.
func TestCachedRows(t *testing.T) {
	t.Parallel()
	a := newAPI(t, "full")
	for _, r := range a.server.routes {
		want := r.Path == "/api/bundles" || r.Path == "/api/bundles/{id}"
		if r.Cached != want || (r.Cached && !r.ReadsIndex) {
			t.Errorf("%s %s: Cached %v, ReadsIndex %v", r.Method, r.Path, r.Cached, r.ReadsIndex)
		}
	}
}
