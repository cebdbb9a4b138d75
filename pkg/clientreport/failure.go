package clientreport

import (
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Caps. The message and stack caps are the contract's (spec section 8);
// MaxBodyBytes is the handler's body cap, repeated here so the package does
// not depend on the handler honouring it.
const (
	MaxBodyBytes    = 64 << 10
	MaxMessageRunes = 2000
	MaxStackRunes   = 12000

	// maxPathRunes caps path and source. The contract sets none; a path this
	// long is already abnormal, and the cap bounds what a window holds.
	maxPathRunes = 1000
	maxCodeBytes = 40
	// maxPosition is the largest line or column kept: browsers report
	// 32-bit positions, anything larger is garbage.
	maxPosition = 1<<31 - 1
)

var (
	errBodyTooLarge = errors.New("clientreport: body over MaxBodyBytes")
	errNotObject    = errors.New("clientreport: body is not a JSON object")
	errCode         = errors.New("clientreport: code missing or out of shape")
	errPhase        = errors.New("clientreport: phase missing or out of shape")
)

var (
	codeShape  = regexp.MustCompile(`^UI(?:-[A-Za-z0-9]+)+$`)
	phaseShape = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)
)

// failure is one valid report after cleaning, redaction and caps: the only
// form in which report content is kept.
type failure struct {
	code, phase      string
	path, source     string
	line, column     int // 0 when absent: browsers themselves use 0 for unknown
	message          string
	messageTruncated bool
	stack            string
	stackTruncated   bool
	visivel          bool
}

// failureKey identifies "the same failure" for merging.
type failureKey struct {
	code, phase, path, source string
	line, column              int
	message                   string
}

func (f failure) key() failureKey {
	return failureKey{f.code, f.phase, f.path, f.source, f.line, f.column, f.message}
}

// parseFailure validates body and returns the failure it reports, or an
// error saying why the report is invalid.
func parseFailure(body []byte) (failure, error) {
	if len(body) > MaxBodyBytes {
		return failure{}, errBodyTooLarge
	}
	// A map, not a struct: encoding/json matches struct fields
	// case-insensitively, and field names here are exact.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		return failure{}, errNotObject
	}
	var f failure
	var ok bool
	if f.code, ok = stringField(fields["code"]); !ok || len(f.code) > maxCodeBytes || !codeShape.MatchString(f.code) {
		return failure{}, errCode
	}
	if f.phase, ok = stringField(fields["phase"]); !ok || !phaseShape.MatchString(f.phase) {
		return failure{}, errPhase
	}
	if s, ok := stringField(fields["path"]); ok {
		f.path = keepPath(s)
	}
	if s, ok := stringField(fields["source"]); ok {
		f.source = keepPath(s)
	}
	f.line = positionField(fields["line"])
	f.column = positionField(fields["column"])
	if s, ok := stringField(fields["message"]); ok {
		f.message, f.messageTruncated = keepText(s, MaxMessageRunes)
	}
	if s, ok := stringField(fields["stack"]); ok {
		f.stack, f.stackTruncated = keepText(s, MaxStackRunes)
	}
	f.visivel = string(fields["visivel"]) == "true"
	return f, nil
}

// stringField returns the JSON string in raw; ok is false for any other
// JSON type and for an absent field.
func stringField(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// positionField returns a line or column: a JSON integer literal in
// [0, maxPosition], else 0 (absent). "12", 12.5, 1e3 and -1 are all absent.
func positionField(raw json.RawMessage) int {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n < 0 || n > maxPosition {
		return 0
	}
	return int(n)
}

// keepText cleans, redacts and caps message or stack text, in that order.
func keepText(s string, maxRunes int) (string, bool) {
	return capRunes(redact(clean(s, true)), maxRunes)
}

// keepPath reduces a path or URL to its path (no scheme, host, userinfo,
// query or fragment), decodes percent-escapes so redaction sees the real
// characters, then redacts and caps it.
func keepPath(s string) string {
	s = clean(s, false)
	// Cut query and fragment first: whatever follows a '?' is gone even if
	// the rest is not a well-formed URL.
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if scheme, rest, ok := splitScheme(s); ok {
		if strings.HasPrefix(rest, "//") {
			s = dropAuthority(rest[2:])
		} else {
			s = scheme + ":" // opaque (data:, blob:, ...): the rest is content, not a path
		}
	} else if strings.HasPrefix(s, "//") {
		s = dropAuthority(s[2:])
	}
	if u, err := url.PathUnescape(s); err == nil {
		s = clean(u, false)
	}
	s, _ = capRunes(redact(s), maxPathRunes)
	return s
}

// opaqueSchemes are the URL schemes without an authority that a browser
// reports as a page or script location.
var opaqueSchemes = map[string]bool{"data": true, "blob": true, "javascript": true, "about": true}

// splitScheme splits "scheme:rest" when s is a URL: a scheme followed by
// "//", or one of the opaque schemes. "app.js:12" and "C:/x" are not URLs.
func splitScheme(s string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", "", false
	}
	scheme, rest = s[:i], s[i+1:]
	for j, c := range scheme {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", "", false
		}
	}
	scheme = strings.ToLower(scheme)
	if !strings.HasPrefix(rest, "//") && !opaqueSchemes[scheme] {
		return "", "", false
	}
	return scheme, rest, true
}

// dropAuthority returns the path that follows the authority in
// "host/path"; a URL without a path has the path "/".
func dropAuthority(s string) string {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return s[i:]
	}
	return "/"
}

// clean removes control characters (keeping newlines and tabs when
// multiline) and invisible format characters (zero-width, bidi overrides).
// They are removed, not replaced by a space, so "joe\u200b@x.com" cannot
// split an e-mail address and slip past redaction.
func clean(s string, multiline bool) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			if multiline {
				return r
			}
			return -1
		case r < 0x20, r >= 0x7f && r < 0xa0, unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, s)
}

// capRunes cuts s to at most n runes and says whether it cut. s is valid
// UTF-8 (encoding/json guarantees it).
func capRunes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i], true
		}
		count++
	}
	return s, false
}
