package web

import (
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/wire"
)

// TestMarkdownSanitizes feeds the renderer what a hostile description
// would hold.
func TestMarkdownSanitizes(t *testing.T) {
	for _, c := range []struct{ src, want, never string }{
		{"# Title", "<h2", "<h1"},
		{"<script>alert(1)</script>", "", "<script"},
		{"[x](javascript:alert(1))", "x", "javascript:"},
		{"[x](JaVaScRiPt:alert(1))", "x", "alert"},
		{"[x](data:text/html,<b>)", "x", "data:"},
		{"[x](/relative)", "x", "href"},
		{"![img](https://t.example/p.png)", "", "<img"},
		{`<a href="https://e.example" onclick="x()">a</a>`, "", "onclick"},
		{"[ok](https://e.example/a?b=1&c=2)", `<a rel="nofollow ugc noopener" href="https://e.example/a?b=1&amp;c=2"`, "target"},
		{"<https://auto.example>", `<a rel="nofollow ugc noopener" href="https://auto.example"`, ""},
	} {
		got := string(Markdown(c.src))
		if !strings.Contains(got, c.want) || (c.never != "" && strings.Contains(strings.ToLower(got), strings.ToLower(c.never))) {
			t.Errorf("Markdown(%q) = %q; want %q and never %q", c.src, got, c.want, c.never)
		}
	}
}

// TestHighlighter checks that marks are added around escaped text only.
func TestHighlighter(t *testing.T) {
	for _, c := range []struct{ q, text, want string }{
		{"guide", "Field Guide <3", "Field <mark>Guide</mark> &lt;3"},
		{"a b", "a b", "a b"}, // one-letter words are not marked
		{"", "<b>", "&lt;b&gt;"},
		{"(x+y", "(x+y) xy", "(x+y) xy"}, // punctuation is no word; x and y are too short
		{"mark", "<mark>", "&lt;<mark>mark</mark>&gt;"},
		{"ünï", "ÜNÏcode", "<mark>ÜNÏ</mark>code"},
		{"c++ templates", "Modern C++ Templates", "Modern <mark>C++</mark> <mark>Templates</mark>"}, // a name written with symbols
		{"C# .net", "C#, F# and .NET", "<mark>C#</mark>, F# and <mark>.NET</mark>"},
	} {
		if got := string(NewHighlighter(c.q).Mark(c.text)); got != c.want {
			t.Errorf("q %q, %q: %q, want %q", c.q, c.text, got, c.want)
		}
	}
}

// TestLintLine checks the okfctl line of both origins, quoted for a shell.
func TestLintLine(t *testing.T) {
	repo := "acme/docs"
	for _, c := range []struct {
		card wire.Card
		want string
	}{
		{wire.Card{Source: wire.BundleSource{Repo: &repo}}, "okfctl lint --repo acme/docs index.md"},
		{wire.Card{Source: wire.BundleSource{Repo: &repo, Dir: "my docs"}}, "okfctl lint --repo acme/docs --dir 'my docs' 'my docs/index.md'"},
		{wire.Card{IndexURL: "https://d.example/okf/index.md"}, "okfctl lint --url https://d.example/okf/index.md index.md"},
		{wire.Card{IndexURL: "https://d.example/it's.md"}, `okfctl lint --url 'https://d.example/it'\''s.md' index.md`},
	} {
		if got := lintLine(c.card); got != c.want {
			t.Errorf("lintLine = %q, want %q", got, c.want)
		}
	}
}

// TestSiteParses checks that the templates parse and the assets are read.
func TestSiteParses(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"app.css", "app.js", "full.js", "icon.svg"} {
		if a, ok := s.Asset(name); !ok || len(a.Hash) != 12 || a.Type == "" {
			t.Errorf("asset %s: %+v", name, a)
		}
	}
	if !strings.Contains(string(s.OpenSearch(`https://x.example/"<`)), `template="https://x.example/&#34;&lt;/?q={searchTerms}"`) {
		t.Errorf("the OpenSearch description does not escape the base URL")
	}
}

// TestMarkdownHeadingIDsPrefixed: a description's headings make ids under
// ContentIDPrefix, never an id of the page's own (search, lint, ...).
func TestMarkdownHeadingIDsPrefixed(t *testing.T) {
	got := string(Markdown("# search\n\ntext\n\n## lint\n"))
	for _, want := range []string{`id="md-search"`, `id="md-lint"`} {
		if !strings.Contains(got, want) {
			t.Errorf("Markdown lacks %s: %s", want, got)
		}
	}
	for _, bad := range []string{`id="search"`, `id="lint"`} {
		if strings.Contains(got, bad) {
			t.Errorf("Markdown makes the page's own %s: %s", bad, got)
		}
	}
}
