// Package query holds the rules every query string of the API is read by
// (search, the ping status, the repository status, the change feed):
// unknown parameters are ignored, an empty value is the same as leaving the
// parameter out, a scalar given twice is a 400 invalid_parameter, values
// are UTF-8 without NUL, lengths are in characters, lists are
// comma-separated, a full-only parameter on a base deployment is a 400
// unsupported_parameter, and numbers are digits only.
package query

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// MaxListValues is how many comma-separated values a list parameter takes.
const MaxListValues = 5

// Reader reads parameters of a query and keeps the first error.
type Reader struct {
	Vals url.Values
	Full bool // the deployment is the full variant: full-only parameters are taken
	err  error
}

// Err is the first error met, or nil.
func (r *Reader) Err() error { return r.err }

func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// values returns the non-empty values of a parameter, checking that they are
// text and that a full-only parameter is supported.
func (r *Reader) values(name string, fullOnly bool) []string {
	var out []string
	for _, v := range r.Vals[name] {
		if v == "" {
			continue
		}
		if !utf8.ValidString(v) || strings.ContainsRune(v, 0) {
			r.Fail(apierror.Parameter(name, "%s must be UTF-8 text without NUL characters.", name))
			return nil
		}
		out = append(out, v)
	}
	if len(out) > 0 && fullOnly && !r.Full {
		r.Fail(apierror.Unsupported(name))
		return nil
	}
	return out
}

// Scalar returns the one value of a parameter; ok is false when it is absent
// or invalid.
func (r *Reader) Scalar(name string, fullOnly bool) (string, bool) {
	vs := r.values(name, fullOnly)
	switch len(vs) {
	case 0:
		return "", false
	case 1:
		return vs[0], true
	}
	r.Fail(apierror.Parameter(name, "%s is given more than once; give it once.", name))
	return "", false
}

// MaxLen checks a value's length in characters.
func (r *Reader) MaxLen(name, v string, max int) bool {
	if utf8.RuneCountInString(v) > max {
		r.Fail(apierror.Parameter(name, "%s is longer than %d characters.", name, max))
		return false
	}
	return true
}

// List returns the distinct values of a comma-separated list parameter, in
// order; maxLen 0 means no per-value length check (the caller checks the
// values against a fixed set).
func (r *Reader) List(name string, fullOnly bool, maxLen int) []string {
	var raw []string
	for _, v := range r.values(name, fullOnly) {
		raw = append(raw, strings.Split(v, ",")...)
	}
	if len(raw) > MaxListValues {
		r.Fail(apierror.Parameter(name, "%s takes at most %d comma-separated values.", name, MaxListValues))
		return nil
	}
	var out []string
	for _, v := range raw {
		if maxLen > 0 && utf8.RuneCountInString(v) > maxLen {
			r.Fail(apierror.Parameter(name, "Each value of %s is at most %d characters.", name, maxLen))
			return nil
		}
		v = strings.TrimSpace(v)
		if v == "" {
			r.Fail(apierror.Parameter(name, "%s has a blank value between its commas.", name))
			return nil
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// WholeNumber reads digits as a number no larger than max (larger numbers,
// however long, read as max); valid is false for anything but digits.
func WholeNumber(s string, max int) (n int, valid bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	s = strings.TrimLeft(s, "0")
	if len(s) > len(strconv.Itoa(max)) {
		return max, true
	}
	n, _ = strconv.Atoi(s) // "" (all zeros) reads as 0
	return min(n, max), true
}
