package logging_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/logging"
)

func TestRequestIDOnEveryLine(t *testing.T) {
	var buf bytes.Buffer
	log := logging.New(&buf, nil).With("app", "test")
	ctx := logging.WithRequestID(context.Background(), "req-1")

	log.InfoContext(ctx, "with context")
	log.Info("without context")
	log.ErrorContext(ctx, "already set", logging.RequestIDKey, "req-1")
	log.WithGroup("g").InfoContext(ctx, "grouped", "k", "v")

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	for i, want := range []string{"req-1", "", "req-1"} {
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &m); err != nil {
			t.Fatal(err)
		}
		got, _ := m[logging.RequestIDKey].(string)
		if got != want || m["app"] != "test" {
			t.Errorf("line %d: request_id %q, want %q: %s", i, got, want, lines[i])
		}
		if n := strings.Count(lines[i], `"request_id"`); n > 1 {
			t.Errorf("line %d has request_id %d times: %s", i, n, lines[i])
		}
	}
	if !strings.Contains(lines[3], `"request_id":"req-1"`) {
		t.Errorf("grouped line lost the request id: %s", lines[3])
	}
}

func TestWrapIsIdempotent(t *testing.T) {
	h := logging.New(&bytes.Buffer{}, nil).Handler()
	if logging.Wrap(h) != h {
		t.Fatal("wrapping twice stacked two handlers")
	}
}
