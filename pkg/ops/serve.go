package ops

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Listener is the running operator listener of a process.
type Listener struct {
	srv *http.Server
	ln  net.Listener
}

// Listen binds addr (OPS_ADDR) and serves h on it until Shutdown. It binds
// before returning, so a busy port stops the process at start; log
// (slog.Default when nil) receives the server's errors.
func Listen(addr string, h http.Handler, log *slog.Logger) (*Listener, error) {
	if log == nil {
		log = slog.Default()
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("operator listener stopped", "error", err.Error())
		}
	}()
	return &Listener{srv: srv, ln: ln}, nil
}

// Addr is the bound address (OPS_ADDR may name port 0).
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// Shutdown stops accepting connections and waits for the requests in
// flight, up to ctx.
func (l *Listener) Shutdown(ctx context.Context) error { return l.srv.Shutdown(ctx) }
