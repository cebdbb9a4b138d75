package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// TestAdmission: with every slot taken, a read of a ReadsIndex route is
// refused at once with 503 unavailable and Retry-After, other routes pass,
// and a freed slot admits again.
func TestAdmission(t *testing.T) {
	t.Parallel()
	const slots = 2
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
	e.Use(newAdmission(slots).middleware(route.NewByPath(rows)))
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

	entered.Add(slots)
	held := make(chan int, slots)
	for range slots {
		go func() {
			resp, err := srv.Client().Get(srv.URL + "/hold")
			if err != nil {
				held <- 0
				return
			}
			resp.Body.Close()
			held <- resp.StatusCode
		}()
	}
	entered.Wait() // every slot is taken

	for _, method := range []string{http.MethodGet, http.MethodHead} {
		resp := get(method, "/read")
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

	close(release)
	for range slots {
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

// TestAdmissionOfCachedRoutes: with every slot taken, an answer the page
// cache holds is still served; a miss, which would read the index, is
// refused like any other index read.
func TestAdmissionOfCachedRoutes(t *testing.T) {
	a := newAPI(t, "base")
	name, card := widget(1)
	id := upsert(t, a.store, repoBundle("acme", name, "index.md", card, signal(3, "Go", "MIT")))[0]
	a.get("/api/bundles?q=widgets", 200, nil)
	a.get("/api/bundles/"+id, 200, nil)

	for range maxReadsInFlight {
		a.server.admission.slots <- struct{}{}
	}
	a.get("/api/bundles?q=widgets", 200, nil)
	a.get("/api/bundles/"+id, 200, nil)
	a.getError("/api/bundles?q=gadgets", 503, apierror.Unavailable)
	a.getError("/api/stats", 503, apierror.Unavailable)
	for range maxReadsInFlight {
		<-a.server.admission.slots
	}
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
