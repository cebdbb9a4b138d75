package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/services/worker/worker"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// startClient starts a worker client with opts (a quiet logger unless
// opts has one) and returns the events of its jobs' completions and
// failures; the client stops when the test ends.
func startClient(t *testing.T, ctx context.Context, opts worker.Options) (*river.Client[pgx.Tx], <-chan *river.Event) {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quietLog()
	}
	client, err := worker.NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	events, unsubscribe := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
	t.Cleanup(unsubscribe)
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := client.Stop(context.Background()); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return client, events
}

// The worker's River client starts on a migrated database, runs the
// periodic statistics recount on start and on demand, and stops cleanly.
func TestRecountStatsJobRuns(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st := storetest.NewStore(t)
	in, err := indexer.FromRepo([]byte("---\nokf_version: \"0.2\"\ntitle: T\n---\n- [a](a.md)\n"),
		source.Repo{Owner: "o", Name: "r", Path: "index.md"}, indexer.RepoInfo{Language: "Go"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpsertBundle(ctx, in); err != nil {
		t.Fatal(err)
	}

	_, done := startClient(t, ctx, worker.Options{Store: st})

	// RunOnStart queues one recount; wait for it to complete.
	select {
	case ev := <-done:
		if ev.Kind != river.EventKindJobCompleted || ev.Job.Kind != (jobs.RecountStatsArgs{}).Kind() {
			t.Fatalf("first job event: %s %s %v", ev.Kind, ev.Job.Kind, ev.Job.Errors)
		}
	case <-ctx.Done():
		t.Fatal("the periodic recount never completed")
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Total != 1 || len(stats.ByLanguage) != 1 || stats.ByLanguage[0].V != "Go" {
		t.Fatalf("stats after recount: %+v", stats)
	}
}
