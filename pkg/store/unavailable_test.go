package store_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

func TestUnavailableCauseOfErrors(t *testing.T) {
	pg := func(code string) error {
		return fmt.Errorf("store: x: %w", &pgconn.PgError{Severity: "FATAL", Code: code})
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{store.ErrNotFound, ""},
		{fmt.Errorf("store: x: %w", context.DeadlineExceeded), ""},
		{fmt.Errorf("store: x: %w", context.Canceled), ""},
		{pg("23505"), ""}, // unique_violation: the request's own failure
		{pg("40001"), ""},
		{pg("57014"), ""}, // query_canceled: a statement timeout
		{pg("08P01"), ""}, // protocol_violation
		{pg("08006"), "connection_exception (08006)"},
		{pg("08000"), "connection_exception (08000)"},
		{pg("57P01"), "admin_shutdown (57P01)"},
		{pg("57P02"), "crash_shutdown (57P02)"},
		{pg("57P03"), "cannot_connect_now (57P03)"},
		{pg("53300"), "too_many_connections (53300)"},
		{pg("53100"), "disk_full (53100)"},
		{pg("53400"), "insufficient_resources (53400)"},
		{pg("25006"), "read_only_sql_transaction (25006)"},
		{fmt.Errorf("store: x: %w", io.ErrUnexpectedEOF), "connection_lost"},
		{fmt.Errorf("store: x: %w", pgconn.ErrConnClosed), "conn_closed"},
	} {
		if got := store.UnavailableCause(c.err); got != c.want {
			t.Errorf("UnavailableCause(%v) = %q, want %q", c.err, got, c.want)
		}
		if store.IsUnavailable(c.err) != (c.want != "") {
			t.Errorf("IsUnavailable(%v) = %v", c.err, !(c.want != ""))
		}
	}
}

// TestUnavailableAtOnce opens stores on databases that are not there: the
// failure comes at once and is an unavailability.
func TestUnavailableAtOnce(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"postgres://okf@127.0.0.1:1/okf?sslmode=disable", "connect: connection_refused"},
		{"postgres:///okf?host=" + t.TempDir() + "&port=5432&user=okf&sslmode=disable", "connect: no_socket"},
	} {
		start := time.Now()
		_, err := store.Open(t.Context(), store.Config{URL: c.url})
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%s: failed after %s", c.url, took)
		}
		if got := store.UnavailableCause(err); got != c.want {
			t.Errorf("%s: cause %q, want %q (%v)", c.url, got, c.want, err)
		}
	}
}

// TestUnavailableDroppedConnection ends a pooled connection's server
// process, as a shutdown does: the next statement on it is an
// unavailability.
func TestUnavailableDroppedConnection(t *testing.T) {
	st := storetest.NewStore(t)
	ctx := t.Context()
	conn, err := st.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	pid := conn.Conn().PgConn().PID()
	if _, err := st.Pool().Exec(ctx, "SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, "SELECT 1")
	if cause := store.UnavailableCause(err); cause == "" {
		t.Fatalf("a terminated connection's error %v is not an unavailability", err)
	}
}

// TestUnavailableReadOnly: on a read-only database a write is an
// unavailability and reads keep working.
func TestUnavailableReadOnly(t *testing.T) {
	u := storetest.NewDatabase(t)
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	st, err := store.Open(t.Context(), store.Config{URL: u + sep + "options=-c%20default_transaction_read_only%3Don"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.AddUsage(t.Context(), "00000000-0000-4000-8000-0000000000aa",
		[]store.UsageDelta{{Day: time.Now(), Metric: "okf_visit", N: 1}})
	if got := store.UnavailableCause(err); got != "read_only_sql_transaction (25006)" {
		t.Errorf("write on a read-only database: cause %q (%v)", got, err)
	}
	if _, err := st.Usage(t.Context(), time.Now(), time.Now()); err != nil {
		t.Errorf("read on a read-only database: %v", err)
	}
}
