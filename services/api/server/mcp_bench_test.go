package server

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

// BenchmarkSearchRESTvsMCP answers the same search over REST and through
// the search_bundles tool, on 500 bundles over loopback, to show what MCP
// adds per call (JSON-RPC framing, argument checks, the result twice).
func BenchmarkSearchRESTvsMCP(b *testing.B) {
	st := storetest.NewStore(b)
	for i := range 500 {
		in := repoBundle("bench", fmt.Sprintf("repo-%03d", i), "index.md",
			wire.Card{Name: fmt.Sprintf("Garden guide %d", i), Tagline: "Plants and soil", OKFVersion: "0.2", ConceptList: concepts("Plant", 5)},
			signal(i, "Go", "MIT"))
		if _, err := st.UpsertBundle(b.Context(), in); err != nil {
			b.Fatal(err)
		}
	}
	cfg, _ := config.Load(func(k string) string { return map[string]string{"PUBLIC_BASE_URL": publicBase}[k] })
	srv, err := New(st, Options{Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Close()
	client := hs.Client()
	send := func(req *http.Request) {
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	b.Run("REST", func(b *testing.B) {
		for b.Loop() {
			req, _ := http.NewRequest("GET", hs.URL+"/api/bundles?q=garden&limit=10&sort=stars", nil)
			send(req)
		}
	})
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_bundles","arguments":{"q":"garden","limit":10,"sort":"stars"}}}`)
	b.Run("MCP", func(b *testing.B) {
		for b.Loop() {
			req, _ := http.NewRequest("POST", hs.URL+"/mcp", bytes.NewReader(call))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
			send(req)
		}
	})
}
