package store_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/pgcluster"
	"github.com/okfindex/okf-index/pkg/store"
)

// BenchmarkIngest measures writes with durable commits (fsync on, unlike
// the test clusters): OKF_INGEST_N generated bundles (default 20000) through
// UpsertBundles in batches of 500, the same again unchanged (nothing is
// written), and 1,000 through UpsertBundle one transaction each, on a
// private cluster of its own in the temp dir, removed after.
func BenchmarkIngest(b *testing.B) {
	n := envInt("OKF_INGEST_N", 20000)
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "okf-ingest-pg-")
	if err != nil {
		b.Fatal(err)
	}
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Port: 5499})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := c.Remove(); err != nil {
			b.Error(err)
		}
	}()
	if err := c.CreateDatabase(ctx, "ingest", ""); err != nil {
		b.Fatal(err)
	}
	url := c.URL("ingest")
	if err := store.Migrate(ctx, url); err != nil {
		b.Fatal(err)
	}
	s, err := store.Open(ctx, store.Config{URL: url})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var fsync string
	if err := s.Pool().QueryRow(ctx, `SHOW fsync`).Scan(&fsync); err != nil {
		b.Fatal(err)
	}
	g := newBenchGen(n + 1000)
	ins := make([]store.BundleInput, n+1000)
	for i := range ins {
		ins[i] = g.row(i).In
	}
	rate := func(name string, count int, run func() error) {
		t0 := time.Now()
		if err := run(); err != nil {
			b.Fatal(err)
		}
		r := float64(count) / time.Since(t0).Seconds()
		b.ReportMetric(r, strings.NewReplacer(" ", "-", ",", "").Replace(name)+"-bundles/s")
		fmt.Printf("%-36s %9.0f bundles/s\n", name, r)
	}
	batches := func() error {
		for i := 0; i < n; i += 500 {
			if _, err := s.UpsertBundles(ctx, ins[i:min(i+500, n)]); err != nil {
				return err
			}
		}
		return nil
	}
	fmt.Printf("\ningest of %d bundles, fsync=%s\n", n, fsync)
	rate("batches of 500, new", n, batches)
	rate("batches of 500, unchanged", n, batches)
	rate("one a transaction, new", 1000, func() error {
		for _, in := range ins[n:] {
			if _, err := s.UpsertBundle(ctx, in); err != nil {
				return err
			}
		}
		return nil
	})
}
