package store

import "testing"

func TestContradicts(t *testing.T) {
	tests := []struct {
		tsq  string
		want bool
	}{
		{`'the' & !'the'`, true},
		{`'a' & 'the' & !'the'`, true},
		{`'the' <-> 'guide' & !'guide'`, true},
		{`'it''s' & !'it''s'`, true},
		{`'the' & !'a'`, false},
		{`'the' | 'x' & !'the'`, false},
		{`'the' & !( 'the' <-> 'guide' )`, false},
		{`!'the'`, false},
		{`'the'`, false},
		{``, false},
		{`'it''s' & !'it'`, false},
	}
	for _, tc := range tests {
		if got := contradicts(tc.tsq); got != tc.want {
			t.Errorf("contradicts(%q) = %v, want %v", tc.tsq, got, tc.want)
		}
	}
}

func FuzzContradicts(f *testing.F) {
	for _, s := range []string{`'the' & !'the'`, `'it''s' & !( 'a' <-> 'b' )`, `'`, `!(`, `)))`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { contradicts(s) })
}
