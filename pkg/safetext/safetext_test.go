package safetext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Plain name", "Plain name"},
		{"  spaced \t out\n", "spaced out"},
		{"esc\x1b[31mred\x1b[0m", "esc[31mred[0m"},
		{"osc\x1b]0;title\x07bel", "osc]0;titlebel"},
		{"c1\u009b31mcsi", "c131mcsi"},
		{"del\x7f", "del"},
		{"nul\x00byte", "nulbyte"},
		{"bidi \u202egnp.exe\u202c", "bidi gnp.exe"},
		{"iso\u2066late\u2069 \u200fmark\u200e", "isolate mark"},
		{"zero\u200bwidth\u200c\u200d\u2060\ufeff", "zerowidth"},
		{"bad \xff\xfe utf8", "bad \uFFFD\uFFFD utf8"},
		{"Ünïcödé 文件 ✓", "Ünïcödé 文件 ✓"},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBlock(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"line one\n\tline two", "line one\n\tline two"},
		{"a\x1b[2Jb\rc", "a[2Jbc"},
		{"rtl \u202eoverride", "rtl override"},
		{"family 👨\u200d👩\u200d👧", "family 👨\u200d👩\u200d👧"},
	} {
		if got := Block(tc.in); got != tc.want {
			t.Errorf("Block(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCap(t *testing.T) {
	for _, tc := range []struct {
		in       string
		n        int
		ellipsis bool
		want     string
		cut      bool
	}{
		{"short", 10, true, "short", false},
		{"exactly", 7, true, "exactly", false},
		{"one too many", 11, true, "one too ma…", true},
		{"one too many", 11, false, "one too man", true},
		{"ééééé", 3, false, "ééé", true},
		{"word word", 6, true, "word…", true}, // no space before the ellipsis
	} {
		got, cut := Cap(tc.in, tc.n, tc.ellipsis)
		if got != tc.want || cut != tc.cut {
			t.Errorf("Cap(%q, %d, %v) = %q, %v; want %q, %v", tc.in, tc.n, tc.ellipsis, got, cut, tc.want, tc.cut)
		}
		if utf8.RuneCountInString(got) > tc.n {
			t.Errorf("Cap(%q, %d) is %d characters", tc.in, tc.n, utf8.RuneCountInString(got))
		}
	}
	if got := CapBytes("aé", 2); got != "a" {
		t.Errorf("CapBytes split a character: %q", got)
	}
}

func TestLookAlikeKey(t *testing.T) {
	same := [][]string{
		{"Field Guide", "field-guide", "FIELD_GUIDE", "Fіeld Guіde" /* Cyrillic і */},
		{"paypal", "pаypаl" /* Cyrillic а */, "PAYPAL", "Ρaypal" /* Greek Rho */},
		{"google", "g00gle", "goog1e"},
	}
	for _, group := range same {
		want := LookAlikeKey(group[0])
		for _, n := range group[1:] {
			if got := LookAlikeKey(n); got != want {
				t.Errorf("LookAlikeKey(%q) = %q, want %q (as %q)", n, got, want, group[0])
			}
		}
	}
	if LookAlikeKey("Field Guide") == LookAlikeKey("Field Notes") {
		t.Error("different names share a key")
	}
	long := strings.Repeat("\ufdfa", 500) // one character with a long skeleton
	if k := LookAlikeKey(long); len(k) > MaxLookAlikeKeyBytes || !utf8.ValidString(k) {
		t.Errorf("key of %d bytes, valid %v", len(k), utf8.ValidString(k))
	}
}

func FuzzLine(f *testing.F) {
	f.Add("name\x1b[0m\u202e\u200b")
	f.Add("  a  b \t c  ")
	f.Add("word word")
	f.Add("abcdef")
	f.Fuzz(func(t *testing.T, s string) {
		got := Line(s)
		if !utf8.ValidString(got) || strings.ContainsFunc(got, func(r rune) bool { return invisible(r) || zeroWidth(r) || r == '\n' || r == '\t' }) {
			t.Fatalf("Line(%q) = %q", s, got)
		}
		if Line(got) != got || Block(Block(s)) != Block(s) {
			t.Fatalf("not idempotent on %q", s)
		}
		for _, n := range []int{1, 2, 5, 40} {
			for _, e := range []bool{false, true} {
				w, wcut := Cap(got, n, e)
				if g, gcut := LineCap(s, n, e); g != w || gcut != wcut {
					t.Fatalf("LineCap(%q, %d, %v) = %q %v, want %q %v", s, n, e, g, gcut, w, wcut)
				}
			}
		}
	})
}
