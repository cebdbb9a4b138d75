// Command okf-loadgen is the load harness of make load: it builds (once, and
// keeps) an index of N synthetic bundles on a private Postgres cluster,
// starts the real okf-api against it as a child process, sends a mix of
// searches, cards, statistics, pings and MCP calls at fixed arrival rates
// (open loop), then runs the same search shapes as naive SQL, and prints
// per route the requests sent, answered and failed, the throughput and
// p50/p99/p999 latency, the API's resident memory, the baseline's ratios and
// the targets of issue 17. All traffic goes to loopback; every figure is
// bounded (rates, duration, queries, requests in flight).
//
// Files: schedule.go (the open-loop schedule), traffic.go (the mix and its
// sender), mcp.go (MCP sessions), histogram.go (latency histogram),
// index.go (the index on disk), api.go (the API child and its memory),
// cpu.go (who had the cores),
// baseline.go (the naive SQL), report.go (what is printed).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
)

// options are the flags; make load passes its variables as them.
type options struct {
	n                 int
	dir, api, apiLog  string
	profile, db       string
	writes            int
	replica           bool
	staleness         time.Duration
	duration, warmup  time.Duration
	baselineEach      time.Duration
	streams, sessions int
	rates             rates
}

func main() {
	var o options
	fs := flag.NewFlagSet("okf-loadgen", flag.ExitOnError)
	fs.IntVar(&o.n, "n", 100000, "bundles in the index (1000 to 2000000)")
	fs.StringVar(&o.dir, "dir", ".data/load", "`directory` of the harness's Postgres cluster, kept between runs")
	fs.StringVar(&o.api, "api", "bin/okf-api", "the okf-api `binary` to start")
	fs.StringVar(&o.apiLog, "api-log", "", "`file` for the API's log (default: discarded)")
	fs.DurationVar(&o.duration, "duration", 30*time.Second, "length of the measured run (1s to 10m)")
	fs.DurationVar(&o.warmup, "warmup", 5*time.Second, "the same mix before the run, not measured (0 to 1m)")
	fs.DurationVar(&o.baselineEach, "baseline", 3*time.Second, "naive baseline time per search shape (0 skips it; up to 1m)")
	fs.IntVar(&o.streams, "streams", 2, "concurrent naive queries of the baseline (1 to 16)")
	fs.IntVar(&o.sessions, "mcp-sessions", 4, "MCP client connections, each initialized once (1 to 64)")
	fs.Float64Var(&o.rates.Search, "rate-search", 1500, "search requests a second, split evenly over the six shapes")
	fs.Float64Var(&o.rates.Card, "rate-card", 5000, "GET /api/bundles/{id} a second")
	fs.Float64Var(&o.rates.Stats, "rate-stats", 20, "GET /api/stats a second")
	fs.Float64Var(&o.rates.Ping, "rate-ping", 5, "POST /api/ping a second")
	fs.Float64Var(&o.rates.MCP, "rate-mcp", 50, "MCP tools/call search_bundles a second")
	fs.StringVar(&o.profile, "profile", "real", "`real`: Zipf over 100,000 distinct queries of the index's words and every id (profile.go); hot: the six shapes of the first harness")
	fs.IntVar(&o.writes, "writes", 0, "bundles written a second through the sweep's batched path during the warm-up and the run (0 to 1000)")
	fs.BoolVar(&o.replica, "replica", false, "serve the API's reads from a streaming hot standby of the harness's cluster (DATABASE_READ_URL), made for the run and removed after; not with -db")
	fs.StringVar(&o.db, "db", "", "`URL` of an index database to use as it is (e.g. the benchmark's okf_bench_1000000) instead of the harness's own")
	fs.DurationVar(&o.staleness, "staleness", 5*time.Second, "SEARCH_STALENESS of the API (0 to 60s)")
	_ = fs.Parse(os.Args[1:])
	if err := o.check(); err != nil {
		fmt.Fprintln(os.Stderr, "okf-loadgen:", err)
		os.Exit(2)
	}
	// The harness allocates a request's worth of garbage for every request
	// it sends; at the default pace its collections stalled the senders
	// often enough to show as tens of milliseconds of latency on every
	// route and as bursts of late requests (and connections) at the API. A
	// heap four times what is live costs the harness a few MB.
	debug.SetGCPercent(400)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "okf-loadgen:", err)
		os.Exit(1)
	}
}

// Bounds of a run: a mistyped variable must not send a million requests a
// second or run all day.
const (
	maxN        = 2000000
	maxRate     = 50000.0
	maxDuration = 10 * time.Minute
)

