package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrQueryExcludesItself is returned by Search when q asks for a word and
// excludes it too ("the -the"): nothing can match, and finding that out
// would mean reading every bundle that holds the word, so the store says so
// without reading any.
var ErrQueryExcludesItself = errors.New("store: q excludes a word it asks for")

// excludesItself reports whether q, read as websearch_to_tsquery reads it,
// asks for a word and excludes it in the same conjunction. Postgres parses
// q (no table is read), so the check follows its rules exactly: phrases,
// quotes, "or", and how words split on punctuation.
func (s *Store) excludesItself(ctx context.Context, q string) (bool, error) {
	if !strings.Contains(q, "-") {
		return false, nil // no exclusion at all
	}
	var tsq string
	if err := s.read.QueryRow(ctx, `SELECT websearch_to_tsquery('simple', $1)::text`, q).Scan(&tsq); err != nil {
		if stoppedByReadTimeout(ctx, err) {
			return false, ErrSearchTimeout
		}
		return false, fmt.Errorf("store: read q: %w", err)
	}
	return contradicts(tsq), nil
}

// contradicts reports whether a tsquery in its text form is a conjunction
// ('a' & 'b' <-> 'c' & !'d') in which a negated lexeme is also required.
// A query with an "or" (|), or whose only negations are of groups (a
// negated phrase), is not judged: it can match.
func contradicts(tsq string) bool {
	if strings.Contains(tsq, "|") {
		return false
	}
	required, excluded := map[string]bool{}, map[string]bool{}
	negate, depth, negatedDepth := false, 0, -1
	for i := 0; i < len(tsq); i++ {
		switch c := tsq[i]; c {
		case '!':
			negate = true
		case '(':
			depth++
			if negate && negatedDepth < 0 {
				negatedDepth = depth // a negated group: its lexemes are neither
			}
			negate = false
		case ')':
			if depth == negatedDepth {
				negatedDepth = -1
			}
			depth--
		case '\'':
			lexeme, end := quoted(tsq, i)
			i = end
			switch {
			case negatedDepth >= 0:
			case negate:
				excluded[lexeme] = true
			default:
				required[lexeme] = true
			}
			negate = false
		}
	}
	for lexeme := range excluded {
		if required[lexeme] {
			return true
		}
	}
	return false
}

// quoted reads the quoted lexeme that starts at s[start] (a quote inside
// it is written twice) and returns it and the index of its closing quote.
func quoted(s string, start int) (string, int) {
	var b strings.Builder
	for i := start + 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), i
	}
	return b.String(), len(s)
}
