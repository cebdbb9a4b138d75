package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The schedule's due times are start + k/rate, whatever the sender does,
// and its length is rate times the duration.
func TestScheduleDueTimes(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		rate     float64
		d        time.Duration
		n        int
		interval time.Duration
	}{
		{1000, time.Second, 1000, time.Millisecond},
		{1500, 30 * time.Second, 45000, 666666},
		{0.5, 10 * time.Second, 5, 2 * time.Second},
		{0, time.Minute, 0, 0},
	} {
		s := newSchedule(start, c.rate, c.d)
		if s.n != c.n || s.interval != c.interval {
			t.Errorf("rate %g for %s: n %d interval %s, want %d and %s", c.rate, c.d, s.n, s.interval, c.n, c.interval)
		}
		if c.n > 0 {
			if got, want := s.at(c.n-1), start.Add(time.Duration(c.n-1)*c.interval); !got.Equal(want) {
				t.Errorf("rate %g: last due %s, want %s", c.rate, got, want)
			}
		}
	}
}

// run fires every request once, in order, none before it is due, and
// catches up at once when it starts behind (open loop: a late start does
// not thin the schedule out).
func TestScheduleRunIsOpenLoop(t *testing.T) {
	for _, late := range []time.Duration{0, 100 * time.Millisecond} {
		s := newSchedule(time.Now().Add(-late), 500, 300*time.Millisecond)
		var ks []int
		var early int
		t0 := time.Now()
		s.run(context.Background(), func(k int, due time.Time) {
			if time.Now().Before(due) {
				early++
			}
			if !due.Equal(s.at(k)) {
				t.Errorf("k %d due %s, want %s", k, due, s.at(k))
			}
			ks = append(ks, k)
		})
		if len(ks) != 150 || !slices.IsSorted(ks) || ks[149] != 149 || early > 0 {
			t.Errorf("late %s: fired %d (sorted %v), %d early", late, len(ks), slices.IsSorted(ks), early)
		}
		if took := time.Since(t0); took > 300*time.Millisecond-late+time.Second { // generous: a loaded machine oversleeps
			t.Errorf("late %s: took %s", late, took)
		}
	}
	// A canceled run stops.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	newSchedule(time.Now().Add(time.Second), 100, time.Second).run(ctx, func(int, time.Time) { n++ })
	if n != 0 {
		t.Errorf("canceled run fired %d", n)
	}
}

// Quantiles are within the histogram's resolution (1/64) of the exact ones
// of the sorted samples, never below them, and never above the maximum;
// the bucket arithmetic round-trips at every power of two.
func TestHistogramQuantiles(t *testing.T) {
	for v := int64(0); v < 1<<34; v = v*2 + 1 {
		for _, x := range []int64{v, v + 1} {
			i := bucketOf(x)
			if hi := bucketHigh(i); x > hi || (i > 0 && x <= bucketHigh(i-1)) {
				t.Fatalf("value %d in bucket %d (%d..%d)", x, i, bucketHigh(i-1)+1, hi)
			}
		}
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	var h histogram
	var samples []time.Duration
	for range 100000 {
		d := time.Duration(rnd.ExpFloat64()*3000) * time.Microsecond // p50 ~2 ms, long tail
		if rnd.IntN(1000) == 0 {
			d = time.Duration(rnd.IntN(2000)) * time.Millisecond
		}
		samples = append(samples, d)
		h.Record(d)
	}
	slices.Sort(samples)
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999, 1} {
		exact := samples[min(len(samples)-1, int(q*float64(len(samples))+0.999999)-1)].Truncate(time.Microsecond)
		got := h.Quantile(q)
		if got < exact || float64(got-exact) > float64(exact)/64+float64(time.Microsecond) {
			t.Errorf("q %g: %s, exact %s", q, got, exact)
		}
	}
	if h.Max() != samples[len(samples)-1].Truncate(time.Microsecond) || h.Count() != 100000 {
		t.Errorf("max %s count %d", h.Max(), h.Count())
	}
	var empty histogram
	if empty.Quantile(0.99) != 0 {
		t.Error("empty histogram has a quantile")
	}
	var m histogram
	m.merge(&h)
	m.merge(&h)
	if m.Count() != 200000 || m.Quantile(0.99) != h.Quantile(0.99) || m.Max() != h.Max() {
		t.Errorf("merge: count %d p99 %s max %s", m.Count(), m.Quantile(0.99), m.Max())
	}
}