func (o options) check() error {
	switch {
	case o.n < 1000 || o.n > maxN:
		return fmt.Errorf("-n %d: from 1000 to %d", o.n, maxN)
	case o.duration < time.Second || o.duration > maxDuration:
		return fmt.Errorf("-duration %s: from 1s to %s", o.duration, maxDuration)
	case o.warmup < 0 || o.warmup > time.Minute:
		return fmt.Errorf("-warmup %s: from 0 to 1m", o.warmup)
	case o.baselineEach < 0 || o.baselineEach > time.Minute:
		return fmt.Errorf("-baseline %s: from 0 to 1m", o.baselineEach)
	case o.streams < 1 || o.streams > 16:
		return fmt.Errorf("-streams %d: from 1 to 16", o.streams)
	case o.sessions < 1 || o.sessions > 64:
		return fmt.Errorf("-mcp-sessions %d: from 1 to 64", o.sessions)
	case o.profile != "real" && o.profile != "hot":
		return fmt.Errorf("-profile %q: real or hot", o.profile)
	case o.writes < 0 || o.writes > 1000:
		return fmt.Errorf("-writes %d: from 0 to 1000", o.writes)
	case o.staleness < 0 || o.staleness > time.Minute:
		return fmt.Errorf("-staleness %s: from 0 to 60s", o.staleness)
	case o.replica && o.db != "":
		return fmt.Errorf("-replica: the standby is of the harness's own cluster, not of -db's server")
	}
	for name, r := range map[string]float64{"search": o.rates.Search, "card": o.rates.Card, "stats": o.rates.Stats, "ping": o.rates.Ping, "mcp": o.rates.MCP} {
		if r < 0 || r > maxRate {
			return fmt.Errorf("-rate-%s %g: from 0 to %g", name, r, maxRate)
		}
	}
	return nil
}

func run(ctx context.Context, o options, out io.Writer) (err error) {
	idx, err := openIndex(ctx, o.dir, o.db, o.n, out)
	if idx != nil {
		defer func() {
			if cerr := idx.close(); cerr != nil && err == nil {
				err = cerr
			}
		}()
	}
	if err != nil {
		return err
	}
	env := []string{"SEARCH_STALENESS=" + o.staleness.String()}
	if o.replica {
		if err := idx.startStandby(ctx, out); err != nil {
			return err
		}
	}
	// The API, Postgres and the harness share this machine's cores: the
	// API's read pools are sized to them, as okfctl run sizes them.
	env = append(env, "DATABASE_READ_URL="+store.WithReadConns(idx.readURL, runtime.NumCPU()))
	api, err := startAPI(ctx, o.api, idx.url, o.apiLog, env...)
	if err != nil {
		return err
	}
	defer api.stop()
	pid := api.cmd.Process.Pid
	idle, err := readMemory(pid)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "okf-api: pid %d at %s\n", pid, api.base)

	w, err := newWorkload(ctx, api.base, o.n, o.sessions, out)
	if err != nil {
		return err
	}
	mix, naive, err := chooseWorkload(ctx, o, w, idx.url, out)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, store.Config{URL: idx.url})
	if err != nil {
		return err
	}
	defer st.Close()
	wr := newWriter(st, o.n, o.writes)
	wctx, stopWrites := context.WithCancel(ctx)
	defer stopWrites()
	go wr.run(wctx)
	if o.warmup > 0 {
		fmt.Fprintf(out, "warm-up: %s\n", o.warmup)
		drive(ctx, mix(o.rates), o.warmup)
	}
	fmt.Fprintf(out, "run: %s\n", o.duration)
	routes := mix(o.rates)
	m, err := measure(ctx, o, api, idx, wr, routes, stopWrites)
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	rep := report{n: o.n, duration: o.duration, idleRSS: idle.rss, sampledRSS: m.sampled, hwm: m.end.hwm, endRSS: m.end.rss,
		baselineEach: o.baselineEach, streams: o.streams, cpu: cpuLine(m.cpu0, m.cpu1, m.elapsed) +
			fmt.Sprintf("\nload average (1 min): %s before the run, %s after it", m.load0, loadAverage()),
		cache: cacheLine(m.cache0, m.cache1) + fmt.Sprintf("\nwrites: %d bundles written during the run (%.1f/s; %d batches failed); SEARCH_STALENESS=%s",
			m.written, float64(m.written)/o.duration.Seconds(), wr.failed.Load(), o.staleness) + m.lag,
		statements: m.shapes, targets: hotTargets}
	if o.profile == "real" {
		rep.targets = realTargets
	}
	for _, rt := range routes {
		rep.routes = append(rep.routes, rt.stats)
	}
	if o.baselineEach > 0 {
		fmt.Fprintf(out, "baseline: the search shapes, %s each\n", o.baselineEach)
		rep.baseline = runBaseline(ctx, st, mix(o.rates), naive, o.baselineEach, o.streams, idx.postmasterPid())
	}
	rep.write(out)
	return ctx.Err()
}

// deepPage is the offset of the deep page the mix reads through next links.
const deepPage = 960

