package worker_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/githubtest"
)

// scaleSynthetic is the number of generated repositories the local GitHub
// serves beside the real corpus: enough sweep batches for three workers to
// share, few enough for the test to stay well under a minute and a half.
const scaleSynthetic = 200

// scaleRun is what one run of the scale-out test ended with.
type scaleRun struct {
	name    string
	rounds  int                  // ping rounds sent
	bundles map[string]string    // id -> "content_hash visibility"
	pings   map[pingOutcome]int  // outcome -> number of submitted URLs
	jobs    map[string]jobCounts // kind -> counts
	clients int                  // distinct River clients that ran jobs
	reqs    int                  // requests sent by the streams
	elapsed time.Duration
}

// jobCounts sums up one job kind of river_job.
type jobCounts struct {
	N, DistinctArgs, NotCompleted, Retried, ManyClients, Errored int
}

// Issue 7's scale-out check on one machine: two okf-api and three
// okf-worker processes on one Postgres, with the GitHub sweep running and
// streams of pings (through the API, verified by the workers against a
// local TLS site reached by domain name) and of searches, cards and
// statistics, alternating between the APIs. Every request gets its
// expected status, no job runs twice, and the bundles and ping outcomes
// equal those of one API and one worker over the same inputs.
func TestScaleOut(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	bins := buildServices(t)
	fetchEnv := domainSite(t)
	t.Logf("binaries built in %v", time.Since(start).Round(time.Millisecond))

	scaled := runScale(ctx, t, bins, fetchEnv, "2 APIs, 3 workers", 2, 3, 0)
	single := runScale(ctx, t, bins, fetchEnv, "1 API, 1 worker", 1, 1, scaled.rounds)

	if !maps.Equal(scaled.bundles, single.bundles) {
		var diff []string
		for id := range mapsUnion(scaled.bundles, single.bundles) {
			if scaled.bundles[id] != single.bundles[id] {
				diff = append(diff, fmt.Sprintf("%s: %q vs %q", id, scaled.bundles[id], single.bundles[id]))
			}
		}
		slices.Sort(diff)
		t.Errorf("bundles differ (%d vs %d), scaled vs single:\n%s", len(scaled.bundles), len(single.bundles),
			strings.Join(diff[:min(10, len(diff))], "\n"))
	}
	if !maps.Equal(scaled.pings, single.pings) {
		t.Errorf("ping outcomes differ:\nscaled %v\nsingle %v", scaled.pings, single.pings)
	}
	for _, kind := range []string{"sweep_discover", "sweep_repos", "verify_ping"} {
		if scaled.jobs[kind].N != single.jobs[kind].N {
			t.Errorf("%s: %d jobs scaled, %d single", kind, scaled.jobs[kind].N, single.jobs[kind].N)
		}
	}
	if scaled.clients < 2 {
		t.Errorf("the jobs of the scaled run were run by %d worker, want the work shared", scaled.clients)
	}
	for _, r := range []scaleRun{scaled, single} {
		t.Logf("%s: %v, %d ping rounds, %d requests, %d bundles, jobs %v, run by %d clients",
			r.name, r.elapsed.Round(time.Millisecond), r.rounds, r.reqs, len(r.bundles), r.jobs, r.clients)
	}
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
}

