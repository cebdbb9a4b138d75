package store

import (
	"errors"
	"slices"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

// ErrQueryExcludesItself is returned by Search when q excludes every term it
// asks for ("the -the"): nothing can match, and finding that out would mean
// reading every bundle that holds the words, so the store says so without
// reading any.
var ErrQueryExcludesItself = errors.New("store: q excludes a word it asks for")

// excludesItself reports whether every term of q is also excluded by it.
func excludesItself(q searchtext.Query) bool {
	return len(q.Terms) > 0 && len(wanted(q)) == 0
}

// wanted are the terms of q that q does not also exclude: a term asked for
// and excluded ("kubernetes guide -guide", or a phrase holding an excluded
// word: "the-guide -guide") would make every bundle holding it a candidate
// that no bundle passes, so it is left out, as if only excluded.
func wanted(q searchtext.Query) []searchtext.Term {
	var out []searchtext.Term
	for _, t := range q.Terms {
		if !slices.ContainsFunc(q.Excluded, func(x searchtext.Term) bool { return contradicts(t, x) }) {
			out = append(out, t)
		}
	}
	return out
}

// contradicts reports whether every bundle holding t holds the excluded x:
// x is t, or x is one word that the phrase t holds.
func contradicts(t, x searchtext.Term) bool {
	if x.Phrase == t.Phrase && slices.Equal(x.Words, t.Words) {
		return true
	}
	return !x.Phrase && len(x.Words) == 1 && (t.Phrase || len(t.Words) == 1) && slices.Contains(t.Words, x.Words[0])
}
