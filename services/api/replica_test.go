package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/pgcluster"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/synthetic"
	"github.com/okfindex/okf-index/pkg/wire"
)

// The API on a primary and a streaming hot standby (DATABASE_READ_URL):
// searches and cards come from the standby, writes go to the primary, the
// page cache follows what the standby has replayed (never older once it has
// replayed a write, never ahead of it), and a client's own ping is in its
// status at once, whatever the standby's lag.
func TestReadReplica(t *testing.T) {
	ctx := context.Background()
	primary, err := pgcluster.Start(ctx, pgcluster.Options{Dir: clusterDir(t), Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { primary.Remove() })
	if err := primary.CreateDatabase(ctx, "okf", ""); err != nil {
		t.Fatal(err)
	}
	if err := store.Migrate(ctx, primary.URL("okf")); err != nil {
		t.Fatal(err)
	}
	standby, err := pgcluster.StartStandby(ctx, primary, pgcluster.Options{Dir: clusterDir(t), Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { standby.Remove() })

	writer, err := store.Open(ctx, store.Config{URL: primary.URL("okf")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(writer.Close)
	gen := synthetic.New(200)
	var live []store.BundleInput
	for i := 0; len(live) < 4; i++ {
		r := gen.Row(i)
		if r.Visibility == wire.VisibilityLive && !r.In.Low {
			live = append(live, r.In)
		}
	}
	for _, in := range live[:3] {
		if _, err := writer.UpsertBundle(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	a, b := live[0], live[3]

	p := startAPI(t, "DATABASE_URL="+primary.URL("okf"), "DATABASE_READ_URL="+standby.URL("okf"))
	card := func(id string) (int, wire.Card) {
		t.Helper()
		s, _, body := call(t, "GET", p.api+"/api/bundles/"+id, "", "")
		var c wire.Card
		if s == 200 {
			if err := json.Unmarshal([]byte(body), &c); err != nil {
				t.Fatal(err)
			}
		}
		return s, c
	}
	listed := func(id string) bool {
		t.Helper()
		s, _, body := call(t, "GET", p.api+"/api/bundles?sort=recent", "", "")
		if s != 200 {
			t.Fatalf("search: %d %s", s, body)
		}
		return strings.Contains(body, `"id":"`+id+`"`)
	}
	eventually := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("never: %s", what)
			}
		}
	}
	eventually("the standby serves the first bundles", func() bool { s, _ := card(a.Card.ID); return s == 200 && listed(a.Card.ID) })
	_, before := card(a.Card.ID)

	sc, err := pgx.Connect(ctx, standby.URL("okf"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sc.Close(context.Background()) })
	if _, err := sc.Exec(ctx, `SELECT pg_wal_replay_pause()`); err != nil {
		t.Fatal(err)
	}
	changed := a
	changed.Card.Tagline = "Written on the primary while the standby waits"
	for _, in := range []store.BundleInput{changed, b} {
		if _, err := writer.UpsertBundle(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	// Reads come from the standby, which has not replayed the writes: the
	// card and the page are those of before, cache or no cache.
	for range 3 {
		if _, c := card(a.Card.ID); c.Tagline != before.Tagline {
			t.Fatalf("the card of a shows %q before the standby replayed it", c.Tagline)
		}
		if s, _ := card(b.Card.ID); s != 404 {
			t.Fatalf("the card of b is %d before the standby replayed it", s)
		}
		if listed(b.Card.ID) {
			t.Fatal("the search lists b before the standby replayed it")
		}
	}
	// A write through the API goes to the primary (the standby refuses
	// writes), and its status is read where it was written.
	if s, _, body := call(t, "POST", p.api+"/api/ping", "", pingBody); s != 202 {
		t.Fatalf("ping: %d %s", s, body)
	}
	if s, _, body := call(t, "GET", p.api+"/api/ping/status?host=docs.example.org", "", ""); s != 200 ||
		!strings.Contains(body, "https://docs.example.org/okf/index.md") {
		t.Fatalf("ping status right after the ping: %d %s", s, body)
	}
	var onStandby int
	if err := sc.QueryRow(ctx, `SELECT count(*) FROM pings`).Scan(&onStandby); err != nil || onStandby != 0 {
		t.Fatalf("the paused standby has %d pings (%v): the status proved nothing", onStandby, err)
	}

	if _, err := sc.Exec(ctx, `SELECT pg_wal_replay_resume()`); err != nil {
		t.Fatal(err)
	}
	eventually("the card of a follows the replayed write", func() bool {
		_, c := card(a.Card.ID)
		return c.Tagline == changed.Card.Tagline
	})
	eventually("the search lists b once replayed", func() bool { s, _ := card(b.Card.ID); return s == 200 && listed(b.Card.ID) })
}

// clusterDir is a directory for a cluster of the test, removed with it
// (pgcluster.Cluster.Remove).
func clusterDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "okf-test-pg-replica-")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