// newWorkload gathers what the requests are made of: ids and names from
// the generator, the next links of deep pages by following them from the
// first page (one per medium word), and the MCP sessions.
func newWorkload(ctx context.Context, base string, n, sessions int, out io.Writer) (*workload, error) {
	w := &workload{base: base, client: &http.Client{Transport: newTransport()},
		run: strconv.FormatInt(time.Now().Unix(), 36)}
	w.ids, w.names = sample(n, 5000)
	for k := range 8 {
		link, offset, err := w.follow(ctx, base+"/api/bundles?q="+mediumWord(k)+"&sort=relevance", deepPage)
		if err != nil {
			return nil, err
		}
		if offset != deepPage {
			fmt.Fprintf(out, "note: %q has pages to offset %d only; the deep shape reads that one\n", mediumWord(k), offset)
		}
		w.deep = append(w.deep, link)
	}
	for range sessions {
		s, err := newMCPSession(ctx, base+"/mcp")
		if err != nil {
			return nil, err
		}
		w.mcp = append(w.mcp, s)
	}
	return w, nil
}

// follow walks next links from first until the page at offset to (or the
// last page) and returns its link and offset.
func (w *workload) follow(ctx context.Context, first string, to int) (string, int, error) {
	link, offset := first, 0
	for offset < to {
		var page struct {
			Next       *string `json:"next"`
			NextOffset *int    `json:"next_offset"`
		}
		if err := getJSON(ctx, w.client, link, &page); err != nil {
			return "", 0, err
		}
		if page.Next == nil || page.NextOffset == nil {
			break
		}
		link, offset = *page.Next, *page.NextOffset
	}
	return link, offset, nil
}

// getJSON GETs u and decodes its 200 answer into v.
func getJSON(ctx context.Context, c *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %.300s", u, resp.Status, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	return nil
}

// chooseWorkload is the traffic of o's profile and its naive form for the
// baseline: the hot mix, or the real profile's queries.
func chooseWorkload(ctx context.Context, o options, w *workload, dbURL string, out io.Writer) (func(rates) []*route, func(string, int) store.NaiveQuery, error) {
	mix := w.routes
	naive := func(shape string, k int) store.NaiveQuery { return naiveQuery(shape, k, w.names) }
	if o.profile == "real" {
		rw, err := newRealWorkload(ctx, w, dbURL, o.n)
		if err != nil {
			return nil, nil, err
		}
		fmt.Fprintf(out, "profile real: %d distinct queries (%s), Zipf s=%.2f; cards Zipf over %d ids; %d writes a second\n",
			len(rw.queries), kindShares(), zipfS, len(rw.allIDs), o.writes)
		mix = rw.routes
		naive = func(kind string, k int) store.NaiveQuery {
			idx := rw.byKind[kind]
			return naiveOf(rw.queries[idx[(k*7919)%len(idx)]].raw)
		}
	}
	return mix, naive, nil
}

// measured is what a run measured of the API's process and Postgres.
type measured struct {
	written        int64
	shapes         []shapeStat
	cpu0, cpu1     cpuTicks
	cache0, cache1 cacheLookups
	sampled        int64
	end            memory
	elapsed        time.Duration
	load0          string
	lag            string // "\n" and the standby's replay lag, with -replica
}

// measure drives routes for o.duration and reads the process's CPU,
// memory and page cache, and the statements' shapes, around it; it stops
// the writes at the run's end.
func measure(ctx context.Context, o options, api *apiProcess, idx *index, wr *writer, routes []*route, stopWrites func()) (measured, error) {
	pid := api.cmd.Process.Pid
	statements := resetStatements(ctx, idx.url)
	if idx.readURL != idx.url {
		statements = resetStatements(ctx, idx.readURL) // the reads' statements are the standby's
	}
	written0 := wr.written.Load()
	sampler := sampleRSS(pid, 100*time.Millisecond)
	pg := []int{idx.postmasterPid(), idx.standbyPid()}
	cpu0, err := readCPU(pid, pg...)
	if err != nil {
		return measured{}, err
	}
	cache0, err := api.pageCache()
	if err != nil {
		return measured{}, err
	}
	t0, load0 := time.Now(), loadAverage()
	drive(ctx, routes, o.duration)
	written := wr.written.Load() - written0
	var shapes []shapeStat
	if statements {
		shapes, _ = readStatements(ctx, idx.readURL)
	}
	lag := idx.replayLag(ctx)
	if lag != "" {
		lag = "\n" + lag
	}
	stopWrites()
	cache1, err := api.pageCache()
	if err != nil {
		return measured{}, err
	}
	cpu1, err := readCPU(pid, pg...)
	if err != nil {
		return measured{}, err
	}
	sampled := sampler.Stop()
	end, err := readMemory(pid)
	if err != nil {
		return measured{}, err
	}
	elapsed := time.Since(t0)
	return measured{written: written, shapes: shapes, cpu0: cpu0, cpu1: cpu1, cache0: cache0, cache1: cache1,
		sampled: sampled, end: end, elapsed: elapsed, load0: load0, lag: lag}, nil
}
