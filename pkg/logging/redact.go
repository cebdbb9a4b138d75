package logging

import (
	"fmt"
	"log/slog"
	"regexp"
	"strings"
)

// Redacted replaces a secret in a log line.
const Redacted = "[REDACTED]"

// Secrets never reach a log line (API keys, credit tokens, the identity
// service's tokens, session and CSRF values): whatever logs them, a
// request's URI, an error that quotes its input or a library's message,
// every string the wrapped handler writes is passed through Redact first.
var (
	// secretParam is a query-string parameter that carries a credential,
	// whatever its value looks like.
	secretParam = regexp.MustCompile(`(?i)((?:^|[?&;])(?:token|api_key|apikey|key|credito|access_token|id_token|session|csrf)=)[^&;#\s"']*`)
	// secretShape is a value shaped like one of the service's secrets: an
	// API key (hsk_), a credit token (cred_), a JWT, written as is or with
	// its underscore percent-encoded.
	secretShape = regexp.MustCompile(`(?i)\b(hsk|cred)(?:_|%5f)[a-z0-9_\-]+|\beyJ[a-zA-Z0-9_\-]+\.[a-zA-Z0-9_\-]+\.[a-zA-Z0-9_\-]*`)
)

// Redact returns s with every secret-carrying query parameter's value and
// every secret-shaped value replaced by Redacted.
func Redact(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	s = secretParam.ReplaceAllString(s, "${1}"+Redacted)
	// A replacement can leave a shorter secret's shape behind ("hsk_" glued
	// to a JWT); Redacted matches no shape and each pass replaces at least one, so this ends.
	for secretShape.MatchString(s) {
		s = redactShapes(s)
	}
	return s
}

// redactShapes replaces each secret-shaped value of s, keeping an API key's
// or a credit token's prefix.
func redactShapes(s string) string {
	return secretShape.ReplaceAllStringFunc(s, func(m string) string {
		if strings.EqualFold(m[:3], "eyj") {
			return Redacted
		}
		if i := strings.IndexAny(m, "_%"); i > 0 {
			return m[:i] + "_" + Redacted
		}
		return Redacted
	})
}

// mayHoldSecret is a cheap test that lets most strings skip the
// expressions.
func mayHoldSecret(s string) bool {
	if len(s) < 4 {
		return false
	}
	l := strings.ToLower(s)
	for _, hint := range []string{"hsk", "cred", "eyj", "=", "%5f"} {
		if strings.Contains(l, hint) {
			return true
		}
	}
	return false
}

// redactAttr is a with its string values redacted, in groups too; an error
// or a Stringer is logged as its redacted text.
func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		if r := Redact(v.String()); r != v.String() {
			return slog.String(a.Key, r)
		}
	case slog.KindGroup:
		attrs := v.Group()
		out := make([]slog.Attr, len(attrs))
		for i, g := range attrs {
			out[i] = redactAttr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, Redact(x.Error()))
		case fmt.Stringer:
			return slog.String(a.Key, Redact(x.String()))
		}
	}
	return a
}

// redactRecord is r with its message and attributes redacted.
func redactRecord(r slog.Record) slog.Record {
	out := slog.NewRecord(r.Time, r.Level, Redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return out
}
