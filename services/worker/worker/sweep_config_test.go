package worker_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// Without a GitHub client (no GITHUB_TOKEN) the worker schedules no sweep
// job: the on-start jobs are the statistics recount alone.
func TestSweepOffWithoutToken(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st := storetest.NewStore(t)
	client, err := worker.NewClient(worker.Options{Store: st, Logger: quietLog()})
	if err != nil {
		t.Fatal(err)
	}
	done, unsubscribe := client.Subscribe(river.EventKindJobCompleted)
	defer unsubscribe()
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer client.Stop(context.Background())
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("no job completed")
	}
	time.Sleep(200 * time.Millisecond) // give other periodic inserts a chance
	var kinds []string
	rows, err := st.Pool().Query(ctx, `SELECT DISTINCT kind FROM river_job ORDER BY kind`)
	if err != nil {
		t.Fatal(err)
	}
	if kinds, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(kinds, []string{"recount_stats"}) {
		t.Fatalf("jobs without a token: %v", kinds)
	}
}