// Record is safe from many goroutines at once (go test -race).
func TestHistogramConcurrent(t *testing.T) {
	var h histogram
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				h.Record(time.Duration(g*1000+i) * time.Microsecond)
			}
		}()
	}
	wg.Wait()
	if h.Count() != 8000 || h.Max() != 7999*time.Microsecond {
		t.Errorf("count %d max %s", h.Count(), h.Max())
	}
}

// drive sends at the rate over real HTTP, counts answers and failures by
// status, and measures from the due time: a server that answers after 30
// ms shows 30 ms or more.
func TestDriveCountsAndStatuses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			time.Sleep(30 * time.Millisecond)
		case "/fail":
			if r.URL.Query().Get("k") == "odd" {
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"error":"unavailable","message":"down"}`))
				return
			}
		case "/mcp":
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[]}}`))
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	get := func(path string) func(int) (*http.Client, *http.Request) {
		return func(k int) (*http.Client, *http.Request) {
			q := "even"
			if k%2 == 1 {
				q = "odd"
			}
			return srv.Client(), mustRequest("GET", srv.URL+path+"?k="+q, nil)
		}
	}
	slow := &route{stats: newRouteStats("slow", true, 100), rate: 100, want: 200, request: get("/slow")}
	fail := &route{stats: newRouteStats("fail", true, 200), rate: 200, want: 200, request: get("/fail")}
	mcp := &route{stats: newRouteStats("mcp", false, 50), rate: 50, want: 200, check: checkToolResult, request: get("/mcp")}
	drive(context.Background(), []*route{slow, fail, mcp}, 500*time.Millisecond)

	if s := slow.stats; s.sent.Load() != 50 || s.ok.Load() != 50 || s.hist.Quantile(0.5) < 30*time.Millisecond {
		t.Errorf("slow: sent %d ok %d p50 %s", s.sent.Load(), s.ok.Load(), s.hist.Quantile(0.5))
	}
	if s := fail.stats; s.sent.Load() != 100 || s.ok.Load() != 50 || s.errors["503/unavailable"] != 50 {
		t.Errorf("fail: sent %d ok %d errors %v", s.sent.Load(), s.ok.Load(), s.errors)
	}
	if s := mcp.stats; s.ok.Load() != 0 || s.errors["body"] != 25 {
		t.Errorf("mcp: ok %d errors %v", s.ok.Load(), s.errors)
	}
}

