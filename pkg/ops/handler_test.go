package ops_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/ops"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

func TestMain(m *testing.M) { storetest.Main(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// serve starts the operator listener of opts on a free loopback port and
// returns its base URL.
func serve(t *testing.T, opts ops.Options) string {
	t.Helper()
	l, err := ops.Listen("127.0.0.1:0", ops.NewHandler(opts), quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Shutdown(context.Background()) })
	return "http://" + l.Addr().String()
}

// get sends a GET with an optional Authorization header.
func get(t *testing.T, url, auth string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestOperatorPaths(t *testing.T) {
	var dbErr atomic.Pointer[error]
	ui := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ui "+r.URL.Path) })
	withUI := serve(t, ops.Options{
		Ready:    func(context.Context) error { return *dbErr.Load() },
		Gatherer: ops.NewRegistry(fakeSource{}, quiet),
		RiverUI:  ui,
		Token:    "s3cret",
		Logger:   quiet,
	})
	noToken := serve(t, ops.Options{RiverUI: ui, Logger: quiet})
	noUI := serve(t, ops.Options{Logger: quiet})

	for _, tc := range []struct {
		name   string
		url    string
		auth   string
		dbErr  error
		status int
		body   string
	}{
		{"live", withUI + ops.LivePath, "", nil, 200, "ok"},
		{"live while the database is down", withUI + ops.LivePath, "", errors.New("down"), 200, "ok"},
		{"ready", withUI + ops.ReadyPath, "", nil, 200, "ok"},
		{"not ready", withUI + ops.ReadyPath, "", errors.New("dial: refused"), 503, "not ready: dial: refused"},
		{"ready without a check", noUI + ops.ReadyPath, "", nil, 200, "ok"},
		{"metrics", withUI + ops.MetricsPath, "", nil, 200, "go_goroutines"},
		{"metrics are open", withUI + ops.MetricsPath, "Bearer wrong", nil, 200, "process_"},
		{"river ui without credentials", withUI + ops.RiverUIPath, "", nil, 401, "operator token required"},
		{"river ui with a wrong token", withUI + ops.RiverUIPath + "jobs", "Bearer nope", nil, 401, ""},
		{"river ui with the token", withUI + ops.RiverUIPath + "jobs", "Bearer s3cret", nil, 200, "ui /riverui/jobs"},
		{"river ui without METRICS_TOKEN", noToken + ops.RiverUIPath, "Bearer s3cret", nil, 503, "not configured"},
		{"no river ui on the worker", noUI + ops.RiverUIPath, "Bearer s3cret", nil, 404, ""},
		{"unknown path", withUI + "/nope", "", nil, 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dbErr.Store(&tc.dbErr)
			status, body := get(t, tc.url, tc.auth)
			if status != tc.status || !strings.Contains(body, tc.body) {
				t.Fatalf("status %d body %.200q, want %d with %q", status, body, tc.status, tc.body)
			}
		})
	}
}

// fakeSource stands for a store whose counts cannot be read.
type fakeSource struct{}

func (fakeSource) PoolStats() []store.PoolStat { return nil }
func (fakeSource) OpsStats(context.Context) (store.OpsStats, error) {
	return store.OpsStats{}, errors.New("no database")
}

// The registry of a store exposes its pools, River's job counts, the
// sweep's and pings' progress, and the runtime, over a real scrape.
func TestMetricsFromStore(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	rc, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Insert(ctx, jobs.RecountStatsArgs{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Insert(ctx, jobs.SweepDiscoverArgs{Round: "2026-03-02T00:00:00Z"}, nil); err != nil {
		t.Fatal(err)
	}
	base := serve(t, ops.Options{Ready: st.Ping, Gatherer: ops.NewRegistry(st, quiet), Logger: quiet})
	status, body := get(t, base+ops.MetricsPath, "")
	if status != 200 {
		t.Fatalf("status %d: %s", status, body)
	}
	for _, want := range []string{
		"okf_db_stats_up 1",
		`okf_river_jobs{kind="recount_stats",state="available"} 1`,
		`okf_river_jobs{kind="recount_stats",state="completed"} 0`,
		`okf_river_jobs{kind="sweep_discover",state="available"} 1`,
		"okf_sweep_round_start_timestamp_seconds 1.7724096e+09",
		`okf_sweep_candidates{state="pending"} 0`,
		`okf_sweep_windows{discoverer="code_search",state="open"} 0`,
		`okf_pings{estado="pendente"} 0`,
		`okf_concept_links{state="missing"} 0`,
		`okf_concept_links{state="total"} 0`,
		"okf_concept_links_missing_ratio 0",
		`okf_db_pool_max_conns{pool="write"}`,
		`okf_db_pool_max_conns{pool="read"}`,
		`okf_db_pool_acquires_total{pool="write"}`,
		"go_goroutines",
		"process_resident_memory_bytes",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("scrape lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("scrape:\n%s", body)
	}
}

// A scrape whose database counts fail still serves the rest, with
// okf_db_stats_up 0.
func TestMetricsWithoutDatabase(t *testing.T) {
	base := serve(t, ops.Options{Gatherer: ops.NewRegistry(fakeSource{}, quiet), Logger: quiet})
	start := time.Now()
	status, body := get(t, base+ops.MetricsPath, "")
	if status != 200 || !strings.Contains(body, "okf_db_stats_up 0") || !strings.Contains(body, "go_goroutines") ||
		strings.Contains(body, "okf_river_jobs") {
		t.Fatalf("status %d:\n%s", status, body)
	}
	if time.Since(start) > ops.StatsTimeout {
		t.Errorf("scrape took %v", time.Since(start))
	}
}
