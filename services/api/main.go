// Command okf-api serves the public HTTP API of OKF Index: it reads the
// configuration from the environment (pkg/config), opens the store, and
// serves the routes of package server on API_ADDR and the operator listener
// (pkg/ops: probes, metrics, River UI) on OPS_ADDR, until SIGINT or SIGTERM.
// Then it stops accepting connections, drains the requests in flight, and
// stops the operator listener last, so probes and scrapes answer during the
// drain.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"riverqueue.com/riverui"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/logging"
	"github.com/okfindex/okf-index/pkg/ops"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server"
	"github.com/okfindex/okf-index/services/api/server/protoerr"
)

// build is the published commit, set with -ldflags "-X main.build=<commit>".
var build = "dev"

// shutdownGrace is how long in-flight requests may take to finish on stop.
const shutdownGrace = 20 * time.Second

func main() {
	log := logging.New(os.Stdout, nil)
	slog.SetDefault(log)
	if err := run(log); err != nil {
		fmt.Fprintln(os.Stderr, "okf-api:", err)
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	if cfg.DatabaseURL == "" {
		return errors.New("DATABASE_URL is not set (make run sets it to the local cluster)")
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	st, err := store.Open(ctx, store.Config{URL: cfg.DatabaseURL, ReadURL: cfg.DatabaseReadURL})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer st.Close()

	reg := ops.NewRegistry(st, log)
	srv, err := server.New(st, server.Options{Config: cfg, Build: build, Logger: log, Metrics: reg})
	if err != nil {
		return err
	}
	defer srv.Close()

	// River UI refreshes queue counts in the background (until stopUI), so
	// it is built only when an operator can open it; without METRICS_TOKEN
	// its path answers 503 before reaching the placeholder.
	uiCtx, stopUI := context.WithCancel(context.Background())
	defer stopUI()
	ui := http.NotFoundHandler()
	if cfg.MetricsToken != "" {
		if ui, err = riverUI(uiCtx, st, log); err != nil {
			return err
		}
	}
	// Once SIGTERM arrives, readiness fails at once, so the load balancer
	// stops sending traffic during the shutdown delay, before the listener
	// closes.
	var draining atomic.Bool
	ready := func(ctx context.Context) error {
		if draining.Load() {
			return errors.New("shutting down")
		}
		return st.Ping(ctx)
	}
	opsLn, err := ops.Listen(cfg.OpsAddr, ops.NewHandler(ops.Options{
		Ready: ready, Gatherer: reg, RiverUI: ui, Token: cfg.MetricsToken, Logger: log,
	}), log)
	if err != nil {
		return fmt.Errorf("operator listener: %w", err)
	}

	hs := newHTTPServer(srv, log)
	ln, err := net.Listen("tcp", cfg.APIAddr)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(protoerr.Listener{Listener: ln}) }()
	log.Info("listening", "addr", ln.Addr().String(), "ops_addr", opsLn.Addr().String(),
		"public_base_url", cfg.PublicBaseURL, "variant", cfg.Variant, "build", build,
		"river_ui", cfg.MetricsToken != "")

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stop() // a second signal kills the process at once
	if err := drain(log, cfg.ShutdownDelay, &draining, hs, srv, opsLn); err != nil {
		return err
	}
	log.Info("stopped")
	return nil
}

// riverUI returns River UI for the API's database, served under
// ops.RiverUIPath. It has a River client of its own that works no jobs
// (the server's is private to its handlers); River UI reads and acts on the
// queue through it.
func riverUI(ctx context.Context, st *store.Store, log *slog.Logger) (http.Handler, error) {
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("river ui client: %w", err)
	}
	h, err := riverui.NewHandler(&riverui.HandlerOpts{
		Endpoints: riverui.NewEndpoints(client, nil),
		Logger:    log,
		Prefix:    ops.RiverUIPath,
	})
	if err != nil {
		return nil, fmt.Errorf("river ui: %w", err)
	}
	if err := h.Start(ctx); err != nil {
		return nil, fmt.Errorf("river ui: %w", err)
	}
	return h, nil
}

// newHTTPServer is the API's HTTP server, every phase of a request bounded.
func newHTTPServer(srv *server.Server, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    server.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// drain shuts the service down after the first signal: readiness fails at
// once, requests are still served for delay (while the load balancer
// stops sending them), then the requests in flight drain, the server's
// loops stop, and the operator listener closes.
func drain(log *slog.Logger, delay time.Duration, draining *atomic.Bool, hs *http.Server, srv *server.Server, opsLn *ops.Listener) error {
	draining.Store(true)
	if delay > 0 {
		log.Info("shutting down: not ready; still serving for the shutdown delay", "delay", delay.String())
		time.Sleep(delay)
	}
	log.Info("shutting down: draining requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	srv.Close()
	if err := opsLn.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown operator listener: %w", err)
	}
	return nil
}
