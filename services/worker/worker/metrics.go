package worker

import (
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
)

// jobEvents are the River events the job metrics count: every way a worked
// job ends an attempt.
var jobEvents = []river.EventKind{
	river.EventKindJobCompleted,
	river.EventKindJobFailed,
	river.EventKindJobCancelled,
	river.EventKindJobSnoozed,
	river.EventKindJobInterrupted,
}

// jobMetrics count the jobs this process worked and how long each attempt
// ran, by job kind and outcome (the event without its "job_" prefix:
// completed, failed, cancelled, snoozed, interrupted). The counts of jobs
// waiting in the database are the operator listener's okf_river_jobs.
type jobMetrics struct {
	total    *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// recordJobs registers the job metrics on reg and feeds them from client's
// events until the client stops, which closes the subscription. River drops
// events a slow subscriber leaves in a full buffer, so the loop only
// increments counters.
func recordJobs(client *river.Client[pgx.Tx], reg prometheus.Registerer) error {
	m := jobMetrics{
		total: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "okf_river_jobs_total",
			Help: "River job attempts this process finished, by kind and outcome.",
		}, []string{"kind", "state"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "okf_river_job_duration_seconds",
			Help: "Run time of River job attempts, by kind and outcome.",
			// From a key-file check (well under a second) to a sweep
			// discovery round (hours).
			Buckets: []float64{.01, .05, .1, .5, 1, 5, 15, 60, 300, 900, 1800, 3600, 7200},
		}, []string{"kind", "state"}),
	}
	for _, c := range []prometheus.Collector{m.total, m.duration} {
		if err := reg.Register(c); err != nil {
			return fmt.Errorf("worker: job metrics: %w", err)
		}
	}
	events, _ := client.Subscribe(jobEvents...)
	go m.record(events)
	return nil
}

func (m jobMetrics) record(events <-chan *river.Event) {
	for ev := range events {
		if ev.Job == nil {
			continue
		}
		state := strings.TrimPrefix(string(ev.Kind), "job_")
		m.total.WithLabelValues(ev.Job.Kind, state).Inc()
		if ev.JobStats != nil {
			m.duration.WithLabelValues(ev.Job.Kind, state).Observe(ev.JobStats.RunDuration.Seconds())
		}
	}
}
