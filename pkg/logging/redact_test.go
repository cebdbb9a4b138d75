package logging

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl"

func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/api/bundles?q=go&limit=5", "/api/bundles?q=go&limit=5"},
		{"/api/credito?token=cred_abc123", "/api/credito?token=[REDACTED]"},
		{"/api/x?a=1&api_key=hsk_live_XYZ&b=2", "/api/x?a=1&api_key=[REDACTED]&b=2"},
		{"/api/x?API_KEY=whatever", "/api/x?API_KEY=[REDACTED]"},
		{"/api/x?key=abc;credito=1", "/api/x?key=[REDACTED];credito=[REDACTED]"},
		{"/api/x?q=hsk_abcdef", "/api/x?q=hsk_[REDACTED]"},                   // shaped like a key, any parameter
		{"/api/x?q=HSK%5Fabcdef", "/api/x?q=HSK_[REDACTED]"},                 // percent-encoded underscore
		{"bad key cred_0123-xyz refused", "bad key cred_[REDACTED] refused"}, // in an error's text
		{"Bearer " + jwt, "Bearer [REDACTED]"},
		{"/api/x?id_token=" + jwt + "&z=1", "/api/x?id_token=[REDACTED]&z=1"},
		{"credentials are fine", "credentials are fine"}, // a word, not a token
		{"monkey=banana", "monkey=banana"},               // not a parameter called key
	} {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHandlerRedactsEveryLine(t *testing.T) {
	var buf bytes.Buffer
	log := New(&buf, nil).With("caller", "token=cred_bound")
	log.InfoContext(context.Background(), "request hsk_inmessage",
		"uri", "/api/contact?api_key=hsk_secret1",
		"err", errors.New("unknown token cred_secret2"),
		slog.Group("req", "auth", "Bearer "+jwt))
	out := buf.String()
	for _, secret := range []string{"cred_bound", "hsk_inmessage", "hsk_secret1", "cred_secret2", jwt} {
		if strings.Contains(out, secret) {
			t.Errorf("log line holds %q: %s", secret, out)
		}
	}
	if !strings.Contains(out, "/api/contact?api_key=[REDACTED]") {
		t.Errorf("log line lost what is not secret: %s", out)
	}
}

func FuzzRedact(f *testing.F) {
	f.Add("/api/x?token=cred_abc&q=1")
	f.Add("hsk_" + jwt)
	f.Fuzz(func(t *testing.T, s string) {
		r := Redact(s)
		if Redact(r) != r {
			t.Errorf("Redact is not idempotent on %q: %q", s, r)
		}
		if secretShape.MatchString(r) {
			t.Errorf("Redact(%q) = %q still holds a secret's shape", s, r)
		}
	})
}
