package worker_test

import (
	"bufio"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/githubtest"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// fakeClock is shared by the local GitHub and the sweep: it moves only when
// the sweep sleeps (rate limits, code-search pacing), so waits are instant.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.Advance(d)
	return ctx.Err()
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.t = c.t.Add(d)
	}
}

// corpusDir is ../shared/corpus/real beside the checkout.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("../../../../shared/corpus/real")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		t.Fatalf("the real corpus must be at %s (../shared beside the checkout): %v", dir, err)
	}
	return dir
}

// root is one row of the corpus manifest: a root index.md and whether it
// is a bundle.
type root struct {
	Owner, Name, Path, Kind string
}

func (r root) bundle() bool {
	return strings.HasPrefix(r.Kind, "bundle") || r.Kind == "fixture" || r.Kind == "unattributed"
}

func (r root) id() string { return source.Repo{Owner: r.Owner, Name: r.Name, Path: r.Path}.ID() }

// manifestRoots reads the index.md rows of MANIFEST.tsv.
func manifestRoots(t testing.TB, dir string) []root {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []root
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for first := true; sc.Scan(); first = false {
		cols := strings.Split(sc.Text(), "\t")
		if first || len(cols) < 10 || !strings.HasSuffix(cols[2], "index.md") {
			continue
		}
		owner, name, _ := strings.Cut(cols[0], "/")
		if owner == "_unattributed" {
			owner = githubtest.UnattributedOwner
		}
		out = append(out, root{Owner: owner, Name: name, Path: cols[2], Kind: cols[9]})
	}
	if len(out) < 50 {
		t.Fatalf("manifest: only %d roots", len(out))
	}
	return out
}

// harness is a local GitHub, a database and the means to run the sweep.
type harness struct {
	t     testing.TB
	clock *fakeClock
	gh    *githubtest.Server
	dbURL string
	st    *store.Store
	pool  *pgxpool.Pool
	roots []root
}

func newHarness(t testing.TB) *harness {
	return newHarnessWith(t, githubtest.Options{}, true)
}

// newHarnessWith starts a local GitHub with opts on the harness's clock,
// holding the real corpus when corpus is set.
func newHarnessWith(t testing.TB, opts githubtest.Options, corpus bool) *harness {
	t.Helper()
	clk := newFakeClock()
	dir := corpusDir(t)
	opts.Now = clk.Now
	srv := githubtest.New(t, opts)
	if corpus {
		if err := srv.LoadCorpus(dir); err != nil {
			t.Fatal(err)
		}
	}
	dbURL := storetest.NewDatabase(t)
	st, err := store.Open(context.Background(), store.Config{URL: dbURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return &harness{t: t, clock: clk, gh: srv, dbURL: dbURL, st: st, pool: st.Pool(), roots: manifestRoots(t, dir)}
}

// github returns a sweep client of the local GitHub on the shared clock.
func (h *harness) github() *github.Client {
	return github.New(github.Config{GraphQLURL: h.gh.GraphQLURL(), Token: "test-token",
		HTTPClient: h.gh.Client(), Clock: h.clock, MaxWait: 24 * time.Hour, Logger: quietLog()})
}

func quietLog() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// seeds lists every repository of the local GitHub.
func (h *harness) seeds() []github.RepoRef {
	var out []github.RepoRef
	for _, n := range h.gh.RepoNames() {
		r, err := github.ParseRepoRef(n)
		if err != nil {
			h.t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// startWorker starts a worker River client with the sweep on.
func (h *harness) startWorker(ctx context.Context, cfg worker.SweepConfig) *river.Client[pgx.Tx] {
	h.t.Helper()
	cfg.DiscoverEvery = 24 * time.Hour
	client, err := worker.NewClient(worker.Options{Store: h.st, Logger: quietLog(), GitHub: h.github(), Sweep: cfg, Now: h.clock.Now})
	if err != nil {
		h.t.Fatal(err)
	}
	if err := client.Start(ctx); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { _ = client.Stop(context.Background()) })
	return client
}

// firstRound waits for the round that the periodic jobs run on start.
func (h *harness) firstRound(ctx context.Context) {
	h.t.Helper()
	for {
		var n int
		if err := h.pool.QueryRow(ctx, `SELECT count(DISTINCT kind) FROM river_job
			WHERE kind IN ('sweep_discover', 'enrich_repos')`).Scan(&n); err != nil {
			h.t.Fatal(err)
		}
		if n == 2 {
			break
		}
		select {
		case <-ctx.Done():
			h.t.Fatal("the periodic sweep jobs never started")
		case <-time.After(20 * time.Millisecond):
		}
	}
	h.waitIdle(ctx)
}

// round queues a discovery round at the clock's time (a day after the last)
// and waits until every sweep job has finished.
func (h *harness) round(ctx context.Context, client *river.Client[pgx.Tx]) {
	h.t.Helper()
	h.clock.Advance(25 * time.Hour)
	r := h.clock.Now().UTC().Truncate(24 * time.Hour).Format(time.RFC3339)
	if _, err := client.Insert(ctx, jobs.SweepDiscoverArgs{Round: r}, nil); err != nil {
		h.t.Fatal(err)
	}
	h.waitIdle(ctx)
}

// waitIdle waits until no sweep job is pending, then fails the test if any
// sweep job ever failed an attempt.
func (h *harness) waitIdle(ctx context.Context) {
	h.t.Helper()
	for {
		var pending int
		err := h.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE queue = $1
			AND state NOT IN ('completed', 'cancelled', 'discarded')`, jobs.QueueSweep).Scan(&pending)
		if err != nil {
			h.t.Fatal(err)
		}
		if pending == 0 {
			break
		}
		select {
		case <-ctx.Done():
			h.t.Fatalf("sweep did not finish: %d jobs pending", pending)
		case <-time.After(20 * time.Millisecond):
		}
	}
	var failed []string
	rows, err := h.pool.Query(ctx, `SELECT kind || ': ' || coalesce(errors[array_length(errors, 1)]->>'error', state::text)
		FROM river_job WHERE queue = $1 AND (state <> 'completed' OR coalesce(array_length(errors, 1), 0) > 0)`, jobs.QueueSweep)
	if err != nil {
		h.t.Fatal(err)
	}
	failed, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		h.t.Fatal(err)
	}
	if len(failed) > 0 {
		h.t.Fatalf("sweep jobs failed: %v", failed)
	}
}

// bundleRow is what the tests compare of a bundle.
type bundleRow struct {
	Visibility wire.Visibility
	UpdatedAt  time.Time
	State      *string
	Stars      *int
}

// bundles reads every bundle's visibility and timestamps, by id.
func (h *harness) bundles(ctx context.Context) map[string]bundleRow {
	h.t.Helper()
	rows, err := h.pool.Query(ctx, `SELECT id, visibility, updated_at, repo_state, repo_stars FROM bundles`)
	if err != nil {
		h.t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]bundleRow{}
	for rows.Next() {
		var id string
		var b bundleRow
		if err := rows.Scan(&id, &b.Visibility, &b.UpdatedAt, &b.State, &b.Stars); err != nil {
			h.t.Fatal(err)
		}
		out[id] = b
	}
	if err := rows.Err(); err != nil {
		h.t.Fatal(err)
	}
	return out
}
