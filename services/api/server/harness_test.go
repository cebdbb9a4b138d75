package server

import (
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/logging/logtest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/protoerr"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// publicBase is the PUBLIC_BASE_URL of the test servers. It is not the
// loopback address they listen on, so a URL built from the request's Host
// would show.
const publicBase = "https://okf-index.example"

// testAPI is a running API over loopback with a contract-checking client.
type testAPI struct {
	t      *testing.T
	url    string // loopback URL the server listens on
	client *http.Client
	store  *store.Store
	full   bool
	server *Server
	logs   *logtest.Buffer // the server's JSON log
}

// newAPI starts the API of a variant on a fresh database.
func newAPI(t *testing.T, variant string) *testAPI {
	t.Helper()
	return newAPIOn(t, storetest.NewStore(t), variant)
}

// newAPIOn starts the API of a variant on st.
func newAPIOn(t *testing.T, st *store.Store, variant string) *testAPI {
	t.Helper()
	// The per-client limit of POST /api/ping is out of the way: the tests
	// send many pings from one loopback client; ratelimit_test.go tests it.
	return newAPIWith(t, st, map[string]string{"PUBLIC_BASE_URL": publicBase + "/", "VARIANT": variant,
		"PING_RATE_PER_MINUTE": "100000"})
}

// newAPIWith starts the API configured by env on st.
func newAPIWith(t *testing.T, st *store.Store, env map[string]string) *testAPI {
	t.Helper()
	return newAPIWithClock(t, st, env, nil)
}

// newAPIWithClock starts the API configured by env on st, with now as the
// clock of its per-client limits (time.Now when nil).
func newAPIWithClock(t *testing.T, st *store.Store, env map[string]string, now func() time.Time) *testAPI {
	t.Helper()
	return newAPIWithOptions(t, st, env, Options{Now: now})
}

// newAPIWithOptions starts the API configured by env on st with opts (its
// Config, Build and Logger are the harness's).
func newAPIWithOptions(t *testing.T, st *store.Store, env map[string]string, opts Options) *testAPI {
	t.Helper()
	if _, set := env["X402_MODE"]; !set && env["VARIANT"] == config.VariantFull {
		// The full variant has no default payment mode; tests that do not
		// pay run it in dev.
		env = maps.Clone(env)
		env["X402_MODE"] = "dev"
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	logs := &logtest.Buffer{}
	opts.Config, opts.Build, opts.Logger = cfg, "test-build", slog.New(slog.NewJSONHandler(logs, nil))
	srv, err := New(st, opts)
	if err != nil {
		t.Fatal(err)
	}
	// The listener and header limit of okf-api (services/api/main.go): Go's
	// own refusals answer as JSON errors there too.
	hs := httptest.NewUnstartedServer(srv)
	hs.Listener = protoerr.Listener{Listener: hs.Listener}
	hs.Config.MaxHeaderBytes = MaxHeaderBytes
	hs.Start()
	t.Cleanup(srv.Close)
	t.Cleanup(hs.Close) // runs first: drain, then stop the loops
	return &testAPI{
		t:      t,
		url:    hs.URL,
		client: &http.Client{Transport: newContractTransport(t, cfg.Full(), http.DefaultTransport)},
		store:  st,
		full:   cfg.Full(),
		server: srv,
		logs:   logs,
	}
}

// do sends one request; path is relative to the server, or an absolute URL
// under publicBase, which is rewritten to the loopback address.
func (a *testAPI) do(method, path string, header http.Header) (*http.Response, []byte) {
	a.t.Helper()
	if rest, ok := strings.CutPrefix(path, publicBase); ok {
		path = rest
	}
	req, err := http.NewRequestWithContext(a.t.Context(), method, a.url+path, nil)
	if err != nil {
		a.t.Fatal(err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if h := header.Get("Host"); h != "" {
		req.Host = h
	}
	resp, err := a.client.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	return resp, body
}

// get sends a GET, checks the status and decodes the JSON body into v (when
// v is not nil). It returns the body.
func (a *testAPI) get(path string, wantStatus int, v any) []byte {
	a.t.Helper()
	resp, body := a.do(http.MethodGet, path, nil)
	if resp.StatusCode != wantStatus {
		a.t.Fatalf("GET %s: status %d, want %d; body %s", path, resp.StatusCode, wantStatus, body)
	}
	if v != nil {
		if err := json.Unmarshal(body, v); err != nil {
			a.t.Fatalf("GET %s: decode %s: %v", path, body, err)
		}
	}
	return body
}

// getError sends a GET that must fail with status and error name, and
// returns the error body.
func (a *testAPI) getError(path string, status int, name string) wire.ErrorBody {
	a.t.Helper()
	var e wire.ErrorBody
	a.get(path, status, &e)
	if e.Error != name || e.Message == "" {
		a.t.Fatalf("GET %s: error %+v, want name %q and a message", path, e, name)
	}
	return e
}
