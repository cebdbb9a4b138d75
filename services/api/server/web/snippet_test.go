package web

import (
	"html"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/wire"
)

func TestMarkSpans(t *testing.T) {
	for _, c := range []struct {
		text       string
		highlights [][2]int
		want       string
	}{
		{"A guide to kubernetes", [][2]int{{2, 7}, {11, 21}}, "A <mark>guide</mark> to <mark>kubernetes</mark>"},
		{"café ☕ <b>x</b>", [][2]int{{0, 4}, {7, 15}}, "<mark>café</mark> ☕ <mark>&lt;b&gt;x&lt;/b&gt;</mark>"},
		{"<script>alert(1)</script>", nil, "&lt;script&gt;alert(1)&lt;/script&gt;"},
		// Bad spans cost their highlight, never the text.
		{"abcdef", [][2]int{{3, 2}, {1, 2}, {0, 1}, {4, 4}, {5, 99}, {-1, 3}}, "a<mark>b</mark>cdef"},
	} {
		if got := string(markSpans(c.text, c.highlights)); got != c.want {
			t.Errorf("markSpans(%q, %v) = %q, want %q", c.text, c.highlights, got, c.want)
		}
	}
	if v := snippetView(&wire.Snippet{Field: "name", Text: "x", Highlights: [][2]int{}}); v != nil {
		t.Errorf("a name's snippet is shown again: %+v", v)
	}
}

// FuzzMarkSpans: whatever the text and spans, the HTML holds no markup but
// the marks, and read back it is the text.
func FuzzMarkSpans(f *testing.F) {
	f.Add("A guide to <kubernetes> & \"operators\"", 2, 7, 11, 23)
	f.Add("naïve café ☕", 0, 5, 5, 12)
	f.Fuzz(func(t *testing.T, text string, a, b, c, d int) {
		if !strings.Contains(text, "\x00") && strings.ToValidUTF8(text, "\uFFFD") == text {
			out := string(markSpans(text, [][2]int{{a, b}, {c, d}}))
			bare := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(out)
			if strings.ContainsAny(bare, "<>\"'") {
				t.Fatalf("markSpans(%q) = %q: markup besides the marks", text, out)
			}
			if got := html.UnescapeString(bare); got != text {
				t.Fatalf("markSpans(%q) = %q: reads back as %q", text, out, got)
			}
		}
	})
}
