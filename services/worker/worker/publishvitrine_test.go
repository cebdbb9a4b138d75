package worker_test

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/vitrine"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// The collector: with Options.Vitrine the worker runs publish_vitrine on
// start and the projection is published; without it no such job runs.
func TestPublishVitrineJobRuns(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st := storetest.NewStore(t)
	client, err := worker.NewClient(worker.Options{Store: st,
		Logger:  slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Vitrine: &vitrine.Publisher{Store: st, Produto: "okf", Nome: "OKF Index", BaseURL: "https://okf.example", Build: "b"}})
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
	for {
		select {
		case ev := <-done:
			if ev.Job.Kind != (jobs.PublishVitrineArgs{}).Kind() {
				continue
			}
			if ev.Kind != river.EventKindJobCompleted {
				t.Fatalf("publish_vitrine: %s %v", ev.Kind, ev.Job.Errors)
			}
			d, ok, err := st.PublicProjection(ctx, "okf")
			if err != nil || !ok {
				t.Fatalf("after the job: %v %v", ok, err)
			}
			t.Logf("published %d bytes", len(d.Doc))
			return
		case <-ctx.Done():
			t.Fatal("publish_vitrine never completed")
		}
	}
}
