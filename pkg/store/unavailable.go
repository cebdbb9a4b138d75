package store

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailability: a failure of the database itself rather than of the
// request. The server could not be reached, dropped the connection, is
// shutting down or starting up, has no connection slot, memory or disk
// left, or refuses writes (read-only). Asking the same thing again later may
// succeed, so the API answers 503 unavailable with Retry-After, and the
// usage flusher keeps its batch for the next flush.
//
// Errors are classified here, in one place, from the error chain pgx and
// River return: no query site wraps anything. A deadline or a cancellation
// is not classified: the caller set it and knows what it means.

// sqlStateCauses are the SQLSTATEs of unavailability, by code or by class
// (the first two characters), with the names the log gives them.
var sqlStateCauses = map[string]string{
	"08":    "connection_exception", // class 08, except 08P01 below
	"53":    "insufficient_resources",
	"53100": "disk_full",
	"53200": "out_of_memory",
	"53300": "too_many_connections",
	"57P01": "admin_shutdown",
	"57P02": "crash_shutdown",
	"57P03": "cannot_connect_now",
	"25006": "read_only_sql_transaction",
}

// UnavailableCause names why err means the database is unavailable, for the
// log ("connect: admin_shutdown (57P01)", "connection_lost", ...), or is ""
// when err is not an unavailability. The name never holds a secret: it is
// made of SQLSTATE names and error classes, not of connection strings.
func UnavailableCause(err error) string {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return ""
	}
	prefix := ""
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		prefix = "connect: "
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		if name := sqlStateCause(pgErr.Code); name != "" {
			return prefix + name + " (" + pgErr.Code + ")"
		}
		if prefix == "" {
			return "" // the server answered: a failure of the request
		}
		return prefix + "sqlstate " + pgErr.Code // refused the login: a setting to fix
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return prefix + "connection_refused"
	case errors.Is(err, syscall.ENOENT) && prefix != "":
		return prefix + "no_socket" // a Unix socket whose server is gone
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return prefix + "connection_lost"
	case errors.Is(err, pgconn.ErrConnClosed):
		return prefix + "conn_closed"
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return prefix + "network"
	}
	if prefix != "" {
		return prefix + "failed"
	}
	return ""
}

// IsUnavailable reports whether err means the database is unavailable
// (UnavailableCause is not empty).
func IsUnavailable(err error) bool { return UnavailableCause(err) != "" }

// sqlStateCause is the name of an unavailability's SQLSTATE, or "".
func sqlStateCause(code string) string {
	if name, ok := sqlStateCauses[code]; ok {
		return name
	}
	if code == "08P01" || len(code) != 5 { // protocol_violation: a client bug, not an outage
		return ""
	}
	return sqlStateCauses[code[:2]] // the classes 08 and 53
}
