package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/pgcluster"
	"github.com/okfindex/okf-index/pkg/store"
)

// BenchmarkIngest measures writes with durable commits (fsync on, unlike
// the test clusters): OKF_INGEST_N generated bundles (default 20000) through
// UpsertBundles in batches of 500, the same again unchanged (nothing is
// written), as many others by two writers at once (as okfctl import and
// the load harness write), as many small ones (a 200-character description,
// no concept list) by two writers, and 1,000 through UpsertBundle one
// transaction each, on a private cluster of its own in the temp dir,
// removed after. The generated bundles are heavy: a 1,000-character
// description and up to 24 listed concepts, all of it in the search vector.
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
	g := newBenchGen(3*n + 1000)
	ins := make([]store.BundleInput, 3*n+1000)
	for i := range ins {
		ins[i] = g.row(i).In
	}
	for i := 2 * n; i < 3*n; i++ { // small bundles
		c := &ins[i].Card
		c.Description, c.ConceptList = c.Description[:min(200, len(c.Description))], nil
	}
	// rate prints the rate of run, and the CPU time it took a bundle, of
	// the cluster's processes (/proc; autovacuum included, whose work lands
	// in whichever run it happens to start in) and of this one: on a
	// machine whose cores others use too, the CPU time moves far less than
	// the rate.
	rate := func(name string, count int, run func() error) {
		pg0, go0 := clusterCPU(c.DataDir), selfCPU()
		t0 := time.Now()
		if err := run(); err != nil {
			b.Fatal(err)
		}
		r := float64(count) / time.Since(t0).Seconds()
		pg, gc := (clusterCPU(c.DataDir)-pg0)/float64(count), (selfCPU()-go0)/float64(count)
		metric := strings.NewReplacer(" ", "-", ",", "").Replace(name)
		b.ReportMetric(r, metric+"-bundles/s")
		b.ReportMetric(pg*1e6, metric+"-pg-cpu-us/bundle")
		fmt.Printf("%-40s %6.0f bundles/s   CPU a bundle: Postgres %4.0f us, Go %3.0f us\n", name, r, pg*1e6, gc*1e6)
	}
	// batches writes ins[from:to] in batches of 500, by writers at once.
	batches := func(from, to, writers int) func() error {
		return func() error {
			next := make(chan int)
			errs := make(chan error, writers)
			for range writers {
				go func() {
					var err error
					for i := range next {
						if err == nil {
							_, err = s.UpsertBundles(ctx, ins[i:min(i+500, to)])
						}
					}
					errs <- err
				}()
			}
			for i := from; i < to; i += 500 {
				next <- i
			}
			close(next)
			var err error
			for range writers {
				if e := <-errs; err == nil {
					err = e
				}
			}
			return err
		}
	}
	fmt.Printf("\ningest of %d bundles, fsync=%s\n", n, fsync)
	rate("batches of 500, new", n, batches(0, n, 1))
	rate("batches of 500, unchanged", n, batches(0, n, 1))
	rate("batches of 500, 2 writers, new", n, batches(n, 2*n, 2))
	rate("small, batches of 500, 2 writers, new", n, batches(2*n, 3*n, 2))
	rate("one a transaction, new", 1000, func() error {
		for _, in := range ins[3*n:] {
			if _, err := s.UpsertBundle(ctx, in); err != nil {
				return err
			}
		}
		return nil
	})
}

// clusterCPU is the CPU time in seconds of the postmaster whose data
// directory is dataDir and of its child processes, those running and those
// ended (autovacuum workers), from /proc (0 where there is none).
func clusterCPU(dataDir string) float64 {
	pid, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	pm, _, _ := strings.Cut(string(pid), "\n")
	procs, _ := os.ReadDir("/proc")
	var ticks float64
	for _, p := range procs {
		stat, err := os.ReadFile(filepath.Join("/proc", p.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ... utime stime: fields 4, 14 and 15.
		_, rest, ok := strings.Cut(string(stat), ") ")
		f := strings.Fields(rest)
		if !ok || len(f) < 13 || (p.Name() != pm && f[1] != pm) {
			continue
		}
		fields := f[11:13] // utime, stime
		if p.Name() == pm {
			fields = f[11:15] // and cutime, cstime: the children it reaped
		}
		for _, v := range fields {
			t, _ := strconv.ParseFloat(v, 64)
			ticks += t
		}
	}
	return ticks / 100 // USER_HZ
}

// selfCPU is the CPU time in seconds of this process.
func selfCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
