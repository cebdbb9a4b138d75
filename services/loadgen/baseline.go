package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/synthetic"
)

// The baseline: the search shapes of the mix as plain SQL straight to
// Postgres (store.NaiveSearch: ts_rank over every match, OFFSET pages), in
// the same run and on the same index, so that the report can say how much
// the service's bounded searches buy. Measured closed loop: a naive search
// of a common word takes seconds at a million bundles, so at the mix's
// arrival rate its queue would grow without end and measure only the
// queue.

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
		return store.NaiveQuery{Q: mediumWord(k), Offset: 960}
	case "offset 1000":
		return store.NaiveQuery{Q: mediumWord(k), Offset: 1000}
	}
	return store.NaiveQuery{} // recent
}

// baselineResult is one shape's naive figures.
type baselineResult struct {
	shape   string
	queries int64
	errors  int64 // statements stopped by the read timeout (5 s) or failed
	elapsed time.Duration
	hist    *histogram // each query from its start: no queue
}

// maxBaselineQueries bounds the queries of one shape.
const maxBaselineQueries = 5000

// runBaseline runs each search shape naively for each (or maxBaselineQueries),
// streams queries at a time.
func runBaseline(ctx context.Context, st *store.Store, names []string, each time.Duration, streams int) []baselineResult {
	var out []baselineResult
	for _, shape := range searchShapes {
		r := baselineResult{shape: shape, hist: &histogram{}}
		var next, failed atomic.Int64
		start := time.Now()
		deadline := start.Add(each)
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
					_, err := st.NaiveSearch(ctx, naiveQuery(shape, int(k), names))
					r.hist.Record(time.Since(t0))
					if err != nil && !errors.Is(err, context.Canceled) {
						failed.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		r.elapsed = time.Since(start)
		r.queries = int64(r.hist.Count())
		r.errors = failed.Load()
		out = append(out, r)
	}
	return out
}
