package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
)

// Error names of the API (DESIGN.md: the contract's names where it gives
// them, snake_case otherwise). They are part of the published contract.
const (
	errInvalidParameter     = "invalid_parameter"
	errUnsupportedParameter = "unsupported_parameter"
	errNotFound             = "not_found"
	errMethodNotAllowed     = "method_not_allowed"
	errInternal             = "internal_error"
	errUnavailable          = "unavailable"
	errQueryTooCostly       = "query_too_costly"
	errQueryExcludesItself  = "query_excludes_itself"
	errInvalidRepo          = "invalid_repo"   // 400: GET /api/status without a valid owner/repo
	errCursorExpired        = "cursor_expired" // GET /api/changes: since older than the retained events

	// The operator token's (GET /api/metrics, the vitrine operator routes).
	errInvalidToken           = "invalid_token"            // 401: no token where one is required, or not the operator token
	errTokenNotConfigured     = "token_not_configured"     // 503: a token sent, but the service has none to compare
	errCollectorNotConfigured = "collector_not_configured" // 503: the operator views, with VITRINE_COLLECTOR=off
)

// invalidToken is the 401 of an operator route without the operator token.
func invalidToken(message string) error {
	return &apiError{http.StatusUnauthorized, ErrorBody{Error: errInvalidToken, Message: message}}
}

// tokenNotConfigured is the 503 of a token sent to a service without
// METRICS_TOKEN.
func tokenNotConfigured() error {
	return &apiError{http.StatusServiceUnavailable, ErrorBody{Error: errTokenNotConfigured,
		Message: "This service has no operator token configured; send no Authorization header for the public numbers."}}
}

// collectorNotConfigured is the 503 of the vitrine operator routes when
// this service runs no collector.
func collectorNotConfigured() error {
	return &apiError{http.StatusServiceUnavailable, ErrorBody{Error: errCollectorNotConfigured,
		Message: "This service runs no collector (VITRINE_COLLECTOR=off), so there is nothing to show."}}
}

// invalidRepo is the 400 of GET /api/status for a repo that is missing or
// breaks GitHub's naming rules.
func invalidRepo(message string) error {
	return &apiError{http.StatusBadRequest, ErrorBody{errInvalidRepo, message, "repo"}}
}

// ErrorBody is the JSON body of every error the API answers:
// {"error": "<name>", "message": "<one sentence>", "field": "<input>"}.
type ErrorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}

// apiError is an error a handler returns to answer with a given status and
// body; handleError writes it.
type apiError struct {
	status int
	body   ErrorBody
}

func (e *apiError) Error() string { return e.body.Error + ": " + e.body.Message }

// invalidParameter is the 400 for a malformed or out-of-range parameter.
func invalidParameter(field, format string, args ...any) error {
	return &apiError{http.StatusBadRequest, ErrorBody{errInvalidParameter, fmt.Sprintf(format, args...), field}}
}

// unsupportedParameter is the 400 for a full-only parameter on a base deployment.
func unsupportedParameter(field string) error {
	return &apiError{http.StatusBadRequest, ErrorBody{errUnsupportedParameter,
		fmt.Sprintf("%s is a parameter of the full variant; this deployment is the base variant.", field), field}}
}

// cursorExpired is the 410 of a change feed cursor older than the retained
// events (store.ErrCursorExpired).
func cursorExpired() error {
	return &apiError{http.StatusGone, ErrorBody{Error: errCursorExpired, Field: "since",
		Message: "since is older than the changes this service keeps; start again without since and rebuild the set from the beginning."}}
}

// overloaded is the 503 of a read refused because maxReadsInFlight reads
// are being served (admission.go); handleError adds Retry-After, as to
// every 503.
func overloaded() error {
	return &apiError{http.StatusServiceUnavailable, ErrorBody{Error: errUnavailable,
		Message: "The index is answering as many reads as it can at once; retry after Retry-After seconds."}}
}

// notFound is the 404 of a resource that does not exist or is not public.
func notFound(message string) error {
	return &apiError{http.StatusNotFound, ErrorBody{Error: errNotFound, Message: message}}
}

