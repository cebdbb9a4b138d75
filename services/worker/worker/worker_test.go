package worker_test

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/services/worker/worker"
)

func TestMain(m *testing.M) { storetest.Main(m) }

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

	client, err := worker.NewClient(worker.Options{Store: st, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		t.Fatal(err)
	}
	done, unsubscribe := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
	defer unsubscribe()
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := client.Stop(context.Background()); err != nil {
			t.Errorf("stop: %v", err)
		}
	}()

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
