// Package apierror owns the API's error answers: the one table of error
// names and the status each answers with, the Error a handler returns to
// answer one, and Response, the one place where any error (a handler's, the
// store's, the router's) becomes a status and a body. Writing the answer is
// the response module's (package respond).
//
// The names are part of the published contract (DESIGN.md: the contract's
// names where it gives them, snake_case otherwise); a test checks every row
// of the table against api/openapi.json, where each name is documented
// under the status it answers with.
package apierror

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/pkg/x402"
)

// Error is an answer of the API that is not a success: a status (from the
// table, by name) and its body, and what the writer adds to some of them.
type Error struct {
	Status int
	Body   wire.ErrorBody
	// RetryAfter, when set, is written as Retry-After (whole seconds,
	// rounded up); every 503 without it gets DefaultRetryAfter.
	RetryAfter time.Duration
	// Offer is what a 402 asks to be paid: the writer adds accepts[] and
	// the PAYMENT-REQUIRED header.
	Offer *x402.Requirement
	// Fault marks an answer that is the service's failure, logged as such
	// (a payment facilitator that cannot be reached).
	Fault bool
}

func (e *Error) Error() string { return e.Body.Error + ": " + e.Body.Message }

// New is the answer of a named error; its status is the table's.
func New(name, message string) *Error {
	return &Error{Status: StatusOf(name), Body: wire.ErrorBody{Error: name, Message: message}}
}

// At names the input at fault.
func (e *Error) At(field string) *Error {
	e.Body.Field = field
	return e
}

// After sets how long the client is asked to wait before asking again.
func (e *Error) After(d time.Duration) *Error {
	e.RetryAfter = d
	return e
}

// Parameter is the 400 for a malformed or out-of-range parameter.
func Parameter(field, format string, args ...any) *Error {
	return New(InvalidParameter, fmt.Sprintf(format, args...)).At(field)
}

// Unsupported is the 400 for a full-only parameter on a base deployment.
func Unsupported(field string) *Error {
	return New(UnsupportedParameter,
		fmt.Sprintf("%s is a parameter of the full variant; this deployment is the base variant.", field)).At(field)
}

// PaymentNeeded is the 402 named name that offers req.
func PaymentNeeded(req x402.Requirement, name, message string) *Error {
	e := New(name, message)
	e.Offer = &req
	return e
}

// DefaultRetryAfter is the Retry-After of every unavailable answer without
// a wait of its own, in seconds: about how long a restarting database or a
// failover takes.
const DefaultRetryAfter = "5"

// routerRefusal names a 4xx of the router other than 404 and 405; the
// routes answer none (every refusal of theirs is named in the table), so
// it is not in the table or the document.
const routerRefusal = "bad_request"

// Response maps any error a handler, the router or a middleware returns to
// its status and body. It is the one place where errors become HTTP.
// internal reports whether the error is the service's fault (logged as such).
func Response(err error) (status int, body wire.ErrorBody, internal bool) {
	var ae *Error
	var he *echo.HTTPError
	switch {
	case errors.As(err, &ae):
		return ae.Status, ae.Body, ae.Fault
	case errors.Is(err, store.ErrNotFound):
		return answer(NotFound, "No public bundle has that id.", false)
	case errors.Is(err, store.ErrQueryExcludesItself):
		status, body, internal = answer(QueryExcludesItself,
			"q asks for a word and excludes it too (as in \"the -the\"), so nothing can match; drop one of the two.", false)
		body.Field = "q"
		return status, body, internal
	case errors.Is(err, store.ErrSearchTimeout):
		// The query's own cost (words that exclude each other, say), not an
		// outage: asking again would cost as much, so no Retry-After.
		return answer(QueryTooCostly,
			"The search would take too long to answer; narrow it (fewer or rarer words, no word both wanted and excluded, a filter, or an earlier page) and ask again.", false)
	case errors.Is(err, context.DeadlineExceeded):
		return answer(Unavailable, "The database did not answer in time; retry later.", true)
	case errors.Is(err, context.Canceled):
		// The client went away; nobody reads this answer.
		return answer(Unavailable, "The request was canceled.", false)
	case store.IsUnavailable(err):
		// Refused, dropped, shutting down, out of connections or disk, or
		// read-only: answered at once, not after the request timeout.
		return answer(Unavailable, "The database cannot answer now; retry later.", true)
	case errors.As(err, &he):
		switch he.Code {
		case http.StatusNotFound:
			return answer(NotFound, "No such path; GET /api/ lists the endpoints.", false)
		case http.StatusMethodNotAllowed:
			return answer(MethodNotAllowed, "This path does not answer that method; the Allow header lists the methods it answers.", false)
		case http.StatusServiceUnavailable:
			return answer(Unavailable, "The service cannot answer now; retry later.", true)
		}
		if he.Code >= 400 && he.Code < 500 {
			return he.Code, wire.ErrorBody{Error: routerRefusal, Message: fmt.Sprint(he.Message)}, false
		}
	}
	return answer(Internal, "The service failed to answer; the failure is logged.", true)
}

func answer(name, message string, internal bool) (int, wire.ErrorBody, bool) {
	return StatusOf(name), wire.ErrorBody{Error: name, Message: message}, internal
}

// LogAttrs are the log attributes of a failure of the service: its cause,
// and for an unavailable database the dependency and the class of its
// failure (never a connection string).
func LogAttrs(err error) []slog.Attr {
	attrs := []slog.Attr{slog.String("error", err.Error())}
	if cause := store.UnavailableCause(err); cause != "" {
		attrs = append(attrs, slog.String("dependency", "postgres"), slog.String("cause", cause))
	}
	return attrs
}
