package searchtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// marked renders a passage with its marks in brackets, for comparing.
func marked(p Passage) string {
	runes := []rune(p.Text)
	var b strings.Builder
	last := 0
	for _, m := range p.Marks {
		b.WriteString(string(runes[last:m[0]]) + "[" + string(runes[m[0]:m[1]]) + "]")
		last = m[1]
	}
	b.WriteString(string(runes[last:]))
	return p.Field + ": " + b.String()
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("filler words here ", 30)
	tests := []struct {
		q      string
		fields []Field
		want   string // "" for no passage
	}{
		{"decorators", []Field{{"name", "Python Tips"}, {"description", "All about the decorator pattern."}},
			"description: All about the [decorator] pattern."},
		{"Hydrology Note", []Field{{"name", "Hydrology Notes"}}, "name: [Hydrology] [Notes]"},
		{"financas", []Field{{"tagline", "Finanças pessoais"}}, "tagline: [Finanças] pessoais"},
		{"kube", []Field{{"name", "Kubernetes Operators"}}, "name: [Kubernetes] Operators"},
		{"pharmacy", []Field{{"name", "PharmacyDomain"}, {"tagline", "Pharmacy domain notes"}}, "name: [PharmacyDomain]"}, // typed: a word it begins
		{"大模型", []Field{{"name", "Agnes AI"}, {"tagline", "关于大模型的研究"}}, "tagline: 关于[大模型]的研究"},
		{"how to integrate firebase", []Field{{"description", "Integration of Firebase with apps."}},
			"description: [Integration] of [Firebase] with apps."},
		{"colour contrast ", []Field{{"description", "Alt text, captions, color contrast 4.5:1"}}, "description: Alt text, captions, [color] [contrast] 4.5:1"}, // the other spelling
		{"中药配伍禁忌", []Field{{"description", "常用中药的性味归经、功效与配伍禁忌。"}}, "description: 常用[中药]的性味归经、功效与[配伍][禁忌]。"},                                                     // Han chunks
		{"c++ templates", []Field{{"name", "Modern C++ Templates"}}, "name: Modern [C++] [Templates]"},                                                          // a name written with symbols
		{"c#", []Field{{"tagline", "Async in C#, F# and .NET (C++20 too)"}}, "tagline: Async in [C#], F# and .NET (C++20 too)"},
		{".net c++", []Field{{"tagline", "Async in C#, F# and .NET (C++20 too)"}}, "tagline: Async in C#, F# and [.NET] ([C++20] too)"},
		{"c++", []Field{{"name", "Notes on abc++ and C64"}}, ""}, // not a word apart
		{"nothing", []Field{{"name", "Other"}}, ""},
		{"", []Field{{"name", "Other"}}, ""},
		{"needle", []Field{{"description", long + "the needle is here " + long}},
			"description: …filler words here filler words here filler words here the [needle] is here" +
				strings.Repeat(" filler words here", 9) + "…"},
	}
	for _, tc := range tests {
		p, ok := Snippet(ParseQuery(tc.q), tc.fields)
		got := ""
		if ok {
			got = marked(p)
		}
		if got != tc.want {
			t.Errorf("Snippet(%q)\n got %q\nwant %q", tc.q, got, tc.want)
		}
		if ok && utf8.RuneCountInString(p.Text) > SnippetRunes {
			t.Errorf("Snippet(%q): %d runes, more than %d", tc.q, utf8.RuneCountInString(p.Text), SnippetRunes)
		}
	}
}

func FuzzSnippet(f *testing.F) {
	f.Add("decorators kube", "All about the decorator pattern on Kubernetes.")
	f.Add("大模型", "关于大模型的研究")
	f.Fuzz(func(t *testing.T, q, text string) {
		p, ok := Snippet(ParseQuery(q), []Field{{"description", text}})
		if !ok {
			return
		}
		n, last := utf8.RuneCountInString(p.Text), 0
		if n > SnippetRunes {
			t.Fatalf("%d runes, more than %d", n, SnippetRunes)
		}
		for _, m := range p.Marks {
			if m[0] < last || m[1] <= m[0] || m[1] > n {
				t.Fatalf("mark %v out of order or outside %d runes: %v", m, n, p.Marks)
			}
			last = m[1]
		}
	})
}
