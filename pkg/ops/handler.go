package ops

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// ReadyTimeout bounds the database ping of one readiness check, well under
// an orchestrator's probe timeout.
const ReadyTimeout = 2 * time.Second

// Options configure the operator listener's handler.
type Options struct {
	// Ready checks the database (store.Store.Ping); nil is always ready.
	Ready func(context.Context) error
	// Gatherer is the process's registry, served at MetricsPath.
	Gatherer prometheus.Gatherer
	// RiverUI, when set, is served under RiverUIPath behind Token.
	RiverUI http.Handler
	// Token is METRICS_TOKEN; without it RiverUI answers 503.
	Token string
	// Logger receives readiness changes and metric collection errors.
	Logger *slog.Logger
}

// NewHandler returns the operator listener's handler: LivePath,
// ReadyPath, MetricsPath, and RiverUIPath when configured.
func NewHandler(opts Options) http.Handler {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+LivePath, func(w http.ResponseWriter, _ *http.Request) {
		plain(w, http.StatusOK, "ok")
	})
	mux.Handle("GET "+ReadyPath, &readiness{check: opts.Ready, log: log})
	if opts.Gatherer != nil {
		mux.Handle("GET "+MetricsPath, promhttp.HandlerFor(opts.Gatherer, promhttp.HandlerOpts{
			// A failing collector drops its own series, never the scrape.
			ErrorHandling: promhttp.ContinueOnError,
			ErrorLog:      slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		}))
	}
	if opts.RiverUI != nil {
		mux.Handle(RiverUIPath, RequireToken(opts.Token, opts.RiverUI))
	}
	return mux
}

// readiness answers 200 while the check passes and 503 with the reason
// while it fails; it logs each change, not each probe.
type readiness struct {
	check  func(context.Context) error
	log    *slog.Logger
	failed atomic.Bool
}

func (h *readiness) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var err error
	if h.check != nil {
		ctx, cancel := context.WithTimeout(r.Context(), ReadyTimeout)
		defer cancel()
		err = h.check(ctx)
	}
	if err != nil {
		if !h.failed.Swap(true) {
			h.log.Warn("not ready", "error", err.Error())
		}
		plain(w, http.StatusServiceUnavailable, "not ready: "+err.Error())
		return
	}
	if h.failed.Swap(false) {
		h.log.Info("ready again")
	}
	plain(w, http.StatusOK, "ok")
}

func plain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}
