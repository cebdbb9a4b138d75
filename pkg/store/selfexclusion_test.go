package store

import (
	"testing"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

func TestExcludesItself(t *testing.T) {
	tests := []struct {
		q         string
		want      bool
		wantTerms int // terms left to look for
	}{
		{`the -the`, true, 0},
		{`Guide -guide`, true, 0},
		{`"the guide" -"the guide"`, true, 0},
		{`kubernetes the -the`, false, 1},
		{`the -a`, false, 1},
		{`the -"the guide"`, false, 1},
		{`"the guide" -guide`, true, 0},
		{`the-guide -guide`, true, 0},
		{`guide the -the`, false, 1}, // "the" is a stop word: not required
		{`"the guide" -the`, true, 0},
		{`-the`, false, 0},
		{`the`, false, 1},
		{``, false, 0},
	}
	for _, tc := range tests {
		q := searchtext.ParseQuery(tc.q)
		if got := excludesItself(q); got != tc.want {
			t.Errorf("excludesItself(%q) = %v, want %v", tc.q, got, tc.want)
		}
		if got := len(wanted(q)); got != tc.wantTerms {
			t.Errorf("wanted(%q) has %d terms, want %d", tc.q, got, tc.wantTerms)
		}
	}
}
