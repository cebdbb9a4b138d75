package worker

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/vitrine"
)

// PublishVitrineWorker is the collector of the full variant: it publishes
// the public usage projection and the operator documents every hour.
type PublishVitrineWorker struct {
	river.WorkerDefaults[jobs.PublishVitrineArgs]
	Publisher *vitrine.Publisher
	Logger    *slog.Logger
}

// Work runs one publication; within an hour already published it writes
// nothing.
func (w *PublishVitrineWorker) Work(ctx context.Context, job *river.Job[jobs.PublishVitrineArgs]) error {
	published, err := w.Publisher.Publish(ctx)
	if err != nil {
		return fmt.Errorf("worker: publish vitrine: %w", err)
	}
	w.Logger.InfoContext(ctx, "vitrine publication", "hour", job.Args.Hour, "published", published)
	return nil
}

// hourlySchedule runs a periodic job after minutes past every full hour.
type hourlySchedule struct{ after time.Duration }

// Next is the first time after t that is after past a full hour.
func (s hourlySchedule) Next(t time.Time) time.Time {
	next := t.Truncate(time.Hour).Add(s.after)
	if !next.After(t) {
		next = next.Add(time.Hour)
	}
	return next
}

// vitrinePeriodic is the collector's periodic job, also run on start.
func vitrinePeriodic(now func() time.Time) *river.PeriodicJob {
	return river.NewPeriodicJob(
		hourlySchedule{after: jobs.PublishVitrineAfter},
		func() (river.JobArgs, *river.InsertOpts) {
			return jobs.PublishVitrineArgs{Hour: now().UTC().Truncate(time.Hour).Format(time.RFC3339)}, nil
		},
		&river.PeriodicJobOpts{RunOnStart: true},
	)
}
