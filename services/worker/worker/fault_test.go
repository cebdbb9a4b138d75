package worker_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/okfindex/okf-index/pkg/githubtest"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/safefetch/safefetchtest"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// faultHost is the domain of the fault run's pings.
const faultHost = "fault-site.test"

// faultSite is a local TLS site for faultHost whose key file hangs while
// slow is set (until the request goes away), so a kill lands during the
// key-file fetch. It counts the requests of every path.
type faultSite struct {
	slow atomic.Bool
	mu   sync.Mutex
	hits map[string]int
}

func (s *faultSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	if r.URL.Path == "/fault-key-0001.txt" {
		for s.slow.Load() && r.Context().Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		_, _ = w.Write([]byte("fault-key-0001\n"))
		return
	}
	if dir, ok := strings.CutSuffix(r.URL.Path, "/index.md"); ok {
		_, _ = w.Write([]byte(domainRoot(faultHost, dir, "Fault "+strings.Trim(dir, "/"))))
		return
	}
	http.NotFound(w, r)
}

func (s *faultSite) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// Issue 12's fault run: okf-worker is killed with SIGKILL while the GitHub
// sweep is half done and while three ping verifications hang in their
// key-file fetch, then restarted with OKF_WORKER_RESCUE_AFTER=5s. The work
// completes within minutes: every candidate swept, every batch once, the
// bundles those of an uninterrupted sweep; every URL decided, each root
// fetched once. While the rescued verifications wait, the status shows
// worker_lost and retry_at. Gated by OKF_FAULTS=1 (River's rescuer looks
// every 30 s, so the run takes most of a minute).
func TestFaultWorkerKill(t *testing.T) {
	if os.Getenv("OKF_FAULTS") != "1" {
		t.Skip("a fault run of about a minute: set OKF_FAULTS=1 (make faults) to run it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const synthetic, submissions, perSubmission = 1500, 3, 20
	queries := []string{"okf in:name,description,readme"}
	bin := buildWorker(t)

	site := &faultSite{hits: map[string]int{}}
	site.slow.Store(true)
	srv := safefetchtest.NewTLSServer(t, site, faultHost)
	caFile := filepath.Join(t.TempDir(), "fault-ca.pem")
	if err := os.WriteFile(caFile, srv.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, githubtest.Options{Budget: 1 << 30}, true)
	h.gh.AddSyntheticRepos(synthetic, 7)
	env := append(h.sweepEnv(queries), "OKF_FETCH_ALLOW_LOOPBACK=1", "OKF_FETCH_CA_FILE="+caFile,
		"OKF_FETCH_DIAL_OVERRIDE="+srv.DialOverrideEnv())

	// The pings, queued as the API queues them.
	inserter, err := river.NewClient(riverpgxv5.New(h.pool), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var roots []string
	for s := range submissions {
		var urls []string
		for i := range perSubmission {
			urls = append(urls, fmt.Sprintf("https://%s/s%d/b%d/index.md", faultHost, s, i))
		}
		roots = append(roots, urls...)
		_, err := h.st.AcceptPing(ctx, faultHost, "fault-key-0001", urls, func(ctx context.Context, tx pgx.Tx, us []store.PingURL) error {
			_, err := inserter.InsertTx(ctx, tx, jobs.VerifyPingArgs{Host: faultHost, Key: "fault-key-0001",
				KeyLocation: "https://" + faultHost + "/fault-key-0001.txt", URLs: us}, nil)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	first := startProc(t, bin, env) // the default rescue time: nothing is rescued before the kill
	h.killMidSweep(ctx, first, func() bool { return site.count("/fault-key-0001.txt") >= submissions })
	done, open := h.sweepJobs(ctx)
	var running int
	if err := h.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE state = 'running'`).Scan(&running); err != nil {
		t.Fatal(err)
	}
	t.Logf("killed with %d sweep batches done, %d open, %d jobs running (%d verifications in their key-file fetch)",
		done, open, running, site.count("/fault-key-0001.txt"))
	for _, r := range roots {
		if n := site.count(strings.TrimPrefix(r, "https://"+faultHost)); n != 0 {
			t.Fatalf("%s fetched before the kill", r)
		}
	}

	site.slow.Store(false)
	restart := time.Now()
	second := startProc(t, bin, append(env, "OKF_WORKER_RESCUE_AFTER=5s"))
	var sweptAt, verifiedAt, sawRetry time.Duration
	var retryShown wire.PingStatus
	for sweptAt == 0 || verifiedAt == 0 {
		second.alive(t)
		if _, open := h.sweepJobs(ctx); open == 0 && sweptAt == 0 {
			sweptAt = time.Since(restart)
		}
		page, err := h.st.PingStatuses(ctx, faultHost, store.MaxPingStatus, 0)
		if err != nil {
			t.Fatal(err)
		}
		pending := 0
		for _, p := range page.Items {
			if p.State != wire.PingPending {
				continue
			}
			pending++
			if sawRetry == 0 && p.Reason != nil && *p.Reason == store.PingRetryWorkerLost && p.RetryAt != nil {
				sawRetry, retryShown = time.Since(restart), p
			}
		}
		if pending == 0 && verifiedAt == 0 {
			verifiedAt = time.Since(restart)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the restarted worker did not finish (swept %v, verified %v):\n%s", sweptAt, verifiedAt, serviceProc{"okf-worker", second}.logTail(20))
		case <-time.After(20 * time.Millisecond):
		}
	}
	if sawRetry == 0 {
		t.Errorf("the status never showed a rescued verification (worker_lost, retry_at)")
	} else {
		t.Logf("after the restart: the status showed reason %s, retry_at %s, at %v", *retryShown.Reason,
			retryShown.RetryAt.Format(wire.TimestampLayout), sawRetry.Round(time.Millisecond))
	}
	t.Logf("after the restart: sweep complete in %v, every ping decided in %v",
		sweptAt.Round(time.Millisecond), verifiedAt.Round(time.Millisecond))
	if err := second.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-second.exited

	// Nothing lost, nothing doubled: the sweep.
	var unswept, batches, distinct, discarded int
	if err := h.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM sweep_candidates WHERE NOT gone AND swept_at IS NULL),
		(SELECT count(*) FROM river_job WHERE kind = 'sweep_repos'),
		(SELECT count(DISTINCT args) FROM river_job WHERE kind = 'sweep_repos'),
		(SELECT count(*) FROM river_job WHERE state = 'discarded')`).Scan(&unswept, &batches, &distinct, &discarded); err != nil {
		t.Fatal(err)
	}
	if unswept != 0 || batches != distinct || discarded != 0 {
		t.Errorf("%d candidates never swept, %d batches for %d distinct, %d jobs discarded", unswept, batches, distinct, discarded)
	}
	got := h.visibilities(ctx)
	for _, r := range roots {
		delete(got, source.Site{URL: r}.ID()) // the pings' domain bundles, checked below
	}
	sameAsUninterrupted(ctx, t, got, synthetic, queries)

	// Nothing lost, nothing doubled: the pings.
	page, err := h.st.PingStatuses(ctx, faultHost, store.MaxPingStatus, 0)
	if err != nil {
		t.Fatal(err)
	}
	published := 0
	for _, p := range page.Items {
		if p.State == wire.PingPublished {
			published++
		}
	}
	if len(page.Items) != len(roots) || published != len(roots) {
		t.Errorf("%d of %d URLs listed, %d published", len(page.Items), len(roots), published)
	}
	for _, r := range roots {
		if n := site.count(strings.TrimPrefix(r, "https://"+faultHost)); n != 1 {
			t.Errorf("%s fetched %d times, want once", r, n)
		}
	}
	t.Logf("%d bundles swept as uninterrupted, %d sweep batches each once; %d URLs published, each root fetched once",
		len(got), batches, published)
}