func TestCheckToolResult(t *testing.T) {
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"items":[]}}}`: "",
		`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[]}}`:                   "tool error",
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`:                  "error: bad",
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`:                                  "no structured content",
		`{"jsonrpc":"2.0","id":1}`:                                                          "no result",
	} {
		if got := checkToolResult([]byte(body)); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
	if got := checkToolResult([]byte("event: message")); !strings.HasPrefix(got, "not JSON-RPC") {
		t.Errorf("not JSON: %q", got)
	}
}

func TestParseStatus(t *testing.T) {
	status := "Name:\tokf-api\nVmPeak:\t 1300000 kB\nVmHWM:\t   51200 kB\nVmRSS:\t   40960 kB\nThreads:\t9\n"
	m, err := parseStatus([]byte(status))
	if err != nil || m.rss != 40<<20 || m.hwm != 50<<20 {
		t.Errorf("%+v %v", m, err)
	}
	if _, err := parseStatus([]byte("Name:\tx\n")); err == nil {
		t.Error("no figures: no error")
	}
	// The harness's own process has a status.
	if _, err := readMemory(1); err != nil && !strings.Contains(err.Error(), "permission") {
		t.Log(err)
	}
}

// The report has a line per route and for the search total, the memory,
// the baseline's ratios and a verdict per target.
func TestReportFormat(t *testing.T) {
	route := func(name string, search bool, rate float64, ok int64, lat time.Duration, errs map[string]int64) *routeStats {
		s := newRouteStats(name, search, rate)
		s.sent.Store(ok)
		s.ok.Store(ok)
		for k, v := range errs {
			s.errors[k] = v
			s.sent.Add(v)
		}
		for range ok {
			s.hist.Record(lat)
		}
		return s
	}
	var routes []*routeStats
	for _, shape := range searchShapes {
		lat := 4 * time.Millisecond
		if shape == "offset 976" {
			lat = 40 * time.Millisecond
		}
		routes = append(routes, route("search "+shape, true, 250, 2500, lat, nil))
	}
	routes = append(routes, route("card", false, 5000, 50000, time.Millisecond, map[string]int64{"503": 3, "net": 1}))
	naive, api := &histogram{}, &histogram{}
	for range 10 {
		naive.Record(400 * time.Millisecond)
	}
	for range 500 {
		api.Record(4 * time.Millisecond)
	}
	r := report{n: 100000, duration: 10 * time.Second, routes: routes, idleRSS: 30 << 20, sampledRSS: 70 << 20, hwm: 72 << 20, endRSS: 60 << 20,
		baseline: []baselineResult{{shape: "common word",
			api:   closedResult{queries: 500, elapsed: 2 * time.Second, hist: api, pgTicks: 100},
			naive: closedResult{queries: 10, errors: 1, elapsed: 2 * time.Second, hist: naive}}},
		baselineEach: 3 * time.Second, streams: 2}
	var buf bytes.Buffer
	r.write(&buf)
	out := buf.String()
	for _, want := range []string{
		"load over 100000 bundles: 10s at fixed arrival rates",
		"search offset 976",
		"search (all shapes)        1500    15000    15000    1500.0",
		"card                       5000    50004    50000    5000.0     1.00     1.00     1.00     1.00  503:3 net:1",
		"API RSS: 30.0 MB before the warm-up, peak 72.0 MB (VmHWM; 70.0 MB sampled), 60.0 MB at the end",
		"search common word         250.0     4.00     4.00     2.00       5.0   400.00   400.00        -     0/1     100.0x      50.0x",
		"targets (stated for 1000000 bundles; this run has 100000):",
		"search >= 1500/s with p99 <= 25.00 ms: 1500.0/s, 0 errors, p99 40.00 ms (worst: search offset 976): MISSED",
		"card >= 5000/s with p99 <= 25.00 ms: 5000.0/s, 4 errors, p99 1.00 ms: MISSED",
		"API RSS <= 100.0 MB: peak 72.0 MB: met",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if testing.Verbose() {
		t.Log("\n" + out)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestCPUParsers(t *testing.T) {
	n, err := parseProcessTicks("4242 (okf api) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 30 0 0 20 0 9 0 100 0 0")
	if err != nil || n != 180 {
		t.Errorf("process: %d %v", n, err)
	}
	if n, err := parseReapedTicks("4242 (okf api) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 30 7 5 20 0 9 0 100 0 0"); err != nil || n != 12 {
		t.Errorf("reaped: %d %v", n, err)
	}
	if _, err := parseProcessTicks("4242 okf-api S"); err == nil {
		t.Error("no parentheses: no error")
	}
	busy, total, err := parseMachineTicks("cpu  100 10 50 800 40 0 5 0 0 0\ncpu0 1 2 3 4 5\n")
	if err != nil || busy != 165 || total != 1005 {
		t.Errorf("machine: busy %d total %d %v", busy, total, err)
	}
	if _, err := readCPU(os.Getpid(), os.Getppid()); err != nil {
		t.Errorf("own process: %v", err)
	}
	if pp, err := parseParent("4242 (okf api) S 17 4242"); err != nil || pp != 17 {
		t.Errorf("parent: %d %v", pp, err)
	}
	// The test process is a child of its parent: the tree counts it.
	if tree, own := treeTicks(os.Getppid()), must(processTicks(strconv.Itoa(os.Getppid()))); tree < own {
		t.Errorf("tree %d < own %d", tree, own)
	}
	line := cpuLine(cpuTicks{}, cpuTicks{api: 100, self: 50, postgres: 30, busy: 300, total: 400}, time.Second)
	if !strings.Contains(line, "API 1.00, Postgres 0.30, harness 0.50, other processes 0.00") {
		t.Errorf("line: %s", line)
	}
}

// A second run on the same directory is refused while the first holds it.
func TestLockDir(t *testing.T) {
	dir := t.TempDir()
	a, err := lockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := lockDir(dir); err == nil {
		b.Close()
		t.Fatal("second lock taken")
	}
	a.Close()
	b, err := lockDir(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	b.Close()
}

// The mix has a route for every search shape, in order, and the baseline
// a naive form of each: a shape added to one place only fails here.
func TestShapesMatch(t *testing.T) {
	w := &workload{base: "http://127.0.0.1:1", ids: []string{"a"}, names: []string{"Alpha Guide"}, deep: []string{"http://127.0.0.1:1/api/bundles?cursor=x"}, client: http.DefaultClient}
	routes := w.routes(rates{Search: 600, Card: 1})
	var got []string
	for _, rt := range routes {
		if rt.stats.search {
			got = append(got, strings.TrimPrefix(rt.stats.name, "search "))
			if rt.rate != 100 {
				t.Errorf("%s at %g/s, want 100", rt.stats.name, rt.rate)
			}
		}
	}
	if !slices.Equal(got, searchShapes) {
		t.Errorf("search routes %v, shapes %v", got, searchShapes)
	}
	for _, shape := range searchShapes {
		q := naiveQuery(shape, 0, w.names)
		if (q.Q == "") != (shape == "recent") {
			t.Errorf("%s: naive query %+v", shape, q)
		}
	}
	if q := naiveQuery("next to 960", 0, w.names); q.Offset != 960 {
		t.Errorf("deep page at %d", q.Offset)
	}
	if q := naiveQuery("offset 976", 0, w.names); q.Offset != 976 {
		t.Errorf("last page at %d", q.Offset)
	}
	if q := naiveQuery("exact name", 0, w.names); q.Q != "Alpha Guide" {
		t.Errorf("exact name %q", q.Q)
	}
	// The offset shape asks the API for the same page.
	for _, rt := range routes {
		if rt.stats.name == "search offset 976" {
			_, req := rt.request(0)
			if v := req.URL.Query(); v.Get("offset") != "976" || v.Get("sort") != "relevance" || v.Get("q") == "" {
				t.Errorf("offset request %s", req.URL)
			}
		}
	}
}

func TestCacheLine(t *testing.T) {
	metrics := func(searchHit, searchMiss, cardHit int) cacheLookups {
		text := fmt.Sprintf(`# HELP okf_page_cache_lookups_total Answers asked.
