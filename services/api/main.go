// Command okf-api serves the public HTTP API of OKF Index: it reads the
// configuration from the environment (pkg/config), opens the store, and
// serves the routes of package server until SIGINT or SIGTERM, then drains
// the requests in flight.
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
	"syscall"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server"
)

// build is the published commit, set with -ldflags "-X main.build=<commit>".
var build = "dev"

// shutdownGrace is how long in-flight requests may take to finish on stop.
const shutdownGrace = 20 * time.Second

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stdout, nil))
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

	srv, err := server.New(st, server.Options{Config: cfg, Build: build, Logger: log})
	if err != nil {
		return err
	}
	hs := &http.Server{
		Addr:              cfg.APIAddr,
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}

	ln, err := net.Listen("tcp", cfg.APIAddr)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String(), "public_base_url", cfg.PublicBaseURL,
		"variant", cfg.Variant, "build", build)

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stop() // a second signal kills the process at once
	log.Info("shutting down: draining requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}
