package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/githubtest"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// BenchmarkSweep10k sweeps 10,000 synthetic repositories, given as seeds,
// against the local GitHub and reports repositories/s, bundles/s and the
// GraphQL points spent per repository (go test -run - -bench Sweep10k
// -benchtime 1x).
func BenchmarkSweep10k(b *testing.B) {
	const n = 10000
	for range b.N {
		b.StopTimer()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		h := newHarnessWith(b, githubtest.Options{Budget: 1 << 30}, false)
		h.gh.AddSyntheticRepos(n, 1)
		b.StartTimer()
		start := time.Now()
		h.startWorker(ctx, worker.SweepConfig{Seeds: h.seeds(), Workers: 4})
		h.firstRound(ctx)
		elapsed := time.Since(start)
		b.StopTimer()
		got := h.bundles(ctx)
		st := h.gh.Stats()
		b.ReportMetric(float64(n)/elapsed.Seconds(), "repos/s")
		b.ReportMetric(float64(len(got))/elapsed.Seconds(), "bundles/s")
		b.ReportMetric(float64(st.Points)/n, "points/repo")
		b.ReportMetric(float64(st.GraphQLCalls)/n, "calls/repo")
		b.Logf("%d repositories, %d bundles in %s; GitHub %+v", n, len(got), elapsed, st)
		cancel()
	}
}
