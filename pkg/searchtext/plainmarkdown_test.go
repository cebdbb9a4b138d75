package searchtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPlainMarkdown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain words", "plain words"},
		{"# Title\n\nSome *emphasis* and **strong** text.", "Title Some emphasis and strong text."},
		{"## Heading ##\n### Third", "Heading Third"},
		{"#hashtag stays", "#hashtag stays"},
		{"* [Glossary](/glossary.md) - Beneficial-ownership terms.\n- second\n+ third", "Glossary - Beneficial-ownership terms. second third"},
		{"1. one\n2) two\n10. ten", "one two ten"},
		{"> quoted\n> > twice", "quoted twice"},
		{"![a diagram](img.png) beside [ref link][r]", "a diagram beside ref link"},
		{"[not a link] and [x](", "[not a link] and [x]("},
		{"use `okfctl lint` here", "use okfctl lint here"},
		{"```go\nfmt.Println()\n```", "fmt.Println()"},
		{"---\n***\n| a | b |\n|---|:-:|\n| 1 | 2 |", "a b 1 2"},
		{"snake_case_name and _emphasis_", "snake_case_name and emphasis"},
		{"<details><summary>More</summary>text</details>", "More text"},
		{"see <https://example.org/x> or a < b > c", "see https://example.org/x or a < b > c"},
		{`escaped \*star\* and \[bracket\]`, "escaped *star* and [bracket]"},
		{"- [ ] task\n- [x] done", "task done"},
		{"中文 **标题** 与 [链接](a.md)", "中文 标题 与 链接"},
		{"", ""},
	} {
		if got := PlainMarkdown(tc.in); got != tc.want {
			t.Errorf("PlainMarkdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzPlainMarkdown(f *testing.F) {
	for _, s := range []string{"# a\n* [b](c) `d` **e** _f_", "<a href=x>y</a>", "![", "[", "\\", "|-|", "1. x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := PlainMarkdown(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("%q became invalid UTF-8 %q", s, got)
		}
		if len(got) > len(s) || strings.ContainsAny(got, "\n\t") || strings.HasPrefix(got, " ") || strings.HasSuffix(got, " ") {
			t.Fatalf("%q -> %q", s, got)
		}
	})
}

func BenchmarkPlainMarkdown(b *testing.B) {
	desc := strings.Repeat("* [Glossary](/glossary.md) - Beneficial-ownership *terminology*: `BO`, UBO.\n", 13)
	b.SetBytes(int64(len(desc)))
	for b.Loop() {
		PlainMarkdown(desc)
	}
}
