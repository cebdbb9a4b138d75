package worker_test

import (
	"context"
	"maps"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/githubtest"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// visibilities maps bundle ids to their visibility.
func (h *harness) visibilities(ctx context.Context) map[string]string {
	out := map[string]string{}
	for id, b := range h.bundles(ctx) {
		out[id] = string(b.Visibility)
	}
	return out
}

// Two and three worker clients against one database give the same bundles
// as one, and no sweep batch is queued twice.
func TestSweepManyWorkers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sweep := func(workers int) map[string]string {
		h := newHarness(t)
		cfg := worker.SweepConfig{Seeds: h.seeds(), Queries: worker.DefaultSweepQueries, CodeQueries: worker.DefaultSweepCodeQueries}
		for range workers {
			h.startWorker(ctx, cfg)
		}
		h.firstRound(ctx)
		var batches, distinct int
		if err := h.pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT args) FROM river_job
			WHERE kind = 'sweep_repos'`).Scan(&batches, &distinct); err != nil {
			t.Fatal(err)
		}
		if batches != distinct {
			t.Errorf("%d workers: %d sweep batches, %d distinct", workers, batches, distinct)
		}
		return h.visibilities(ctx)
	}
	one := sweep(1)
	for _, n := range []int{2, 3} {
		if got := sweep(n); !maps.Equal(got, one) {
			t.Errorf("%d workers: %d bundles differ from one worker's %d", n, len(got), len(one))
		}
	}
}

// Two and three okf-worker processes against one database give the same
// bundles as one in-process worker, each sweep batch runs once, and every
// process stops cleanly on SIGTERM.
func TestSweepManyProcesses(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	const synthetic = 300
	queries := []string{"okf in:name,description,readme"}
	bin := buildWorker(t)

	u := newHarnessWith(t, githubtest.Options{Budget: 1 << 30}, true)
	u.gh.AddSyntheticRepos(synthetic, 11)
	u.startWorker(ctx, worker.SweepConfig{Seeds: u.seeds(), Queries: queries})
	u.firstRound(ctx)
	want := u.visibilities(ctx)

	for _, n := range []int{2, 3} {
		h := newHarnessWith(t, githubtest.Options{Budget: 1 << 30}, true)
		h.gh.AddSyntheticRepos(synthetic, 11)
		var seeds []string
		for _, r := range h.seeds() {
			seeds = append(seeds, r.String())
		}
		env := []string{"DATABASE_URL=" + h.dbURL, "GITHUB_TOKEN=test-token",
			"GITHUB_GRAPHQL_URL=" + h.gh.GraphQLURL(), "OKF_SWEEP_SEEDS=" + strings.Join(seeds, ","),
			"OKF_SWEEP_QUERIES=" + strings.Join(queries, ";"), "OKF_SWEEP_CODE_QUERIES=off"}
		var procs []*workerProc
		for range n {
			procs = append(procs, startProc(t, bin, env))
		}
		for {
			for _, p := range procs {
				p.alive(t)
			}
			var discovered int
			if err := h.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'sweep_discover' AND state = 'completed'`).Scan(&discovered); err != nil {
				t.Fatal(err)
			}
			if done, open := h.sweepJobs(ctx); discovered > 0 && done > 0 && open == 0 {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%d processes did not finish the sweep", n)
			case <-time.After(50 * time.Millisecond):
			}
		}
		for _, p := range procs {
			if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
		}
		for i, p := range procs {
			<-p.exited
			if p.err != nil {
				t.Errorf("%d processes: process %d did not stop cleanly: %v\n%s", n, i, p.err, p.out)
			}
		}
		var batches, distinct, retried int
		if err := h.pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT args), count(*) FILTER (WHERE attempt > 1)
			FROM river_job WHERE kind = 'sweep_repos'`).Scan(&batches, &distinct, &retried); err != nil {
			t.Fatal(err)
		}
		if batches != distinct || retried > 0 {
			t.Errorf("%d processes: %d batches, %d distinct, %d run more than once", n, batches, distinct, retried)
		}
		if got := h.visibilities(ctx); !maps.Equal(got, want) {
			t.Errorf("%d processes: %d bundles differ from one worker's %d", n, len(got), len(want))
		}
		t.Logf("%d processes: %d batches, %d bundles, as one worker", n, batches, len(want))
	}
}
