package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/synthetic"
)

// The baseline: the search shapes of the mix as plain SQL straight to
// Postgres (store.NaiveSearch: ts_rank over every match, OFFSET pages), in
// the same run and on the same index, so that the report can say how much
// the service's bounded searches buy. Measured closed loop, and the API's
// searches again the same way beside it, so the ratio compares like with
// like: a naive search of a common word takes seconds at a million
// bundles, so at the mix's arrival rate its queue would grow without end
// and measure only the queue.

// naiveQuery is the k-th query of a search shape as the naive baseline
// asks it: the same words and page as the API request of the mix.
func naiveQuery(shape string, k int, names []string) store.NaiveQuery {
	switch shape {
	case "exact name":
		return store.NaiveQuery{Q: names[k%len(names)]}
	case "two words":
		return store.NaiveQuery{Q: pairWords(k)}
	case "common word":
		return store.NaiveQuery{Q: synthetic.WordCommon}
	case "next to 960":
		return store.NaiveQuery{Q: mediumWord(k), Offset: deepPage}
	case "offset 976":
		return store.NaiveQuery{Q: mediumWord(k), Offset: lastOffset}
	}
	return store.NaiveQuery{} // recent
}

// closedResult are the figures of one closed-loop measure.
type closedResult struct {
	queries int64
	errors  int64 // failed, or stopped by the read timeout (5 s)
	elapsed time.Duration
	hist    *histogram // each query from its start: no queue
	pgTicks int64      // CPU time of Postgres over the measure, clock ticks; 0 when unknown
}

// pgPerQuery is Postgres's CPU time per query, in ms; "-" when unknown.
func (c closedResult) pgPerQuery() string {
	if c.pgTicks <= 0 || c.queries == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(c.pgTicks)*1000/userHZ/float64(c.queries))
}

func (c closedResult) rate() float64 {
	if c.elapsed <= 0 {
		return 0
	}
	return float64(c.queries) / c.elapsed.Seconds()
}

// baselineResult is one shape measured both ways, the same way.
type baselineResult struct {
	shape      string
	api, naive closedResult
}

// maxBaselineQueries bounds the queries of one shape and side.
const maxBaselineQueries = 5000

// runBaseline measures each search shape of routes closed loop, streams
// at a time for each (or maxBaselineQueries): first through the API over
// HTTP, with the mix's own requests, then as the naive SQL.
//
// pgPid is the postmaster's pid (0: unknown): the CPU time Postgres spends
// on each side is counted, per query.
func runBaseline(ctx context.Context, st *store.Store, routes []*route, naive func(shape string, k int) store.NaiveQuery, each time.Duration, streams, pgPid int) []baselineResult {
	var out []baselineResult
	for _, rt := range routes {
		if !rt.stats.search {
			continue
		}
		shape := strings.TrimPrefix(rt.stats.name, "search ")
		r := baselineResult{shape: shape}
		r.api = closedLoop(ctx, each, streams, pgPid, func(k int) error {
			client, req := rt.request(k)
			resp, err := client.Do(req.WithContext(ctx))
			if err != nil {
				return err
			}
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err == nil && resp.StatusCode != rt.want {
				err = fmt.Errorf("status %d", resp.StatusCode)
			}
			return err
		})
		r.naive = closedLoop(ctx, each, streams, pgPid, func(k int) error {
			_, err := st.NaiveSearch(ctx, naive(shape, k))
			return err
		})
		out = append(out, r)
	}
	return out
}

// closedLoop runs query(k) for k = 0, 1, ... from streams goroutines, each
// starting its next query when its last one ends, for d or
// maxBaselineQueries queries.
func closedLoop(ctx context.Context, d time.Duration, streams, pgPid int, query func(k int) error) closedResult {
	r := closedResult{hist: &histogram{}}
	var pg0 int64
	if pgPid > 0 {
		pg0 = treeTicks(pgPid)
	}
	var next, failed atomic.Int64
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil && time.Now().Before(deadline) {
				k := next.Add(1) - 1
				if k >= maxBaselineQueries {
					return
				}
				t0 := time.Now()
				err := query(int(k))
				r.hist.Record(time.Since(t0))
				if err != nil && ctx.Err() == nil {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	if pgPid > 0 {
		r.pgTicks = treeTicks(pgPid) - pg0
	}
	r.queries = int64(r.hist.Count())
	r.errors = failed.Load()
	return r
}