# TYPE okf_page_cache_lookups_total counter
okf_page_cache_lookups_total{cache="card",result="hit"} %d
okf_page_cache_lookups_total{cache="card",result="miss"} 0
okf_page_cache_lookups_total{cache="card",result="unchecked"} 0
okf_page_cache_lookups_total{cache="search",result="hit"} %d
okf_page_cache_lookups_total{cache="search",result="miss"} %d
okf_page_cache_lookups_total{cache="search",result="unchecked"} 1
okf_page_cache_bytes{cache="search"} 1.6e+07
`, cardHit, searchHit, searchMiss)
		c, err := parseCacheLookups(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, c := range []struct {
		before, after cacheLookups
		want          string
	}{
		{cacheLookups{}, cacheLookups{}, "page cache: no lookups"},
		{metrics(10, 5, 0), metrics(100, 15, 0),
			"page cache: search 90 of 100 answered from it (90.0%), 10 computed, 0 unchecked"},
		{cacheLookups{}, metrics(3, 1, 4),
			"page cache: search 3 of 5 answered from it (60.0%), 1 computed, 1 unchecked; card 4 of 4 answered from it (100.0%), 0 computed, 0 unchecked"},
	} {
		if got := cacheLine(c.before, c.after); got != c.want {
			t.Errorf("cacheLine = %q, want %q", got, c.want)
		}
	}
}

// The realistic profile draws from at least 100,000 distinct queries of
// every kind, in the documented shares.
func TestRealQueries(t *testing.T) {
	v := sampleVocabulary(1000000, 12000)
	if len(v.words) < 1000 || len(v.names) < 100 || len(v.repos) < 100 {
		t.Fatalf("vocabulary: %d words, %d names, %d repos", len(v.words), len(v.names), len(v.repos))
	}
	qs := buildQueries(v, realQueries)
	if len(qs) < realQueries*99/100 {
		t.Fatalf("%d distinct queries, want about %d", len(qs), realQueries)
	}
	seen := map[string]bool{}
	count := map[string]int{}
	for _, q := range qs {
		if seen[q.raw] {
			t.Fatalf("query %q twice", q.raw)
		}
		seen[q.raw] = true
		count[q.kind]++
	}
	for _, k := range queryKinds {
		if got := float64(count[k.name]) / float64(len(qs)); got < k.share*0.95 || got > k.share*1.05 {
			t.Errorf("%s: %.3f of the queries, want %.2f", k.name, got, k.share)
		}
	}
}

func TestShapeOf(t *testing.T) {
	for q, want := range map[string]string{
		`SELECT id FROM bundles WHERE id = $1 AND visibility <> $2`:                                              "card",
		`WITH w AS (SELECT ids FROM bundle_writes) SELECT pg_current_snapshot()::text`:                           "freshness check",
		`WITH e0 AS MATERIALIZED (SELECT 1 FROM bundles WHERE visibility = 'live' AND origin = $1)`:              "relevance [origin]",
		`SELECT x FROM bundles WHERE visibility = 'live' AND search @@ okf_term($1) ORDER BY repo_stars DESC`:    "sorted stars +q",
		`SELECT x FROM bundles WHERE visibility = 'live' AND lower(repo_language) = ANY($1) ORDER BY indexed_at`: "sorted recent [language]",
	} {
		if got := shapeOf(q); got != want {
			t.Errorf("shapeOf(%.50q) = %q, want %q", q, got, want)
		}
	}
}

// A mistyped variable is refused before anything runs: bounds of each
// flag, and a standby asked of a server the harness does not run.
func TestOptionsCheck(t *testing.T) {
	good := options{n: 100000, duration: 30 * time.Second, warmup: 5 * time.Second, baselineEach: 3 * time.Second,
		streams: 2, sessions: 4, profile: "real", staleness: 5 * time.Second}
	for _, tc := range []struct {
		name string
		edit func(*options)
		ok   bool
	}{
		{"defaults", func(*options) {}, true},
		{"a replica of the harness's cluster", func(o *options) { o.replica = true }, true},
		{"a replica of -db", func(o *options) { o.replica, o.db = true, "postgres://x/okf_bench_1000000" }, false},
		{"n too small", func(o *options) { o.n = 10 }, false},
		{"unknown profile", func(o *options) { o.profile = "cold" }, false},
		{"writes too many", func(o *options) { o.writes = 5000 }, false},
		{"negative rate", func(o *options) { o.rates.Search = -1 }, false},
	} {
		o := good
		tc.edit(&o)
		if err := o.check(); (err == nil) != tc.ok {
			t.Errorf("%s: check() = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
