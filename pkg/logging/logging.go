// Package logging gives both services their structured JSON log with the
// request id on every line logged while a request is served, and no secret
// on any line (Redact). The HTTP layer
// puts the id in the request's context (WithRequestID); the handler that
// New wraps around slog's JSON handler copies it onto any record logged with
// that context (log.InfoContext(ctx, ...)), so handlers, stores and
// libraries that log with the request's context need not pass it along.
//
// It is a package of its own, not part of pkg/ops, because it serves the
// request path (the API's handlers import it), while ops is the operator
// listener beside it.
package logging

import (
	"context"
	"io"
	"log/slog"
)

// RequestIDKey is the attribute that carries the request id.
const RequestIDKey = "request_id"

type requestIDKey struct{}

// WithRequestID returns ctx carrying the request id id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID is the request id ctx carries, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// New returns the services' logger: JSON lines on w, with the request id of
// the context added to every record.
func New(w io.Writer, opts *slog.HandlerOptions) *slog.Logger {
	return slog.New(Wrap(slog.NewJSONHandler(w, opts)))
}

// Wrap returns h adding the context's request id to each record. Wrapping
// an already wrapped handler returns it unchanged.
func Wrap(h slog.Handler) slog.Handler {
	if _, ok := h.(contextHandler); ok {
		return h
	}
	return contextHandler{h}
}

// contextHandler is a slog.Handler that copies the request id from the
// record's context into the record.
type contextHandler struct{ slog.Handler }

// Handle adds request_id unless the record already has one (the request
// log line sets it itself, so that it has it under any logger), and
// redacts secrets (Redact) from the message and every attribute.
func (h contextHandler) Handle(ctx context.Context, r slog.Record) error {
	r = redactRecord(r)
	if id := RequestID(ctx); id != "" && !hasAttr(r, RequestIDKey) {
		r.AddAttrs(slog.String(RequestIDKey, id))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs keeps the wrapper on derived loggers (log.With), their
// attributes redacted.
func (h contextHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		out[i] = redactAttr(a)
	}
	return contextHandler{h.Handler.WithAttrs(out)}
}

// WithGroup keeps the wrapper on derived loggers (log.WithGroup).
func (h contextHandler) WithGroup(name string) slog.Handler {
	return contextHandler{h.Handler.WithGroup(name)}
}

func hasAttr(r slog.Record, key string) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == key
		return !found
	})
	return found
}
