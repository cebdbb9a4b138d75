package smoke

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/services/api/server"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// startAPI serves the real API of a variant over loopback, its public base
// URL being the address it listens on, with one bundle indexed; wrap, when
// not nil, stands between the client and the API.
func startAPI(t *testing.T, variant string, wrap func(http.Handler) http.Handler) (string, *store.Store) {
	t.Helper()
	st := storetest.NewStore(t)
	root := []byte("---\nokf_version: \"0.2\"\n---\n# Smoke Garden\n\nPlants.\n\n- [Roses](roses.md): red ones\n")
	in, err := indexer.FromSite(root, source.Site{URL: "https://garden.example/okf/index.md"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpsertBundle(t.Context(), in); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	cfg, err := config.Load(func(k string) string {
		return map[string]string{"PUBLIC_BASE_URL": base, "VARIANT": variant, "X402_MODE": "dev"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(st, server.Options{Config: cfg, Build: "smoke-test", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	hs := httptest.NewUnstartedServer(h)
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	t.Cleanup(srv.Close)
	t.Cleanup(hs.Close)
	return base, st
}

func TestSmokePasses(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{config.VariantBase, config.VariantFull} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			base, st := startAPI(t, variant, nil)
			results, err := Run(t.Context(), Options{BaseURL: base + "/"})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				if r.Err != nil {
					t.Errorf("%s: %v", r.Name, r.Err)
				}
			}
			names := map[string]bool{}
			for _, r := range results {
				names[r.Name] = true
			}
			for _, want := range []string{"GET /api/", "GET /api/bundles/{id}", "POST /mcp", "GET /okf/index.md", "GET /.well-known/api-catalog", "POST /api/visit", "GET /api/status", "GET /api/status (bad repo)"} {
				if !names[want] {
					t.Errorf("no check %q", want)
				}
			}
			for _, full := range []string{"GET /api/pricing", "GET /api/auth/bootstrap", "GET /api/me (no session)", "GET /api/bundles (unknown API key)", "GET /api/partners", "GET /api/vitrine", "POST /api/pagamento/aberto (ignored)"} {
				if got := names[full]; got != (variant == config.VariantFull) {
					t.Errorf("%s checked: %v on %s", full, got, variant)
				}
			}
			// The smoke traffic counted nothing.
			time.Sleep(1200 * time.Millisecond) // past a usage flush
			rows, err := st.Usage(t.Context(), time.Now().AddDate(0, 0, -1), time.Now().AddDate(0, 0, 1))
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 0 {
				t.Errorf("smoke traffic was counted: %+v", rows)
			}
		})
	}
}

// TestSmokeNamesBrokenRoutes breaks routes on purpose between the client
// and the API: the suite fails, naming each broken route and only those.
func TestSmokeNamesBrokenRoutes(t *testing.T) {
	t.Parallel()
	broken := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Access-Control-Allow-Origin", "*")
			switch r.URL.Path {
			case "/api/stats":
				http.Error(w, `{"error":"internal_error","message":"broken on purpose"}`, http.StatusInternalServerError)
			case "/okf/api.md":
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<html>not the document</html>")
			case "/.well-known/house-smoke":
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<html>a page for every name</html>")
			default:
				next.ServeHTTP(w, r)
			}
		})
	}
	base, _ := startAPI(t, config.VariantBase, broken)
	results, err := Run(t.Context(), Options{BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, r := range results {
		if r.Err != nil {
			failed = append(failed, r.Name+": "+r.Err.Error())
		}
	}
	want := []string{"GET /api/stats: status 500", "GET /okf/api.md: Content-Type", "GET /.well-known/house-smoke (unknown): status 200"}
	if len(failed) != len(want) {
		t.Fatalf("failed checks %q, want %d", failed, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(failed[i], w) {
			t.Errorf("failure %d: %q, want it to start %q", i, failed[i], w)
		}
	}
}

func TestSmokeRefusesABadBaseURL(t *testing.T) {
	if _, err := Run(t.Context(), Options{BaseURL: "okf.example"}); err == nil {
		t.Error("a base URL without a scheme was accepted")
	}
}
