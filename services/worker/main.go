// Command okf-worker runs the River job workers of OKF Index against the
// configured database. Any number of worker processes may run at once; River
// distributes the jobs.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/worker/worker"
)

var build = "dev"

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil)).With("app", "okf-worker", "build", build)
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	st, err := store.Open(ctx, store.Config{URL: cfg.DatabaseURL})
	if err != nil {
		return err
	}
	defer st.Close()
	opts := worker.Options{Store: st, Logger: log}
	if v := os.Getenv("OKF_WORKER_RESCUE_AFTER"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("OKF_WORKER_RESCUE_AFTER %q must be a positive duration such as 3h", v)
		}
		opts.RescueStuckJobsAfter = d
	}
	if opts.Fetch, err = fetchOptionsFromEnv(os.Getenv); err != nil {
		return err
	}
	if opts.Fetch.AllowLoopback || opts.Fetch.RootCAs != nil {
		log.Warn("IndexNow fetch test settings are on: never in production",
			"allow_loopback", opts.Fetch.AllowLoopback, "ca_file", os.Getenv("OKF_FETCH_CA_FILE"))
	}
	if cfg.GitHubToken == "" {
		log.Info("GITHUB_TOKEN is not set: the GitHub sweep is off")
	} else {
		sweep, err := worker.SweepConfigFromEnv(os.Getenv)
		if err != nil {
			return err
		}
		opts.Sweep = sweep
		opts.GitHub = github.New(github.Config{GraphQLURL: cfg.GitHubGraphQL, Token: cfg.GitHubToken, Logger: log})
		log.Info("GitHub sweep on", "graphql", cfg.GitHubGraphQL, "rest", github.RESTBase(cfg.GitHubGraphQL),
			"seeds", len(sweep.Seeds), "queries", len(sweep.Queries), "code_queries", len(sweep.CodeQueries))
	}
	client, err := worker.NewClient(opts)
	if err != nil {
		return err
	}
	if err := client.Start(ctx); err != nil {
		return err
	}
	log.Info("worker started")
	<-ctx.Done()

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
