package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/pgcluster"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/synthetic"
)

// index is a database of n synthetic bundles on the harness's own cluster.
type index struct {
	cluster *pgcluster.Cluster // nil for a database named by -db
	url     string
	name    string // the database's name on the harness's cluster
	n       int
	lock    *os.File // held while the run uses the directory
	dataDir string   // the server's data directory, for its pid
	// readURL is where the API reads: url, or with -replica the
	// standby's database (startStandby).
	readURL    string
	standby    *pgcluster.Cluster
	standbyDir string
}

// openIndex starts (or finds running) the cluster under dir and returns the
// database of n synthetic bundles, building it unless dir already holds one
// of the current schema and generator: building is the slow part (about a
// minute for 100,000 bundles here), so it is done once per n and kept.
//
// With db set, the index is that database as it is (its server must be
// reachable and its bundles made by the same generator for n, as the
// benchmark's okf_bench_<n> is): nothing is built or migrated.
func openIndex(ctx context.Context, dir, db string, n int, out io.Writer) (*index, error) {
	if db != "" {
		idx := &index{url: db, readURL: db, n: n}
		conn, err := pgx.Connect(ctx, db)
		if err != nil {
			return idx, err
		}
		defer conn.Close(context.WithoutCancel(ctx))
		if err := conn.QueryRow(ctx, `SELECT current_setting('data_directory')`).Scan(&idx.dataDir); err != nil {
			idx.dataDir = ""
		}
		fmt.Fprintf(out, "index: the database of -db, as it is\n")
		return idx, nil
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(dir, "pg"), Preload: []string{"pg_stat_statements", "pg_prewarm"}})
	if err != nil {
		lock.Close()
		return nil, err
	}
	idx := &index{cluster: c, n: n, lock: lock, dataDir: c.DataDir}
	idx.name = fmt.Sprintf("okf_load_%d", n)
	name := idx.name
	idx.url = c.URL(name)
	idx.readURL = idx.url
	want, err := fingerprint(n)
	if err != nil {
		return idx, err
	}
	marker := filepath.Join(c.Dir, name+".built")
	if have, err := os.ReadFile(marker); err == nil && string(have) == want {
		fmt.Fprintf(out, "index: %d bundles in %s (database %s), reused\n", n, c.Dir, name)
		if err := store.Migrate(ctx, idx.url); err != nil {
			return idx, fmt.Errorf("migrate the kept index: %w", err)
		}
		return idx, nil
	}
	fmt.Fprintf(out, "index: building %d bundles in %s (database %s)\n", n, c.Dir, name)
	start := time.Now()
	_ = os.Remove(marker)
	if err := c.DropDatabase(ctx, name); err != nil {
		return idx, err
	}
	if err := c.CreateDatabase(ctx, name, ""); err != nil {
		return idx, err
	}
	if err := store.Migrate(ctx, idx.url); err != nil {
		return idx, err
	}
	if err := build(ctx, idx.url, n, out); err != nil {
		return idx, err
	}
	fmt.Fprintf(out, "index: built in %s\n", time.Since(start).Round(time.Second))
	return idx, os.WriteFile(marker, []byte(want), 0o644)
}

// close stops the cluster when openIndex started it, and lets the
// directory go.
func (idx *index) close() error {
	if idx.lock == nil {
		return nil
	}
	defer idx.lock.Close()
	err := idx.closeStandby()
	if idx.cluster == nil || !idx.cluster.Started {
		return err
	}
	if serr := idx.cluster.Stop(); err == nil {
		err = serr
	}
	return err
}

// postmasterPid is the pid of the cluster's server (the first line of
// postmaster.pid), 0 when unknown.
func (idx *index) postmasterPid() int {
	return postmasterPidOf(idx.dataDir)
}

// postmasterPidOf is the pid in dataDir's postmaster.pid, 0 when unknown.
func postmasterPidOf(dataDir string) int {
	if dataDir == "" {
		return 0
	}
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	return pid
}

// lockDir takes dir for this run: two runs on one directory would stop
// each other's cluster and share its cores.
func lockDir(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, "loadgen.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s is in use by another okf-loadgen run: %w", dir, err)
	}
	return f, nil
}

// fingerprint names the generator and size an index was built with. The
// schema is not part of it: a kept index is migrated forward when reused
// (openIndex), as a deployment's database is, rather than rebuilt.
func fingerprint(n int) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "gen %d n %d rows\n", synthetic.Version, n)
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// buildWriters write batches at once, one per core.
const buildWriters = 2

// build writes n generated bundles through the service's batched ingest
// (store.UpsertBundles, as okfctl import writes): the rules of the service
// decide visibility (low paths, duplicates). Batch b is written with the
// clock at its place in the generator's two years, so indexed_at spreads
// over them in ingest order, as a sweep's would. Then the planner's
// statistics are refreshed.
func build(ctx context.Context, url string, n int, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := synthetic.New(n)
	batches := (n + store.MaxBatch - 1) / store.MaxBatch
	from := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	span := 2 * 365 * 24 * time.Hour
	type job struct {
		at  time.Time
		ins []store.BundleInput
	}
	jobs := make(chan job, buildWriters)
	errs := make(chan error, buildWriters)
	var wg sync.WaitGroup
	for range buildWriters {
		var clock time.Time // set before each batch; one writer a store
		st, err := store.Open(ctx, store.Config{URL: url, Now: func() time.Time { return clock }})
		if err != nil {
			return err
		}
		defer st.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				clock = j.at
				if _, err := st.UpsertBundles(ctx, j.ins); err != nil {
					errs <- err
					cancel() // the generator stops
					for range jobs {
					}
					return
				}
			}
		}()
	}
	next, began := 10, time.Now()
	for b := range batches {
		ins := make([]store.BundleInput, 0, store.MaxBatch)
		for i := b * store.MaxBatch; i < min((b+1)*store.MaxBatch, n); i++ {
			ins = append(ins, g.Row(i).In)
		}
		select {
		case jobs <- job{at: from.Add(span * time.Duration(b) / time.Duration(batches)), ins: ins}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		if pct := (b + 1) * 100 / batches; pct >= next {
			fmt.Fprintf(out, "index: %d%% (%s)\n", pct, time.Since(began).Round(time.Second))
			next = pct/10*10 + 10
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return fmt.Errorf("index: build: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	st, err := store.Open(ctx, store.Config{URL: url})
	if err != nil {
		return err
	}
	defer st.Close()
	return st.Analyze(ctx)
}

// sample is what the requests are made of: the ids (for cards) and names
// (for exact-name searches) of the first bundles the generator made. The
// generator is deterministic, so nothing is read from the database.
func sample(n, count int) (ids, names []string) {
	g := synthetic.New(n)
	seen := map[string]bool{}
	for i := range min(n, count) {
		r := g.Row(i)
		ids = append(ids, r.In.ID)
		if name := strings.TrimSpace(r.In.Card.Name); name != "" && !seen[name] && len(names) < 200 {
			seen[name] = true
			names = append(names, name)
		}
	}
	return ids, names
}
