package server

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// quietServer is the base API on st with its log discarded, for
// benchmarks that call its handler directly; it is closed with b.
func quietServer(b *testing.B, st *store.Store) *Server {
	cfg, err := config.Load(func(k string) string { return map[string]string{"PUBLIC_BASE_URL": publicBase}[k] })
	if err == nil {
		var srv *Server
		if srv, err = New(st, Options{Config: cfg, Logger: slog.New(slog.DiscardHandler)}); err == nil {
			b.Cleanup(srv.Close)
			return srv
		}
	}
	b.Fatal(err)
	return nil
}

// assetBytes is what the pages' assets transfer gzipped, fetched once.
func assetBytes(b *testing.B, srv *Server) int {
	n := 0
	for _, name := range []string{"app.css", "app.js", "icon.svg"} {
		req := httptest.NewRequest(http.MethodGet, srv.web.AssetURL(name), nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d", name, rec.Code)
		}
		n += rec.Body.Len()
	}
	return n
}

// BenchmarkWebPages measures the server render of the search page (24
// results, the API's default page, with its filters) and of a bundle page,
// in the handler without the network, and reports the bytes the first page
// transfers gzipped (the bound: under 50 KB) and under 20 ms a
// render; first-visit-bytes adds the style sheet, the script and the icon.
func BenchmarkWebPages(b *testing.B) {
	st := storetest.NewStore(b)
	ids := webCorpus(b, st)
	srv := quietServer(b, st)
	for _, page := range []struct{ name, path string }{{"search", "/"}, {"search_q", "/?q=field+guide"}, {"bundle", "/b/" + ids[0]}} {
		b.Run(page.name, func(b *testing.B) {
			var size int
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, page.path, nil)
				req.Header.Set("Accept-Encoding", "gzip")
				req.Header.Set("User-Agent", smokeAgent) // not usage
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", page.path, rec.Code)
				}
				size = rec.Body.Len()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/render")
			b.ReportMetric(float64(size), "gzip-bytes")
			if page.path == "/" {
				b.ReportMetric(float64(size+assetBytes(b, srv)), "first-visit-bytes")
			}
		})
	}
}
