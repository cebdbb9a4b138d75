package respond

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// Conditional requests (RFC 9110 section 13), one mechanism for every
// answer that has them: cards, search pages, statistics, the change feed,
// the Atom feed, the documents and the web pages. An answer carries a weak
// ETag of its bytes (exact: any changed byte changes it), a Last-Modified
// when the resource has a time of its own, and a Cache-Control that fits
// it; If-None-Match, or when it is absent If-Modified-Since, answers 304
// with the same validators and no body.

// Cache-Control of each kind of answer.
const (
	// CacheSearch: search pages change with every write; a short reuse.
	CacheSearch = "public, max-age=10"
	// CacheCard: a card and the statistics change seldom.
	CacheCard  = "public, max-age=60"
	CacheStats = "public, max-age=60"
	// CacheChanges: the feed's tail grows at any moment; a client polls.
	CacheChanges = "public, max-age=5"
	// CacheAtom: feed readers poll every few minutes at most.
	CacheAtom = "public, max-age=300"
	// CacheDocument: documents change only with a deployment.
	CacheDocument = "public, max-age=3600"
)

// Validators are what an answer is revalidated with.
type Validators struct {
	etag         string
	lastModified time.Time // zero: the answer has no Last-Modified
}

// ValidatorsOf is the weak ETag of body, with lastModified.
func ValidatorsOf(body []byte, lastModified time.Time) Validators {
	sum := sha256.Sum256(body)
	return Validators{etag: `W/"` + hex.EncodeToString(sum[:10]) + `"`, lastModified: lastModified}
}

// Set writes the validators and cache into the answer's headers.
func (v Validators) Set(h http.Header, cache string) {
	h.Set("ETag", v.etag)
	if !v.lastModified.IsZero() {
		h.Set("Last-Modified", v.lastModified.UTC().Format(http.TimeFormat))
	}
	h.Set("Cache-Control", cache)
}

// NotModified reports whether the request's conditions say the client's
// copy is current. If-None-Match decides when present (weak comparison);
// If-Modified-Since only when it is absent, and only on an answer with a
// Last-Modified, compared in whole seconds as HTTP dates are.
func (v Validators) NotModified(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		return etagMatches(inm, v.etag)
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || v.lastModified.IsZero() {
		return false
	}
	since, err := http.ParseTime(ims)
	if err != nil {
		return false // an invalid date is ignored (RFC 9110 13.1.3)
	}
	return !v.lastModified.Truncate(time.Second).After(since)
}

// StrongValidatorsOf is a strong ETag of body, without Last-Modified: for
// an answer served byte for byte from one stored document (the usage
// projection, the partnership offer), where a strong validator is true.
func StrongValidatorsOf(body []byte) Validators {
	sum := sha256.Sum256(body)
	return Validators{etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
}

// Conditional answers 200 with body, its validators and cache, or 304
// when the request's conditions match them.
func Conditional(c echo.Context, contentType string, body []byte, lastModified time.Time, cache string) error {
	return Validated(c, contentType, body, ValidatorsOf(body, lastModified), cache)
}

// Validated is Conditional with validators already made.
func Validated(c echo.Context, contentType string, body []byte, v Validators, cache string) error {
	h := c.Response().Header()
	v.Set(h, cache)
	// Every such route answers any origin; a script of another origin may
	// read the ETag to revalidate (Last-Modified is readable already).
	h.Set("Access-Control-Expose-Headers", "ETag")
	if v.NotModified(c.Request()) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, contentType, body)
}

// JSONConditional is Conditional for a JSON value.
func JSONConditional(c echo.Context, v any, lastModified time.Time, cache string) error {
	b, err := Marshal(v)
	if err != nil {
		return err
	}
	return Conditional(c, echo.MIMEApplicationJSON, b, lastModified, cache)
}

// etagMatches reports whether an If-None-Match header names tag (weak
// comparison, RFC 9110 13.1.2).
func etagMatches(header, tag string) bool {
	if header == "" {
		return false
	}
	want := strings.TrimPrefix(tag, "W/")
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}
