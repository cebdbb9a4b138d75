package ops_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/ops"
	"github.com/okfindex/okf-index/pkg/pgcluster"
	"github.com/okfindex/okf-index/pkg/store"
)

// Readiness follows the database: it fails while Postgres is stopped and
// passes again once it is back, with the same store and listener (no
// restart). Liveness never changes. The test stops and starts a cluster of
// its own, never the one the other tests share.
func TestReadinessFollowsPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a dedicated Postgres cluster")
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "okf-ready-")
	if err != nil {
		t.Fatal(err)
	}
	opts := pgcluster.Options{Dir: dir, Ephemeral: true, Port: 5499}
	cluster, err := pgcluster.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cluster.Remove()
		_ = os.RemoveAll(dir)
	})
	opts.Dir = cluster.Dir // where it actually lives, when dir was unreachable for postgres

	st, err := store.Open(ctx, store.Config{URL: cluster.URL("postgres")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	base := serve(t, ops.Options{Ready: st.Ping, Logger: quiet})

	expect := func(path string, want int) {
		t.Helper()
		status, body := get(t, base+path, "")
		if status != want {
			t.Fatalf("%s: %d %q, want %d", path, status, body, want)
		}
	}
	expect(ops.ReadyPath, 200)

	if err := cluster.Stop(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	expect(ops.ReadyPath, 503)
	if d := time.Since(start); d > ops.ReadyTimeout+time.Second {
		t.Errorf("a failing readiness check took %v", d)
	}
	expect(ops.LivePath, 200)

	if cluster, err = pgcluster.Start(ctx, opts); err != nil {
		t.Fatal(err)
	}
	// The pool drops its dead connections on the next acquire; allow a
	// few probes, as an orchestrator would.
	deadline := time.Now().Add(15 * time.Second)
	for {
		status, body := get(t, base+ops.ReadyPath, "")
		if status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still not ready after Postgres restarted: %d %q", status, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	expect(ops.LivePath, 200)
}
