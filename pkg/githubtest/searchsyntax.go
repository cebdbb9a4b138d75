package githubtest

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// term is one space-separated piece of a search query.
type term struct {
	key, value string // key "" = free text
	quoted     bool
}

// parseTerms splits a GitHub search query into free words, "quoted phrases"
// and key:value qualifiers (only the keys in known count as qualifiers;
// anything else is text, as on GitHub).
func parseTerms(q string, known map[string]bool) []term {
	var out []term
	for i := 0; i < len(q); {
		for i < len(q) && q[i] == ' ' {
			i++
		}
		if i >= len(q) {
			break
		}
		if q[i] == '"' {
			j := strings.IndexByte(q[i+1:], '"')
			if j < 0 {
				j = len(q) - i - 1
			}
			out = append(out, term{value: q[i+1 : i+1+j], quoted: true})
			i += j + 2
			continue
		}
		j := strings.IndexByte(q[i:], ' ')
		if j < 0 {
			j = len(q) - i
		}
		word := q[i : i+j]
		i += j
		if k, v, ok := strings.Cut(word, ":"); ok && known[strings.ToLower(k)] {
			out = append(out, term{key: strings.ToLower(k), value: strings.Trim(v, `"`)})
			continue
		}
		if word == "AND" || word == "OR" || word == "NOT" {
			continue // boolean operators are not modelled; AND is implied
		}
		out = append(out, term{value: word})
	}
	return out
}

// intRange parses N, >N, >=N, <N, <=N, N..M, N..*, *..M.
func intRange(v string) (func(int) bool, bool) {
	lo, hi, ok := rangeBounds(v, func(s string) (float64, bool) {
		n, err := strconv.Atoi(s)
		return float64(n), err == nil
	})
	return func(n int) bool { return float64(n) >= lo && float64(n) <= hi }, ok
}

// timeRange is intRange for dates: YYYY-MM-DD (a whole UTC day) or RFC 3339.
func timeRange(v string) (func(time.Time) bool, bool) {
	lo, hi, ok := rangeBounds(v, func(s string) (float64, bool) {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			return float64(t.Unix()), true
		}
		if t, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
			return float64(t.Unix()), true
		}
		t, err := time.Parse("2006-01-02", s)
		return float64(t.Unix()), err == nil
	})
	// A date-only upper bound covers its whole day.
	return func(t time.Time) bool {
		u := float64(t.Unix())
		return u >= lo && u <= hi
	}, ok
}

// rangeBounds turns the range syntax into inclusive [lo, hi].
func rangeBounds(v string, parse func(string) (float64, bool)) (lo, hi float64, ok bool) {
	const inf = 1e18
	dateOnly := func(s string) bool { return len(s) == 10 && strings.Count(s, "-") == 2 }
	upper := func(s string) (float64, bool) {
		x, ok := parse(s)
		if ok && dateOnly(s) {
			x += 86400 - 1
		}
		return x, ok
	}
	switch {
	case strings.HasPrefix(v, ">="):
		lo, ok = parse(v[2:])
		return lo, inf, ok
	case strings.HasPrefix(v, "<="):
		hi, ok = upper(v[2:])
		return -inf, hi, ok
	case strings.HasPrefix(v, ">"):
		lo, ok = upper(v[1:])
		return lo + 1, inf, ok
	case strings.HasPrefix(v, "<"):
		hi, ok = parse(v[1:])
		return -inf, hi - 1, ok
	}
	if a, b, found := strings.Cut(v, ".."); found {
		lo, hi = -inf, inf
		okA, okB := true, true
		if a != "*" {
			lo, okA = parse(a)
		}
		if b != "*" {
			hi, okB = upper(b)
		}
		return lo, hi, okA && okB
	}
	lo, ok = parse(v)
	hi, _ = upper(v)
	return lo, hi, ok
}

// containsWord reports whether word (lower case) occurs in text (lower
// case) between word boundaries; isWord says which runes belong to words.
func containsWord(text, word string, isWord func(rune) bool) bool {
	if word == "" {
		return true
	}
	for off := 0; ; {
		i := strings.Index(text[off:], word)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(word)
		before := start == 0 || !isWord(lastRune(text[:start]))
		after := end == len(text) || !isWord(firstRune(text[end:]))
		if before && after {
			return true
		}
		off = start + 1
	}
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// alnum: names and descriptions split on '-', '_', '.' (repository search).
func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// codeWord: code search keeps '_' inside identifiers (okf_version is one token).
func codeWord(r rune) bool { return alnum(r) || r == '_' }

func compareFold(a, b string) int {
	return strings.Compare(strings.ToLower(a), strings.ToLower(b))
}
