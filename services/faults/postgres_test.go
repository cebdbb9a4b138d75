package faults

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/pgcluster"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Bounds of the Postgres fault runs.
const (
	outage      = 5 * time.Second // how long Postgres stays stopped
	atOnce      = time.Second     // an unavailable answer comes within this
	maxRecovery = 5 * time.Second // from Postgres accepting again to the first success
	loadEvery   = 20 * time.Millisecond
	pingEvery   = 150 * time.Millisecond
)

// reads are the database-backed GETs of the read load.
var reads = []string{
	"/api/bundles?q=fault",
	"/api/bundles?sort=recent&limit=5",
	"/api/stats",
	"/api/ping/status?host=" + siteHost,
	"/api/metrics",
	"/api/changes?limit=5",
	"/feed.atom",
}

// TestFaultPostgresRestart stops Postgres for 5 s under a steady read and
// ping load, then starts it again on the same data directory and socket.
// Verdict: every answer is a success or 503 unavailable with Retry-After
// (no other 5xx, no transport error), each unavailable answer comes at
// once, reads and pings succeed again within 5 s of Postgres accepting
// connections with no process restarted, and every ping answered 202
// (before the stop and after the start) is verified by the worker. (The MCP
// tools' unavailable body is checked by TestDatabaseGoneAnswersUnavailable
// in services/api/server.)
func TestFaultPostgresRestart(t *testing.T) {
	r := newRig(t)
	r.startWorker()

	var phase atomic.Value
	phase.Store("before")
	var figures tally
	var mu sync.Mutex
	var bad []string                  // answers a fault run must never give
	var slowest time.Duration         // the slowest unavailable answer
	var accepted []string             // URLs answered 202
	firstOK := map[string]time.Time{} // "read", "ping" → first success after the start
	var started time.Time             // Postgres accepts connections again
	// record counts an answer under the phase its request was sent in.
	record := func(what, p string, a answer) bool {
		figures.add(p, a)
		mu.Lock()
		defer mu.Unlock()
		ok := a.err == nil && a.status < 300
		switch {
		case ok:
			if p == "after" && firstOK[what].IsZero() {
				firstOK[what] = a.at.Add(a.took)
			}
		case a.status == http.StatusServiceUnavailable && a.name == "unavailable" && a.retryAfter != "":
			slowest = max(slowest, a.took)
		default:
			bad = append(bad, fmt.Sprintf("%s in phase %s: %s (Retry-After %q, err %v)", what, p, a.kind(), a.retryAfter, a.err))
		}
		return ok
	}

	stop := make(chan struct{})
	var load sync.WaitGroup
	for i := range 4 {
		load.Go(func() {
			for n := i; ; n++ {
				select {
				case <-stop:
					return
				case <-time.After(loadEvery):
				}
				p := phase.Load().(string)
				record("read", p, r.send(http.MethodGet, reads[n%len(reads)], ""))
			}
		})
	}
	load.Go(func() {
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			case <-time.After(pingEvery):
			}
			u := fmt.Sprintf("https://%s/r%d/index.md", siteHost, n)
			body := fmt.Sprintf(`{"host":%q,"key":%q,"urlList":[%q]}`, siteHost, siteKey, u)
			p := phase.Load().(string)
			if record("ping", p, r.send(http.MethodPost, "/api/ping", body)) {
				mu.Lock()
				accepted = append(accepted, u)
				mu.Unlock()
			}
		}
	})

	time.Sleep(2 * time.Second)
	phase.Store("stopping") // until pg_ctl stop returns
	stopAt := time.Now()
	if err := r.cluster.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	phase.Store("down")
	time.Sleep(outage - time.Since(stopAt))
	if err := r.startCluster(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	started = time.Now()
	mu.Unlock()
	phase.Store("after")
	deadline := time.Now().Add(maxRecovery + 3*time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		done := !firstOK["read"].IsZero() && !firstOK["ping"].IsZero() && time.Since(firstOK["read"]) > 2*time.Second && time.Since(firstOK["ping"]) > 2*time.Second
		mu.Unlock()
		if done {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	close(stop)
	load.Wait()

	mu.Lock()
	defer mu.Unlock()
	t.Logf("pg_ctl stop took %s; Postgres down %s in all; pg_ctl start took %s", stopped.Sub(stopAt).Round(time.Millisecond),
		started.Sub(stopAt).Round(time.Millisecond), started.Sub(stopAt.Add(outage)).Round(time.Millisecond))
	t.Logf("answers by phase and kind:%s", figures.String())
	t.Logf("slowest unavailable answer %s (GET /api/metrics answers from its 1 s cache while down)", slowest.Round(time.Millisecond))
	for _, what := range []string{"read", "ping"} {
		if firstOK[what].IsZero() {
			t.Errorf("no %s succeeded within %s of Postgres accepting again", what, maxRecovery+3*time.Second)
			continue
		}
		rec := firstOK[what].Sub(started)
		t.Logf("recovery (%s): first success %s after Postgres accepted again", what, rec.Round(time.Millisecond))
		if rec > maxRecovery {
			t.Errorf("%s recovered after %s, want under %s", what, rec, maxRecovery)
		}
	}
	if slowest > atOnce {
		t.Errorf("an unavailable answer took %s, want under %s", slowest, atOnce)
	}
	for _, b := range bad {
		t.Error(b)
	}
	if !strings.Contains(r.logs.String(), `"dependency":"postgres"`) {
		t.Error("the API's log never names the failed dependency")
	}
	verifyAll(t, r, accepted)
}

// startCluster starts the rig's stopped cluster again, on the same data
// directory and socket.
func (r *rig) startCluster() error {
	_, err := pgcluster.Start(r.t.Context(), pgcluster.Options{Dir: r.cluster.Dir, Port: r.cluster.Port, Ephemeral: true})
	return err
}

// verifyAll waits until the worker has published every URL in urls.
func verifyAll(t *testing.T, r *rig, urls []string) {
	t.Helper()
	if len(urls) == 0 {
		t.Fatal("no ping was accepted")
	}
	start := time.Now()
	var pending []string
	for time.Since(start) < time.Minute {
		page, err := r.st.PingStatuses(t.Context(), siteHost, 100, 0)
		if err != nil {
			t.Fatal(err)
		}
		state := map[string]wire.PingState{}
		for _, it := range page.Items {
			state[it.URL] = it.State
		}
		pending = pending[:0]
		for _, u := range urls {
			if state[u] != wire.PingPublished {
				pending = append(pending, fmt.Sprintf("%s (%s)", u, state[u]))
			}
		}
		if len(pending) == 0 {
			t.Logf("all %d accepted pings verified and published %s after the load stopped", len(urls), time.Since(start).Round(time.Millisecond))
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Errorf("%d of %d accepted pings not published after a minute: %v", len(pending), len(urls), pending)
}
