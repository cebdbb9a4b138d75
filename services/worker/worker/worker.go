// Package worker builds the River client of the worker service: which job
// kinds it runs, on which queues, and which periodic jobs it schedules. The
// work of each job lives in a file named by the job; storage goes through
// pkg/store.
//
//	recount.go     recount_stats
//	verify.go      verify_ping
//	discover.go    sweep_discover
//	sweeprepos.go  sweep_repos
//	enrich.go      enrich_repos
//	sendcontact.go send_contact
//	publishvitrine.go publish_vitrine (full variant: the collector)
//	compactchanges.go compact_changes
//
// sweep.go holds the sweep's configuration, metrics.go the job metrics.
package worker

import (
	"cmp"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/safefetch"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/vitrine"
	"github.com/okfindex/okf-index/pkg/x402"
)

// Options configure the worker's River client.
type Options struct {
	Store      *store.Store
	Logger     *slog.Logger
	MaxWorkers int // per process on the default queue; 0 means 10

	// GitHub, when set, turns the sweep on: its workers run on the sweep
	// queue and its periodic jobs are scheduled. Nil (no GITHUB_TOKEN)
	// leaves the sweep off.
	GitHub *github.Client
	Sweep  SweepConfig
	// Now is the clock of the sweep (tests); time.Now when nil.
	Now func() time.Time
	// Fetch configures the guarded HTTP client of the IndexNow verification
	// (verify_ping, always on). The zero value is the production setting;
	// AllowLoopback and RootCAs are for tests only.
	Fetch safefetch.Options
	// RescueStuckJobsAfter is how long a job may stay running before River
	// gives it to another worker (its process died); DefaultRescueAfter
	// when 0. Every job timeout is capped at it (see capTimeout).
	RescueStuckJobsAfter time.Duration
	// Mail is where send_contact sends the contact messages (full
	// variant); unset, those jobs fail and are retried until it is set.
	Mail config.Contact
	// MailHost names this service in Message-IDs (PUBLIC_BASE_URL's host).
	MailHost string
	// Facilitator settles the payments settle_payment finishes (full
	// variant, X402_FACILITATOR_URL); a dev payment never reaches it.
	Facilitator *x402.Facilitator
	// Vitrine, when set, is the collector of the full variant: its
	// publish_vitrine job runs a few minutes past every hour and on start.
	// Nil (base variant, or VITRINE_COLLECTOR=off) leaves it off.
	Vitrine *vitrine.Publisher
	// Metrics, when set, receives okf_river_jobs_total and
	// okf_river_job_duration_seconds (metrics.go).
	Metrics prometheus.Registerer
}

// DefaultRescueAfter is the default of Options.RescueStuckJobsAfter, and
// of OKF_WORKER_RESCUE_AFTER (pkg/config): the longest job timeout.
const DefaultRescueAfter = config.DefaultRescueAfter

// Job timeouts. recount_stats keeps River's default (a minute). River
// rescues a job of a dead process once it has run for both the rescue time
// and its own timeout; every timeout is capped at the rescue time (so a
// short OKF_WORKER_RESCUE_AFTER shortens the jobs too), and a stuck job is
// therefore retried within the rescue time plus the rescuer's 30-second
// interval. The long sweep jobs work in slices: they stop starting new work
// at two thirds of their timeout and snooze to continue from the progress
// kept in Postgres (sliceDeadline).
const (
	// VerifyPingTimeout bounds one attempt of verify_ping: the key file and
	// the roots, rootFetchers at a time. An attempt cut short keeps what it
	// decided, and the retry goes on with the URLs still pending.
	VerifyPingTimeout = 3 * time.Minute
	// SweepReposTimeout bounds one batch of sweep_repos (25 repositories,
	// a handful of GraphQL calls; rate-limit waits over a minute snooze).
	// A batch cut short redoes only the repositories it had not marked
	// swept.
	SweepReposTimeout = 3 * time.Minute
	// SweepSliceTimeout bounds one slice of sweep_discover or enrich_repos.
	SweepSliceTimeout = 3 * time.Minute
)

// capTimeout is a job kind's timeout under the rescue time.
func capTimeout(timeout, rescue time.Duration) time.Duration { return min(timeout, rescue) }

