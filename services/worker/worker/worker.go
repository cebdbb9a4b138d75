// Package worker builds the River client of the worker service: which job
// kinds it runs, on which queues, and which periodic jobs it schedules. The
// work of each job lives in a file named by the job; storage goes through
// pkg/store.
package worker

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/store"
)

// Options configure the worker's River client.
type Options struct {
	Store      *store.Store
	Logger     *slog.Logger
	MaxWorkers int // per process on the default queue; 0 means 10
}

// NewClient returns a River client that runs every job kind of the worker
// service. Start it with Start(ctx); stop it with Stop or StopAndCancel.
func NewClient(opts Options) (*river.Client[pgx.Tx], error) {
	if opts.MaxWorkers == 0 {
		opts.MaxWorkers = 10
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &RecountStatsWorker{Store: opts.Store})

	client, err := river.NewClient(riverpgxv5.New(opts.Store.Pool()), &river.Config{
		Logger:  opts.Logger,
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: opts.MaxWorkers}},
		Workers: workers,
		PeriodicJobs: []*river.PeriodicJob{
			river.NewPeriodicJob(
				river.PeriodicInterval(jobs.RecountStatsEvery),
				func() (river.JobArgs, *river.InsertOpts) { return jobs.RecountStatsArgs{}, nil },
				&river.PeriodicJobOpts{RunOnStart: true},
			),
		},
	})
	if err != nil {
		return nil, fmt.Errorf("worker: river client: %w", err)
	}
	return client, nil
}

// RecountStatsWorker rebuilds the statistics summary.
type RecountStatsWorker struct {
	river.WorkerDefaults[jobs.RecountStatsArgs]
	Store *store.Store
}

// Work runs one recount.
func (w *RecountStatsWorker) Work(ctx context.Context, job *river.Job[jobs.RecountStatsArgs]) error {
	if err := w.Store.RecountStats(ctx); err != nil {
		return fmt.Errorf("worker: recount stats: %w", err)
	}
	return nil
}
