package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/logging/logtest"
	"github.com/okfindex/okf-index/pkg/pgcluster"
	"github.com/okfindex/okf-index/pkg/safefetch"
	"github.com/okfindex/okf-index/pkg/safefetch/safefetchtest"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// The domain whose pings the runs send, served by a local TLS site that
// the worker reaches by name (safefetch's test settings).
const (
	siteHost = "fault-site.test"
	siteKey  = "okf-fault-key-0001"
)

// rig is a running service on a private Postgres cluster the test may stop
// and start: the API over loopback HTTP, and optionally a worker, both in
// this process for the whole run (neither is ever restarted).
type rig struct {
	t       *testing.T
	cluster *pgcluster.Cluster
	dbURL   string
	st      *store.Store
	api     string // the API's loopback URL
	logs    *logtest.Buffer
	client  *http.Client
}

// newRig starts a cluster of its own (its directory under the name the
// test clusters share, so an orphan is reaped), migrates a database, and
// starts the API on it.
func newRig(t *testing.T) *rig {
	t.Helper()
	ctx := t.Context()
	if n, err := pgcluster.Reap(filepath.Join(os.TempDir(), "okf-test-pg-*")); err == nil && n > 0 {
		t.Logf("removed %d orphan test clusters", n)
	}
	dir, err := os.MkdirTemp("", "okf-test-pg-")
	if err != nil {
		t.Fatal(err)
	}
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cluster.Remove() })
	if err := cluster.ClaimOwnership(); err != nil {
		t.Fatal(err)
	}
	if err := cluster.CreateDatabase(ctx, "okf", ""); err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, cluster: cluster, dbURL: cluster.URL("okf"), logs: &logtest.Buffer{},
		client: &http.Client{Timeout: 20 * time.Second}}
	if err := store.Migrate(ctx, r.dbURL); err != nil {
		t.Fatal(err)
	}
	if r.st, err = store.Open(ctx, store.Config{URL: r.dbURL}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.st.Close)
	cfg, err := config.Load(func(k string) string {
		// The load comes from one loopback client: the per-client ping
		// limit (tested in services/api/server) is out of the way.
		return map[string]string{"PUBLIC_BASE_URL": "https://okf-index.example/", "PING_RATE_PER_MINUTE": "100000"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(r.st, server.Options{Config: cfg, Build: "faults", Logger: slog.New(slog.NewJSONHandler(r.logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(srv.Close)
	t.Cleanup(hs.Close) // runs first
	r.api = hs.URL
	return r
}

// startWorker runs the worker's River client on the rig's database, its
// guarded client reaching the local TLS site of siteHost, which serves the
// key file and a bundle root at every /<name>/index.md.
func (r *rig) startWorker() {
	r.t.Helper()
	site := safefetchtest.NewTLSServer(r.t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch {
		case req.URL.Path == "/"+siteKey+".txt":
			_, _ = io.WriteString(w, siteKey+"\n")
		case strings.HasSuffix(req.URL.Path, "/index.md"):
			name := strings.TrimSuffix(strings.TrimPrefix(req.URL.Path, "/"), "/index.md")
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			fmt.Fprintf(w, "---\nokf_version: \"0.2\"\ntitle: Fault %s\ndescription: Bundle %s of the fault run\n---\n\n# Fault %s\n\n- [Setup](setup.md)\n", name, name, name)
		default:
			http.NotFound(w, req)
		}
	}), siteHost)
	client, err := worker.NewClient(worker.Options{
		Store:  r.st,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Fetch: safefetch.Options{AllowLoopback: true, RootCAs: site.RootCAs(), DialOverride: site.DialOverride(),
			Timeout: 5 * time.Second},
	})
	if err != nil {
		r.t.Fatal(err)
	}
	if err := client.Start(r.t.Context()); err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = client.Stop(ctx)
	})
}

// admin runs statements on the rig's database as the superuser.
func (r *rig) admin(sqls ...string) {
	r.t.Helper()
	conn, err := pgx.Connect(r.t.Context(), r.dbURL)
	if err != nil {
		r.t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, sql := range sqls {
		if _, err := conn.Exec(r.t.Context(), sql); err != nil {
			r.t.Fatalf("%s: %v", sql, err)
		}
	}
}

// answer is one request of the load and what it got.
type answer struct {
	at         time.Time
	took       time.Duration
	status     int
	name       string // the error name of an error body
	retryAfter string
	err        error // a transport failure: no answer at all
}

// kind is the answer as the figures count it: "200", "503 unavailable",
// "transport error".
func (a answer) kind() string {
	switch {
	case a.err != nil:
		return "transport error"
	case a.name != "":
		return fmt.Sprintf("%d %s", a.status, a.name)
	}
	return fmt.Sprint(a.status)
}

// send makes one request of the load.
func (r *rig) send(method, path, body string) answer {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(r.t.Context(), method, r.api+path, rd)
	if err != nil {
		return answer{err: err}
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := r.client.Do(req)
	a := answer{at: start, took: time.Since(start), err: err}
	if err != nil {
		return a
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a.took, a.status, a.retryAfter = time.Since(start), resp.StatusCode, resp.Header.Get("Retry-After")
	if resp.StatusCode >= 400 {
		var e server.ErrorBody
		_ = json.Unmarshal(b, &e)
		a.name = e.Error
	}
	return a
}

// tally counts the answers of a run by phase and kind.
type tally struct {
	mu     sync.Mutex
	counts map[string]map[string]int // phase → kind → n
	order  []string
}

func (t *tally) add(phase string, a answer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[string]map[string]int{}
	}
	if t.counts[phase] == nil {
		t.counts[phase] = map[string]int{}
		t.order = append(t.order, phase)
	}
	t.counts[phase][a.kind()]++
}

// String is the figures: each phase's answers by kind.
func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	for _, p := range t.order {
		fmt.Fprintf(&b, "\n  %-8s", p)
		kinds := slices.Sorted(maps.Keys(t.counts[p]))
		for _, k := range kinds {
			fmt.Fprintf(&b, "  %s: %d", k, t.counts[p][k])
		}
	}
	return b.String()
}
