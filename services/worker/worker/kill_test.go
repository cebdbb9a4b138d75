package worker_test

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/logging/logtest"

	"github.com/okfindex/okf-index/pkg/githubtest"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// buildWorker builds the okf-worker binary into a temporary directory.
func buildWorker(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "okf-worker")
	cmd := exec.Command("go", "build", "-o", bin, "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build okf-worker: %v\n%s", err, out)
	}
	return bin
}

// workerProc is a running okf-worker process.
type workerProc struct {
	cmd    *exec.Cmd
	out    *logtest.Buffer
	exited chan struct{} // closed when the process has exited
	err    error         // Wait's answer, once exited is closed
}

func startProc(t *testing.T, bin string, env []string) *workerProc {
	t.Helper()
	out := &logtest.Buffer{}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &workerProc{cmd: cmd, out: out, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.exited
	})
	return p
}

// alive fails the test when the process has exited.
func (p *workerProc) alive(t testing.TB) {
	t.Helper()
	select {
	case <-p.exited:
		t.Fatalf("okf-worker exited: %v\n%s", p.err, p.out)
	default:
	}
}

// sweepJobs counts the sweep_repos jobs completed and not yet completed.
func (h *harness) sweepJobs(ctx context.Context) (done, open int) {
	h.t.Helper()
	if err := h.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE state = 'completed'),
		count(*) FILTER (WHERE state NOT IN ('completed', 'cancelled', 'discarded'))
		FROM river_job WHERE kind = 'sweep_repos'`).Scan(&done, &open); err != nil {
		h.t.Fatal(err)
	}
	return done, open
}

// A worker process killed with SIGKILL in the middle of a sweep, then
// restarted, ends with the same bundles as an uninterrupted sweep; the
// restarted process stops cleanly on SIGTERM.
func TestSweepSurvivesKill(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	const synthetic = 1500
	queries := []string{"okf in:name,description,readme"}
	bin := buildWorker(t)

	h := newHarnessWith(t, githubtest.Options{Budget: 1 << 30}, true)
	h.gh.AddSyntheticRepos(synthetic, 7)
	env := append(h.sweepEnv(queries), "OKF_WORKER_RESCUE_AFTER=5s")

	first := startProc(t, bin, env)
	h.killMidSweep(ctx, first, func() bool { return true })
	done, open := h.sweepJobs(ctx)
	t.Logf("killed after %d sweep batches, %d left", done, open)

	second := startProc(t, bin, env)
	for {
		second.alive(t)
		if done, open = h.sweepJobs(ctx); open == 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the restarted worker did not finish (%d batches left):\n%s", open, second.out)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if err := second.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-second.exited
	if second.err != nil {
		t.Errorf("the worker did not stop cleanly on SIGTERM: %v\n%s", second.err, second.out)
	}
	var discarded int
	if err := h.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE queue = 'sweep' AND state = 'discarded'`).Scan(&discarded); err != nil {
		t.Fatal(err)
	}
	if discarded > 0 {
		t.Errorf("%d sweep jobs discarded", discarded)
	}
	got := h.visibilities(ctx)

	sameAsUninterrupted(ctx, t, got, synthetic, queries)
	t.Logf("%d bundles after kill and restart, as uninterrupted", len(got))
}

// sameAsUninterrupted fails t unless got (id -> visibility) is what the same
// sweep of the corpus and synthetic repositories, uninterrupted and in
// process, ends with.
func sameAsUninterrupted(ctx context.Context, t *testing.T, got map[string]string, synthetic int, queries []string) {
	t.Helper()
	u := newHarnessWith(t, githubtest.Options{Budget: 1 << 30}, true)
	u.gh.AddSyntheticRepos(synthetic, 7)
	u.startWorker(ctx, worker.SweepConfig{Seeds: u.seeds(), Queries: queries})
	u.firstRound(ctx)
	want := u.visibilities(ctx)
	if !maps.Equal(got, want) {
		missing, extra := 0, 0
		for id := range want {
			if _, ok := got[id]; !ok {
				missing++
			}
		}
		for id := range got {
			if _, ok := want[id]; !ok {
				extra++
			}
		}
		t.Errorf("after kill and restart: %d bundles (%d missing, %d extra, others differ) vs %d uninterrupted",
			len(got), missing, extra, len(want))
	}
}

// sweepEnv is the environment of an okf-worker process that sweeps the
// harness's local GitHub: every repository a seed, queries the repository
// searches, code search off.
func (h *harness) sweepEnv(queries []string) []string {
	var seeds []string
	for _, r := range h.seeds() {
		seeds = append(seeds, r.String())
	}
	return []string{"DATABASE_URL=" + h.dbURL, "GITHUB_TOKEN=test-token",
		"GITHUB_GRAPHQL_URL=" + h.gh.GraphQLURL(), "OKF_SWEEP_SEEDS=" + strings.Join(seeds, ","),
		"OKF_SWEEP_QUERIES=" + strings.Join(queries, ";"), "OKF_SWEEP_CODE_QUERIES=off"}
}

// killMidSweep kills p with SIGKILL once five sweep batches are done and
// more are open, and ready reports true, and waits for it to exit. It
// fails the test when the sweep ends first.
func (h *harness) killMidSweep(ctx context.Context, p *workerProc, ready func() bool) {
	h.t.Helper()
	for {
		p.alive(h.t)
		done, open := h.sweepJobs(ctx)
		if done >= 5 && open > 0 && ready() {
			break
		}
		if done > 0 && open == 0 {
			h.t.Fatalf("the sweep finished before the kill (%d batches); use more repositories", done)
		}
		select {
		case <-ctx.Done():
			h.t.Fatalf("no sweep progress before the kill:\n%s", p.out)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		h.t.Fatal(err)
	}
	<-p.exited
}