func mapsUnion(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// runScale runs apis okf-api and workers okf-worker processes on a fresh
// database and local GitHub until the sweep and every ping are done, and
// checks what the run can check alone. With rounds 0 the ping stream lasts
// as long as the sweep does (at least two rounds); otherwise it sends
// exactly rounds rounds.
func runScale(ctx context.Context, t *testing.T, bins serviceBinaries, fetchEnv []string, name string, apis, workers, rounds int) scaleRun {
	t.Helper()
	begin := time.Now()
	h := newHarnessWith(t, githubtest.Options{Budget: 1 << 30}, true)
	h.gh.AddSyntheticRepos(scaleSynthetic, 13)
	var seeds []string
	for _, r := range h.seeds() {
		seeds = append(seeds, r.String())
	}
	// Every process has an operator listener; port 0 gives each its own.
	workerEnv := append([]string{"DATABASE_URL=" + h.dbURL, "OPS_ADDR=127.0.0.1:0", "GITHUB_TOKEN=test-token",
		"GITHUB_GRAPHQL_URL=" + h.gh.GraphQLURL(), "OKF_SWEEP_SEEDS=" + strings.Join(seeds, ","),
		"OKF_SWEEP_QUERIES=okf in:name,description,readme", "OKF_SWEEP_CODE_QUERIES=off"}, fetchEnv...)

	var procs []serviceProc
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range procs {
				t.Logf("%s: %s, last log lines:\n%s", name, p.name, p.logTail(30))
			}
		}
	})
	var bases []string
	for i, api := range freeAddrs(t, apis) {
		bases = append(bases, "http://"+api)
		procs = append(procs, serviceProc{fmt.Sprintf("okf-api %d", i+1), startProc(t, bins.api, []string{
			"DATABASE_URL=" + h.dbURL, "API_ADDR=" + api, "OPS_ADDR=127.0.0.1:0", "PUBLIC_BASE_URL=http://" + api,
			// Every ping comes from one loopback client.
			"PING_RATE_PER_MINUTE=100000"})})
	}
	for i := range workers {
		procs = append(procs, serviceProc{fmt.Sprintf("okf-worker %d", i+1), startProc(t, bins.worker, workerEnv)})
	}
	for i, base := range bases {
		waitHealthy(ctx, t, procs[i], base)
	}

	// Two read streams, each alternating between the APIs, and one ping
	// stream, the pings also alternating.
	reqs := newRequestLog()
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for offset := range 2 {
		readers.Go(func() { reqs.streamReads(bases, offset, stop) })
	}
	var overlap bool // whether the sweep was still running when the pings began
	sent := reqs.streamPings(bases, func(round int) bool {
		if round == 0 {
			overlap = !sweepDone(ctx, t, h)
		}
		if rounds > 0 {
			return round < rounds
		}
		return round < 2 || !sweepDone(ctx, t, h)
	})
	if rounds == 0 && !overlap {
		t.Errorf("%s: the sweep was over before the first ping; give the local GitHub more repositories", name)
	}
	waitAllJobs(ctx, t, h, procs, sent*acceptedPerRound())
	close(stop)
	readers.Wait()
	for _, id := range domainBundleIDs() {
		for _, base := range bases {
			reqs.do(http.MethodGet, base+"/api/bundles/"+id, "", http.StatusOK)
		}
	}

	for _, p := range procs {
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range procs {
		<-p.exited
		if p.err != nil {
			t.Errorf("%s: %s did not stop cleanly on SIGTERM: %v", name, p.name, p.err)
		}
		if lines := p.errorLines(); len(lines) > 0 {
			t.Errorf("%s: %s logged %d errors, the first: %s", name, p.name, len(lines), lines[0])
		}
	}
	reqs.report(t, name)

	r := scaleRun{name: name, rounds: sent, reqs: reqs.n, bundles: bundleStates(ctx, t, h), pings: pingOutcomes(ctx, t, h)}
	r.jobs, r.clients = jobSummary(ctx, t, h)
	for kind, c := range r.jobs {
		if c.NotCompleted+c.Retried+c.ManyClients+c.Errored > 0 {
			t.Errorf("%s: %s jobs: %+v (want each completed at its first attempt, by one client, without error)", name, kind, c)
		}
	}
	for _, kind := range []string{"sweep_discover", "sweep_repos", "verify_ping"} {
		if c := r.jobs[kind]; c.N == 0 || c.DistinctArgs != c.N {
			t.Errorf("%s: %d %s jobs, %d distinct", name, c.N, kind, c.DistinctArgs)
		}
	}
	if want := wantPingOutcomes(sent); !maps.Equal(r.pings, want) {
		t.Errorf("%s: ping outcomes %v, want %v", name, r.pings, want)
	}
	for _, id := range domainBundleIDs() {
		if !strings.HasSuffix(r.bundles[id], " live") {
			t.Errorf("%s: domain bundle %s: %q, want live", name, id, r.bundles[id])
		}
	}
	if len(r.bundles) < 200 {
		t.Errorf("%s: only %d bundles", name, len(r.bundles))
	}
	r.elapsed = time.Since(begin)
	return r
}

