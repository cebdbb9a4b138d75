// Command okf-worker runs the River job workers of OKF Index against the
// configured database. Any number of worker processes may run at once; River
// distributes the jobs. Beside them it serves the operator listener
// (pkg/ops: probes and metrics) on OPS_ADDR. When OPS_ADDR is unset it
// binds a free loopback port (config.DefaultWorkerOpsAddr) and logs it,
// rather than the API's default port: make run's API and worker, and the
// tests' several workers, share one host. Deployments set OPS_ADDR. On
// SIGINT or SIGTERM it lets running jobs finish (River's soft stop), then
// stops the operator listener. Its configuration comes from pkg/config
// (Load and LoadWorker).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/logging"
	"github.com/okfindex/okf-index/pkg/ops"
	"github.com/okfindex/okf-index/pkg/safefetch"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/vitrine"
	"github.com/okfindex/okf-index/pkg/x402"
	"github.com/okfindex/okf-index/services/worker/worker"
)

var build = "dev"

// The product the collector publishes: the API's product id and display
// name (services/api/server productID and AppName).
const (
	vitrineProduct = "okf"
	vitrineName    = "OKF Index"
)

func main() {
	log := logging.New(os.Stderr, nil).With("app", "okf-worker", "build", build)
	if err := run(log); err != nil {
		log.Error("worker stopped", "err", err)
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	if cfg.DatabaseURL == "" {
		return errors.New("DATABASE_URL is not set (make run sets it for the embedded cluster)")
	}
	wcfg, err := config.WorkerFromEnv()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	st, err := store.Open(ctx, store.Config{URL: cfg.DatabaseURL})
	if err != nil {
		return err
	}
	defer st.Close()
	reg := ops.NewRegistry(st, log)
	opts := worker.Options{Store: st, Logger: log, Metrics: reg,
		RescueStuckJobsAfter: wcfg.RescueAfter, Fetch: fetchOptions(wcfg.Fetch), Mail: cfg.Contact,
		Facilitator: &x402.Facilitator{URL: cfg.X402Facilitator}}
	if u, err := url.Parse(cfg.PublicBaseURL); err == nil {
		opts.MailHost = u.Hostname()
	}
	if wcfg.Fetch.On() {
		log.Warn("IndexNow fetch test settings are on: never in production",
			"allow_loopback", wcfg.Fetch.AllowLoopback, "ca_file", wcfg.Fetch.CAFile)
	}
	if wcfg.Sweep == nil {
		log.Info("GITHUB_TOKEN is not set: the GitHub sweep is off")
	} else {
		opts.Sweep = sweepConfig(*wcfg.Sweep)
		opts.GitHub = github.New(github.Config{GraphQLURL: cfg.GitHubGraphQL, Token: cfg.GitHubToken, Logger: log})
		log.Info("GitHub sweep on", "graphql", cfg.GitHubGraphQL, "rest", github.RESTBase(cfg.GitHubGraphQL),
			"seeds", len(opts.Sweep.Seeds), "queries", len(opts.Sweep.Queries), "code_queries", len(opts.Sweep.CodeQueries))
	}
	if cfg.Full() && cfg.VitrineCollector {
		opts.Vitrine = &vitrine.Publisher{Store: st, Product: vitrineProduct, Name: vitrineName,
			BaseURL: cfg.PublicBaseURL, Build: build, Full: true}
		log.Info("collector on: the usage projection is published hourly")
	}
	client, err := worker.NewClient(opts)
	if err != nil {
		return err
	}
	opsLn, err := ops.Listen(wcfg.OpsAddr, ops.NewHandler(ops.Options{Ready: st.Ping, Gatherer: reg, Logger: log}), log)
	if err != nil {
		return fmt.Errorf("operator listener: %w", err)
	}
	// Probes and scrapes answer until River has stopped.
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = opsLn.Shutdown(sctx)
	}()
	// River stops abruptly when Start's context ends (running jobs
	// cancelled, its listener closed under it): the signal is only the cue
	// for the soft stop below, so Start gets a context the signal does not
	// end.
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	log.Info("worker started", "ops_addr", opsLn.Addr().String())
	<-ctx.Done()
	stop() // a second signal kills the process at once

	// Let running jobs finish; past the grace period cancel them, and River
	// releases them for another worker to retry.
	shutdown, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := client.Stop(shutdown); err != nil {
		log.Warn("soft stop timed out; cancelling running jobs", "err", err)
		hard, cancelHard := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancelHard()
		return client.StopAndCancel(hard)
	}
	log.Info("worker stopped cleanly")
	return nil
}

// fetchOptions are the options of the guarded fetch client: the production
// defaults, and the test settings of f.
func fetchOptions(f config.Fetch) safefetch.Options {
	return safefetch.Options{AllowLoopback: f.AllowLoopback, RootCAs: f.RootCAs, DialOverride: f.DialOverride}
}

// sweepConfig is the sweep configuration s gives; the rest keeps the
// worker's defaults.
func sweepConfig(s config.Sweep) worker.SweepConfig {
	seeds := make([]github.RepoRef, len(s.Seeds))
	for i, r := range s.Seeds {
		seeds[i] = github.RepoRef{Owner: r.Owner, Name: r.Name}
	}
	return worker.SweepConfig{Seeds: seeds, Queries: s.Queries, CodeQueries: s.CodeQueries, Workers: s.Workers}
}
