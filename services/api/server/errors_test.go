package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// TestFailuresAnswerJSON checks the answers and the log of failures that
// the routes of the table cannot provoke on demand: a panic, a database
// timeout, a refused database connection and an unexpected error. They are mounted on a server of their own.
func TestFailuresAnswerJSON(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	cfg, _ := config.Load(func(string) string { return "" })
	s, err := New(nil, Options{Config: cfg, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s.echo.GET("/test/panic", func(echo.Context) error { panic("boom") })
	s.echo.GET("/test/timeout", func(echo.Context) error { return fmt.Errorf("store: search: %w", context.DeadlineExceeded) })
	s.echo.GET("/test/failure", func(echo.Context) error { return errors.New("store: search: connection refused") })
	s.echo.GET("/test/down", func(echo.Context) error {
		return fmt.Errorf("store: search: %w", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})
	})
	hs := httptest.NewServer(s)
	defer hs.Close()

	for _, c := range []struct {
		path       string
		status     int
		name       string
		logged     string
		retryAfter string
	}{
		{"/test/panic", 500, apierror.Internal, "boom", ""},
		{"/test/timeout", 503, apierror.Unavailable, "deadline exceeded", apierror.DefaultRetryAfter},
		{"/test/failure", 500, apierror.Internal, "connection refused", ""},
		{"/test/down", 503, apierror.Unavailable, `"dependency":"postgres","cause":"connection_refused"`, apierror.DefaultRetryAfter},
	} {
		logs.Reset()
		resp, err := http.Get(hs.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		var e wire.ErrorBody
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != c.status || e.Error != c.name || e.Message == "" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: %d %+v", c.path, resp.StatusCode, e)
		}
		if got := resp.Header.Get("Retry-After"); got != c.retryAfter {
			t.Errorf("%s: Retry-After %q, want %q", c.path, got, c.retryAfter)
		}
		if strings.Contains(e.Message, c.logged) {
			t.Errorf("%s: the cause leaks to the client: %q", c.path, e.Message)
		}
		if n := strings.Count(logs.String(), "\n"); n != 1 || !strings.Contains(logs.String(), `"level":"ERROR"`) ||
			!strings.Contains(logs.String(), c.logged) || !strings.Contains(logs.String(), `"request_id"`) {
			t.Errorf("%s: want one error line with the cause and request id, got %d lines: %s", c.path, n, logs.String())
		}
	}
}