// waitHealthy waits until the API answers its health route.
func waitHealthy(ctx context.Context, t *testing.T, p serviceProc, base string) {
	t.Helper()
	client := &http.Client{Timeout: time.Second}
	for {
		p.alive(t)
		if resp, err := client.Get(base + "/api/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never answered at %s", p.name, base)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// sweepDone reports whether the discovery round and every sweep batch it
// queued have completed.
func sweepDone(ctx context.Context, t *testing.T, h *harness) bool {
	var discovered int
	if err := h.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'sweep_discover' AND state = 'completed'`).Scan(&discovered); err != nil {
		t.Fatal(err)
	}
	done, open := h.sweepJobs(ctx)
	return discovered > 0 && done > 0 && open == 0
}

// waitAllJobs waits until the sweep is done, each of the verify_ping jobs
// has been queued, and no job is left to run (periodic jobs due later than
// a minute from now aside), with no URL still pending.
func waitAllJobs(ctx context.Context, t *testing.T, h *harness, procs []serviceProc, pings int) {
	t.Helper()
	for {
		for _, p := range procs {
			p.alive(t)
		}
		var verify, open, pending int
		if err := h.pool.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM river_job WHERE kind = 'verify_ping'),
			(SELECT count(*) FROM river_job WHERE state NOT IN ('completed', 'cancelled', 'discarded')
				AND NOT (state = 'scheduled' AND scheduled_at > now() + interval '1 minute')),
			(SELECT count(*) FROM pings WHERE state = 'pendente')`).Scan(&verify, &open, &pending); err != nil {
			t.Fatal(err)
		}
		if verify == pings && open == 0 && pending == 0 && sweepDone(ctx, t, h) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("jobs never finished: %d of %d verify_ping queued, %d jobs open, %d URLs pending", verify, pings, open, pending)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// bundleStates maps every bundle id to its content hash and visibility.
func bundleStates(ctx context.Context, t *testing.T, h *harness) map[string]string {
	t.Helper()
	rows, err := h.pool.Query(ctx, `SELECT id, content_hash || ' ' || visibility FROM bundles`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var id, state string
	if _, err := pgx.ForEachRow(rows, []any{&id, &state}, func() error { out[id] = state; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// pingOutcomes counts the submitted URLs by outcome.
func pingOutcomes(ctx context.Context, t *testing.T, h *harness) map[pingOutcome]int {
	t.Helper()
	rows, err := h.pool.Query(ctx, `SELECT host, url, state, coalesce(bundle_id, ''), coalesce(reason, ''), count(*)
		FROM pings GROUP BY 1, 2, 3, 4, 5`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[pingOutcome]int{}
	var o pingOutcome
	var n int
	if _, err := pgx.ForEachRow(rows, []any{&o.Host, &o.URL, &o.State, &o.BundleID, &o.Reason, &n}, func() error {
		out[o] = n
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// jobSummary counts river_job by kind, leaving out periodic jobs not yet
// due, and counts the River clients that ran jobs.
func jobSummary(ctx context.Context, t *testing.T, h *harness) (map[string]jobCounts, int) {
	t.Helper()
	rows, err := h.pool.Query(ctx, `SELECT kind, count(*), count(DISTINCT args),
		count(*) FILTER (WHERE state <> 'completed'),
		count(*) FILTER (WHERE attempt <> 1),
		count(*) FILTER (WHERE coalesce(cardinality(attempted_by), 0) <> 1),
		count(*) FILTER (WHERE coalesce(array_length(errors, 1), 0) > 0)
		FROM river_job WHERE NOT (state = 'scheduled' AND scheduled_at > now() + interval '1 minute')
		GROUP BY kind`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]jobCounts{}
	var kind string
	var c jobCounts
	if _, err := pgx.ForEachRow(rows, []any{&kind, &c.N, &c.DistinctArgs, &c.NotCompleted, &c.Retried, &c.ManyClients, &c.Errored}, func() error {
		out[kind] = c
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var clients int
	if err := h.pool.QueryRow(ctx, `SELECT count(DISTINCT attempted_by[1]) FROM river_job`).Scan(&clients); err != nil {
		t.Fatal(err)
	}
	return out, clients
}