// NewClient returns a River client that runs every job kind of the worker
// service. Start it with Start(ctx); stop it with Stop or StopAndCancel.
func NewClient(opts Options) (*river.Client[pgx.Tx], error) {
	if opts.MaxWorkers == 0 {
		opts.MaxWorkers = 10
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &RecountStatsWorker{Store: opts.Store})
	river.AddWorker(workers, &CompactChangesWorker{Store: opts.Store, Now: opts.Now, Logger: opts.Logger})
	queues := map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: opts.MaxWorkers}}
	rescue := cmp.Or(opts.RescueStuckJobsAfter, DefaultRescueAfter)
	rootFetch := opts.Fetch
	rootFetch.MaxBytes = okf.MaxRootBytes
	river.AddWorker(workers, &VerifyPingWorker{Store: opts.Store, Fetch: safefetch.New(opts.Fetch),
		RootFetch: safefetch.New(rootFetch), Logger: opts.Logger, JobTimeout: capTimeout(VerifyPingTimeout, rescue)})
	river.AddWorker(workers, &SendContactWorker{Store: opts.Store, Mail: opts.Mail, Host: cmp.Or(opts.MailHost, "localhost"),
		Logger: opts.Logger})
	river.AddWorker(workers, &SettlePaymentWorker{Store: opts.Store, Facilitator: opts.Facilitator, Logger: opts.Logger})
	periodic := []*river.PeriodicJob{
		river.NewPeriodicJob(
			river.PeriodicInterval(jobs.RecountStatsEvery),
			func() (river.JobArgs, *river.InsertOpts) { return jobs.RecountStatsArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true},
		),
		river.NewPeriodicJob(
			river.PeriodicInterval(jobs.CompactChangesEvery),
			func() (river.JobArgs, *river.InsertOpts) { return jobs.CompactChangesArgs{}, nil },
			nil,
		),
	}
	if opts.GitHub != nil {
		periodic = append(periodic, addSweep(workers, queues, opts, rescue)...)
	}
	if opts.Vitrine != nil {
		river.AddWorker(workers, &PublishVitrineWorker{Publisher: opts.Vitrine, Logger: opts.Logger})
		periodic = append(periodic, vitrinePeriodic(opts.Now))
	}

	client, err := river.NewClient(riverpgxv5.New(opts.Store.Pool()), &river.Config{
		Logger:               opts.Logger,
		Queues:               queues,
		Workers:              workers,
		PeriodicJobs:         periodic,
		RescueStuckJobsAfter: rescue,
		// River wants the default job timeout under the rescue time.
		JobTimeout: capTimeout(river.JobTimeoutDefault, rescue),
	})
	if err != nil {
		return nil, fmt.Errorf("worker: river client: %w", err)
	}
	if opts.Metrics != nil {
		if err := recordJobs(client, opts.Metrics); err != nil {
			return nil, err
		}
	}
	return client, nil
}

// addSweep registers the sweep's workers and queue, and returns its
// periodic jobs: discovery every Sweep.DiscoverEvery and enrichment every
// Sweep.EnrichEvery, both also on start.
func addSweep(workers *river.Workers, queues map[string]river.QueueConfig, opts Options, rescue time.Duration) []*river.PeriodicJob {
	cfg := opts.Sweep
	cfg.fill()
	slice := capTimeout(SweepSliceTimeout, rescue)
	queues[jobs.QueueSweep] = river.QueueConfig{MaxWorkers: cfg.Workers}
	river.AddWorker(workers, &SweepDiscoverWorker{Store: opts.Store, GitHub: opts.GitHub, Config: cfg, Logger: opts.Logger, Now: opts.Now, JobTimeout: slice})
	river.AddWorker(workers, &SweepReposWorker{Store: opts.Store, GitHub: opts.GitHub, Logger: opts.Logger, Now: opts.Now, JobTimeout: capTimeout(SweepReposTimeout, rescue)})
	river.AddWorker(workers, &EnrichReposWorker{Store: opts.Store, GitHub: opts.GitHub, Logger: opts.Logger, Now: opts.Now, Every: cfg.EnrichEvery, Slice: cfg.Slice, JobTimeout: slice})
	return []*river.PeriodicJob{
		river.NewPeriodicJob(
			river.PeriodicInterval(cfg.DiscoverEvery),
			func() (river.JobArgs, *river.InsertOpts) {
				round := opts.Now().UTC().Truncate(cfg.DiscoverEvery).Format(time.RFC3339)
				return jobs.SweepDiscoverArgs{Round: round}, nil
			},
			&river.PeriodicJobOpts{RunOnStart: true},
		),
		river.NewPeriodicJob(
			river.PeriodicInterval(cfg.EnrichEvery),
			func() (river.JobArgs, *river.InsertOpts) { return jobs.EnrichReposArgs{}, nil },
			&river.PeriodicJobOpts{RunOnStart: true},
		),
	}
}
