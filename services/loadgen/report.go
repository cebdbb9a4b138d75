package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// targets are what a run is judged against, stated for 1,000,000 bundles
// on two cores: the hot mix's (issue 17), or the realistic profile's
// (issue 27: 10 writes a second, < 0.1% errors, cards p99 <= 10 ms).
type targets struct {
	search, card float64 // requests a second
	p99, cardP99 time.Duration
	rss          int64
	errorShare   float64 // the share of errors allowed
}

const targetN = 1000000

var (
	hotTargets  = targets{search: 1500, card: 5000, p99: 25 * time.Millisecond, cardP99: 25 * time.Millisecond, rss: 100 << 20}
	realTargets = targets{search: 200, card: 1000, p99: 50 * time.Millisecond, cardP99: 10 * time.Millisecond, rss: 150 << 20, errorShare: 0.001}
)

// report is everything a run prints.
type report struct {
	n        int
	duration time.Duration
	routes   []*routeStats
	// The API's resident memory, bytes: before the warm-up, the largest
	// VmRSS sampled during the run, VmHWM (the kernel's peak) and VmRSS at
	// the end.
	idleRSS, sampledRSS, hwm, endRSS int64
	baseline                         []baselineResult
	baselineEach                     time.Duration
	streams                          int
	cpu                              string // cpuLine of the run
	cache                            string // cacheLine of the run
	statements                       []shapeStat
	targets                          targets
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)) }
func mb(b int64) string         { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

// errorList writes errors by kind, most first: "503:12 net:3", or "-".
func errorList(errs map[string]int64) string {
	kinds := slices.Collect(maps.Keys(errs))
	slices.SortFunc(kinds, func(a, b string) int {
		if errs[a] != errs[b] {
			return int(errs[b] - errs[a])
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, k := range kinds {
		if errs[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s:%d", k, errs[k]))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

// searchTotal is the search shapes together, as one route.
func searchTotal(routes []*routeStats) *routeStats {
	t := newRouteStats("search (all shapes)", false, 0)
	for _, r := range routes {
		if !r.search {
			continue
		}
		t.rate += r.rate
		t.sent.Add(r.sent.Load())
		t.ok.Add(r.ok.Load())
		r.mu.Lock()
		for k, v := range r.errors {
			t.errors[k] += v
		}
		r.mu.Unlock()
		t.hist.merge(&r.hist)
	}
	return t
}

// write prints the report: the table of routes, the API's memory, the
// baseline and its ratios, and the targets.
func (r report) write(w io.Writer) {
	secs := r.duration.Seconds()
	fmt.Fprintf(w, "\nload over %d bundles: %s at fixed arrival rates (open loop: latency counts from each request's due time, queueing included)\n",
		r.n, r.duration)
	fmt.Fprintf(w, "%-22s %8s %8s %8s %9s %8s %8s %8s %8s  %s\n", "route", "rate/s", "sent", "ok", "ok/s", "p50 ms", "p99 ms", "p999 ms", "max ms", "errors")
	line := func(s *routeStats) {
		s.mu.Lock()
		errs := maps.Clone(s.errors)
		s.mu.Unlock()
		fmt.Fprintf(w, "%-22s %8.0f %8d %8d %9.1f %8s %8s %8s %8s  %s\n", s.name, s.rate, s.sent.Load(), s.ok.Load(),
			float64(s.ok.Load())/secs, ms(s.hist.Quantile(0.50)), ms(s.hist.Quantile(0.99)), ms(s.hist.Quantile(0.999)),
			ms(s.hist.Max()), errorList(errs))
	}
	total := searchTotal(r.routes)
	for _, s := range r.routes {
		line(s)
	}
	line(total)
	fmt.Fprintf(w, "API RSS: %s before the warm-up, peak %s (VmHWM; %s sampled), %s at the end\n",
		mb(r.idleRSS), mb(r.hwm), mb(r.sampledRSS), mb(r.endRSS))
	if r.cpu != "" {
		fmt.Fprintln(w, r.cpu)
	}
	if r.cache != "" {
		fmt.Fprintln(w, r.cache)
	}

	writeStatements(w, r.statements, 20)

	byName := map[string]*routeStats{}
	for _, s := range r.routes {
		byName[s.name] = s
	}
	if len(r.baseline) > 0 {
		fmt.Fprintf(w, "\nbaseline: each search shape closed loop, %d streams, up to %s a side: the API over HTTP (the mix's requests), then naive SQL\n", r.streams, r.baselineEach)
		fmt.Fprintln(w, "straight to Postgres (ts_rank over every match, ORDER BY rank, OFFSET pages)")
		fmt.Fprintf(w, "%-22s %9s %8s %8s %8s %9s %8s %8s %8s %7s %10s %10s\n", "shape", "API q/s", "p50 ms", "p99 ms", "PG ms/q",
			"naive q/s", "p50 ms", "p99 ms", "PG ms/q", "errors", "p50 ratio", "q/s ratio")
		for _, b := range r.baseline {
			p50, qps := "-", "-"
			if a := b.api.hist.Quantile(0.5); a > 0 && b.naive.queries > 0 {
				p50 = fmt.Sprintf("%.1fx", float64(b.naive.hist.Quantile(0.5))/float64(a))
			}
			if n := b.naive.rate(); n > 0 {
				qps = fmt.Sprintf("%.1fx", b.api.rate()/n)
			}
			fmt.Fprintf(w, "%-22s %9.1f %8s %8s %8s %9.1f %8s %8s %8s %7s %10s %10s\n", "search "+b.shape,
				b.api.rate(), ms(b.api.hist.Quantile(0.5)), ms(b.api.hist.Quantile(0.99)), b.api.pgPerQuery(),
				b.naive.rate(), ms(b.naive.hist.Quantile(0.5)), ms(b.naive.hist.Quantile(0.99)), b.naive.pgPerQuery(),
				fmt.Sprintf("%d/%d", b.api.errors, b.naive.errors), p50, qps)
		}
		fmt.Fprintln(w, "(PG ms/q: Postgres CPU time a query; p50 ratio: naive p50 over the API's; q/s ratio: the API's queries a second over naive's; errors: API/naive)")
	}

	scope := ""
	if r.n != targetN {
		scope = fmt.Sprintf(" (stated for %d bundles; this run has %d)", targetN, r.n)
	}
	fmt.Fprintf(w, "\ntargets%s:\n", scope)
	t := r.targets
	if t.search == 0 {
		t = hotTargets
	}
	fmt.Fprintln(w, "  "+rateVerdict("search", total, secs, t.search, t.p99, t.errorShare, worstShape(r.routes)))
	if card := byName["card"]; card != nil {
		fmt.Fprintln(w, "  "+rateVerdict("card", card, secs, t.card, t.cardP99, t.errorShare, card))
	}
	fmt.Fprintf(w, "  API RSS <= %s: peak %s: %s\n", mb(t.rss), mb(r.hwm), metOrMissed(r.hwm > 0 && r.hwm <= t.rss))
}

// worstShape is the search shape of the largest p99.
func worstShape(routes []*routeStats) *routeStats {
	var worst *routeStats
	for _, r := range routes {
		if r.search && (worst == nil || r.hist.Quantile(0.99) > worst.hist.Quantile(0.99)) {
			worst = r
		}
	}
	return worst
}

// rateVerdict says whether s served target requests a second with no
// errors (at most errorShare of those sent) and p99 within p99Target
// (judged on worst).
func rateVerdict(what string, s *routeStats, secs, target float64, p99Target time.Duration, errorShare float64, worst *routeStats) string {
	got := float64(s.ok.Load()) / secs
	p99 := time.Duration(0)
	name := ""
	if worst != nil {
		p99, name = worst.hist.Quantile(0.99), worst.name
	}
	v := fmt.Sprintf("%s >= %.0f/s with p99 <= %s ms: %.1f/s, %d errors, p99 %s ms", what, target, ms(p99Target), got, s.errorCount(), ms(p99))
	if name != "" && name != s.name {
		v += " (worst: " + name + ")"
	}
	switch {
	case s.rate < target:
		return v + ": not tested (offered rate below the target)"
	default:
		errorsOK := float64(s.errorCount()) <= errorShare*float64(s.sent.Load())
		return v + ": " + metOrMissed(got >= target*0.99 && errorsOK && p99 <= p99Target)
	}
}

func metOrMissed(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}
