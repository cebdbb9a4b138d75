package clientreport

import (
	"context"
	"log/slog"
)

// Log messages of the events the package emits, both at Warn level.
const (
	EventClientError = "client_error"
	EventDropped     = "client_error_dropped"
)

// emit logs a closed window: one client_error event per failure, then one
// client_error_dropped event if the window refused failures. The attributes
// are exactly those listed here; nothing else from a report reaches the log.
func (r *Reporter) emit(b batch) {
	ctx := context.Background()
	for _, p := range b.events {
		r.log.LogAttrs(ctx, slog.LevelWarn, EventClientError,
			slog.String("code", p.code),
			slog.String("phase", p.phase),
			slog.String("path", p.path),
			slog.String("source", p.source),
			slog.Int("line", p.line),
			slog.Int("column", p.column),
			slog.Bool("visivel", p.visivel),
			slog.String("message", p.message),
			slog.Bool("message_truncated", p.messageTruncated),
			slog.String("stack", p.stack),
			slog.Bool("stack_truncated", p.stackTruncated),
			slog.Int("count", p.count),
			slog.Time("first_seen", p.first),
			slog.Time("last_seen", p.last),
			slog.String("ua_family", p.family),
		)
	}
	if b.dropped.count > 0 {
		r.log.LogAttrs(ctx, slog.LevelWarn, EventDropped,
			slog.Int("count", b.dropped.count),
			slog.Int("max_pending", r.maxPending),
			slog.Time("first_seen", b.dropped.first),
			slog.Time("last_seen", b.dropped.last),
		)
	}
}