// errorResponse maps any error a handler, the router or a middleware returns
// to its status and body. It is the one place where errors become HTTP.
// internal reports whether the error is the service's fault (logged as such).
func errorResponse(err error) (status int, body ErrorBody, internal bool) {
	var ae *apiError
	var pe *payError
	var he *echo.HTTPError
	switch {
	case errors.As(err, &ae):
		return ae.status, ae.body, false
	case errors.As(err, &pe):
		return pe.status, ErrorBody{Error: pe.name, Message: pe.message}, pe.status >= 500
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, ErrorBody{Error: errNotFound, Message: "No public bundle has that id."}, false
	case errors.Is(err, store.ErrQueryExcludesItself):
		return http.StatusBadRequest, ErrorBody{Error: errQueryExcludesItself, Field: "q",
			Message: "q asks for a word and excludes it too (as in \"the -the\"), so nothing can match; drop one of the two."}, false
	case errors.Is(err, store.ErrSearchTimeout):
		// The query's own cost (words that exclude each other, say), not an
		// outage: asking again would cost as much, so no Retry-After.
		return http.StatusUnprocessableEntity, ErrorBody{Error: errQueryTooCostly,
			Message: "The search would take too long to answer; narrow it (fewer or rarer words, no word both wanted and excluded, a filter, or an earlier page) and ask again."}, false
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable, ErrorBody{Error: errUnavailable, Message: "The database did not answer in time; retry later."}, true
	case errors.Is(err, context.Canceled):
		// The client went away; nobody reads this answer.
		return http.StatusServiceUnavailable, ErrorBody{Error: errUnavailable, Message: "The request was canceled."}, false
	case store.IsUnavailable(err):
		// Refused, dropped, shutting down, out of connections or disk, or
		// read-only: answered at once, not after the request timeout.
		return http.StatusServiceUnavailable, ErrorBody{Error: errUnavailable, Message: "The database cannot answer now; retry later."}, true
	case errors.As(err, &he):
		switch he.Code {
		case http.StatusNotFound:
			return he.Code, ErrorBody{Error: errNotFound, Message: "No such path; GET /api/ lists the endpoints."}, false
		case http.StatusMethodNotAllowed:
			return he.Code, ErrorBody{Error: errMethodNotAllowed, Message: "This path does not answer that method; the Allow header lists the methods it answers."}, false
		case http.StatusServiceUnavailable:
			return he.Code, ErrorBody{Error: errUnavailable, Message: "The service cannot answer now; retry later."}, true
		}
		if he.Code >= 400 && he.Code < 500 {
			return he.Code, ErrorBody{Error: "bad_request", Message: fmt.Sprint(he.Message)}, false
		}
	}
	return http.StatusInternalServerError, ErrorBody{Error: errInternal, Message: "The service failed to answer; the failure is logged."}, true
}

// retryAfter is the Retry-After of every unavailable answer, in seconds:
// about how long a restarting database or a failover takes.
const retryAfter = "5"

// errorLogAttrs are the log attributes of a failure of the service: its
// cause, and for an unavailable database the dependency and the class of
// its failure (never a connection string).
func errorLogAttrs(err error) []slog.Attr {
	attrs := []slog.Attr{slog.String("error", err.Error())}
	if cause := store.UnavailableCause(err); cause != "" {
		attrs = append(attrs, slog.String("dependency", "postgres"), slog.String("cause", cause))
	}
	return attrs
}

// handleError is the Echo error handler: it writes the body errorResponse
// chose, with Retry-After on an unavailable answer. Logging is left to the
// request log, so each failure is logged once.
func handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, body, _ := errorResponse(err)
	if rl := (*retryLater)(nil); errors.As(err, &rl) {
		c.Response().Header().Set("Retry-After", retryAfterSeconds(rl.after))
	} else if body.Error == errUnavailable {
		c.Response().Header().Set("Retry-After", retryAfter)
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	if pe := (*payError)(nil); errors.As(err, &pe) {
		_ = writePayError(c, pe) // a 402 carries accepts[] and PAYMENT-REQUIRED
		return
	}
	_ = writeJSON(c, status, body)
}
