package worker_test

import (
	"context"
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
	_, done := startClient(t, ctx, worker.Options{Store: st,
		Vitrine: &vitrine.Publisher{Store: st, Product: "okf", Name: "OKF Index", BaseURL: "https://okf.example", Build: "b"}})
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
