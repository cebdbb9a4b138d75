package searchtext

import (
	"slices"
	"testing"
)

func TestSymbolNames(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"Modern C++ (C++17) and c++", []string{"C++", "C++17"}},
		{`"C#" -.NET f#,`, []string{"C#", ".NET", "f#"}},
		{"abc++ #tag c+ net.", nil},
		{"", nil},
	} {
		if got := SymbolNames(c.q); !slices.Equal(got, c.want) {
			t.Errorf("SymbolNames(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}
