package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

func TestPingAndPoolStats(t *testing.T) {
	st := storetest.NewStore(t)
	if err := st.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetBundle(context.Background(), "none"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a card of no bundle: %v", err)
	}
	stats := st.PoolStats()
	if len(stats) != 3 || stats[0].Name != "write" || stats[1].Name != "read" || stats[2].Name != "lookup" {
		t.Fatalf("pools: %+v", stats)
	}
	for _, p := range stats {
		if p.MaxConns <= 0 || p.TotalConns < 1 || p.AcquireCount < 1 {
			t.Errorf("pool %s after a ping: %+v", p.Name, p)
		}
	}
}

// A card's lookup keeps one generic plan per connection instead of
// planning each call (the lookup pool's plan_cache_mode); searches, whose
// plans depend on their words, are planned per call on the read pool.
func TestCardLookupKeepsItsPlan(t *testing.T) {
	st := storetest.NewStore(t)
	ctx := context.Background()
	in := repoBundle("acme", "alpha", "index.md")
	mustUpsert(t, st, in)
	generic, custom, err := store.CardPlans(ctx, st, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if generic != 2 || custom != 0 {
		t.Errorf("two card lookups on one connection: %d generic plans, %d custom", generic, custom)
	}
}

// OpsStats counts River jobs by kind and state, the sweep's candidates and
// windows against the newest round, and the pings by estado.
func TestOpsStats(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)

	empty, err := st.OpsStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(empty.Jobs) != 0 || empty.SweepRound != "" || empty.CandidatesDone+empty.CandidatesPending+empty.CandidatesGone != 0 {
		t.Fatalf("empty database: %+v", empty)
	}

	const round = "2026-03-02T00:00:00Z"
	roundStart, _ := time.Parse(time.RFC3339, round)
	rc, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []river.JobArgs{jobs.SweepDiscoverArgs{Round: round}, jobs.RecountStatsArgs{}} {
		if _, err := rc.Insert(ctx, args, nil); err != nil {
			t.Fatal(err)
		}
	}
	refs := []store.CandidateRef{{Owner: "o", Name: "done"}, {Owner: "o", Name: "stale"}, {Owner: "o", Name: "new"}, {Owner: "o", Name: "gone"}}
	if _, err := st.AddCandidates(ctx, store.DiscoveredBySeed, refs); err != nil {
		t.Fatal(err)
	}
	mustDo(t, st.MarkSwept(ctx, refs[0], "oid", roundStart.Add(time.Hour)))
	mustDo(t, st.MarkSwept(ctx, refs[1], "oid", roundStart.Add(-time.Hour)))
	mustDo(t, st.MarkGone(ctx, "o/gone", roundStart))
	now := roundStart.Add(time.Hour)
	for _, w := range []store.SweepWindow{
		{Discoverer: store.DiscoveredByRepoSearch, Query: "a", Round: round, DoneAt: &now},
		{Discoverer: store.DiscoveredByRepoSearch, Query: "b", Round: round},
		{Discoverer: store.DiscoveredByCodeSearch, Query: "c", Round: round, DoneAt: &now},
		{Discoverer: store.DiscoveredByCodeSearch, Query: "old", Round: "2026-03-01T00:00:00Z"},
	} {
		mustDo(t, st.SaveWindow(ctx, w))
	}
	urls, err := st.AcceptPing(ctx, "docs.example", testPingKey, pingURLs("docs.example", 0, 3), noEnqueue)
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, st.PublishPing(ctx, urls[0].ID, "docs-example-b0"))
	mustDo(t, st.RejectPing(ctx, urls[1].ID, "key_mismatch"))
	// A URL submitted two days ago, still pending: past the 24-hour counts,
	// but pending all the same.
	old, err := st.AcceptPing(ctx, "old.example", testPingKey, pingURLs("old.example", 0, 1), noEnqueue)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `UPDATE pings SET received_at = now() - interval '2 days' WHERE id = $1`, old[0].ID); err != nil {
		t.Fatal(err)
	}

	got, err := st.OpsStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.JobCount{{Kind: "recount_stats", State: "available", N: 1}, {Kind: "sweep_discover", State: "available", N: 1}}
	if len(got.Jobs) != 2 || got.Jobs[0] != want[0] || got.Jobs[1] != want[1] {
		t.Errorf("jobs: %+v, want %+v", got.Jobs, want)
	}
	if got.SweepRound != round || got.CandidatesDone != 1 || got.CandidatesPending != 2 || got.CandidatesGone != 1 {
		t.Errorf("sweep: round %q done %d pending %d gone %d", got.SweepRound, got.CandidatesDone, got.CandidatesPending, got.CandidatesGone)
	}
	if got.WindowsDone["repo_search"] != 1 || got.WindowsOpen["repo_search"] != 1 ||
		got.WindowsDone["code_search"] != 1 || got.WindowsOpen["code_search"] != 0 {
		t.Errorf("windows: done %v open %v", got.WindowsDone, got.WindowsOpen)
	}
	if got.PingsPending != 2 {
		t.Errorf("pending pings: %d, want 2", got.PingsPending)
	}
	if got.Pings[wire.PingPending] != 1 || got.Pings[wire.PingPublished] != 1 || got.Pings[wire.PingRejected] != 1 {
		t.Errorf("pings: %v", got.Pings)
	}

	// A stopped statement reports its error instead of partial numbers.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := st.OpsStats(cctx); err == nil {
		t.Error("OpsStats with a cancelled context succeeded")
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestWithReadConns(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url   string
		conns int
		want  string
	}{
		{"postgres://u@h:5432/db?sslmode=disable", 2, "postgres://u@h:5432/db?pool_max_conns=2&sslmode=disable"},
		{"postgresql://u@h/db", 8, "postgresql://u@h/db?pool_max_conns=8"},
		{"postgres://u@h/db?pool_max_conns=5", 2, "postgres://u@h/db?pool_max_conns=5"}, // the operator's size stays
		{"postgres://u@h/db", 0, "postgres://u@h/db?pool_max_conns=1"},
		{"host=/tmp dbname=db", 2, "host=/tmp dbname=db"}, // not a URL: as it is
	} {
		if got := store.WithReadConns(c.url, c.conns); got != c.want {
			t.Errorf("WithReadConns(%q, %d) = %q, want %q", c.url, c.conns, got, c.want)
		}
	}
	cfg, err := pgxpool.ParseConfig(store.WithReadConns("postgres://u@h/db", 3))
	if err != nil || cfg.MaxConns != 3 {
		t.Errorf("pgx reads the size as %v (%v), want 3", cfg.MaxConns, err)
	}
}
