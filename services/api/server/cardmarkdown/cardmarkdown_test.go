package cardmarkdown

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gomarkdown/markdown"
	"github.com/gomarkdown/markdown/ast"
	"github.com/gomarkdown/markdown/parser"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/wire"
)

func TestPrefersMarkdown(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                                   false,
		"*/*":                                false,
		"application/json":                   false,
		"text/markdown":                      true,
		"text/markdown, */*;q=0.1":           true,
		"application/json, text/markdown":    false,
		"text/markdown;q=0.5, application/*": false,
		"text/html, text/markdown;q=0.9":     true,
		"text/markdown;q=0":                  false,
		"garbage;;;":                         false,
	} {
		if got := PrefersMarkdown(accept); got != want {
			t.Errorf("PrefersMarkdown(%q) = %v, want %v", accept, got, want)
		}
	}
}

const testRoot = "https://raw.githubusercontent.com/acme/kb/main/docs/okf/index.md"

// The description is written again under "## Description": headings one
// level below it, links absolute against the root, markup of the text and
// raw HTML escaped, code kept as code.
func TestDescriptionMarkdown(t *testing.T) {
	const dir = "https://raw.githubusercontent.com/acme/kb/main/docs/okf/"
	tests := []struct {
		name, src, want string
	}{
		{"plain text", "A handbook of clusters.", "A handbook of clusters."},
		{"h1 nests under the card's h2", "# Intro\n\nText.", "### Intro\n\nText."},
		{"setext heading", "Intro\n=====\n\nText.", "### Intro\n\nText."},
		{"levels keep their order", "# A\n\n## B\n\n### C", "### A\n\n#### B\n\n##### C"},
		{"deep headings cap at six", "#### D\n\n##### E\n\n###### F", "###### D\n\n###### E\n\n###### F"},
		{"relative link", "See [the guide](guide.md).", "See [the guide](<" + dir + "guide.md>)."},
		{"dot-dot link", "[up](../README.md)", "[up](<https://raw.githubusercontent.com/acme/kb/main/docs/README.md>)"},
		{"bundle-absolute link", "[x](/concepts/x.md)", "[x](<" + dir + "concepts/x.md>)"},
		{"directory link names its index", "[sub](sub/)", "[sub](<" + dir + "sub/index.md>)"},
		{"fragment of the root", "[below](#usage)", "[below](<" + testRoot + "#usage>)"},
		{"absolute link kept", "[spec](https://example.org/a?b=c#d)", "[spec](<https://example.org/a?b=c#d>)"},
		{"mailto kept", "[mail](mailto:a@example.org)", "[mail](<mailto:a@example.org>)"},
		{"javascript link keeps its text only", "[click](javascript:alert(1))", "click"},
		{"data link keeps its text only", "[x](data:text/html,<b>)", "x"},
		{"image made absolute", "![diagram](img/a.png)", "![diagram](<" + dir + "img/a.png>)"},
		{"reference link", "[guide][g]\n\n[g]: guide.md", "[guide](<" + dir + "guide.md>)"},
		{"raw html inline is text", "Hi <script>alert(1)</script> there", `Hi \<script\>alert(1)\</script\> there`},
		{"raw html block is code", "<div>\n<b onclick=\"x()\">hi</b>\n</div>", "```html\n<div>\n<b onclick=\"x()\">hi</b>\n</div>\n```"},
		{"inline html in a paragraph is text", "Text <b onclick=\"x()\">hi</b>\nmore", "Text \\<b onclick=\"x()\"\\>hi\\</b\\>\nmore"},
		{"code span kept, html inside inert", "Use `<b>x</b>` here", "Use `<b>x</b>` here"},
		{"code span with backticks", "`` a`b ``", "``a`b``"},
		{"backslash escape stays escaped", `\<b> and \*not em\*`, `\<b\> and \*not em\*`},
		{"emphasis kept", "*a* **b** ~~c~~", "*a* **b** ~~c~~"},
		{"underscore inside a word stays", "snake_case_name", "snake_case_name"},
		{"references read as their characters", "&amp; &#x3c; R&D &copy", `& \< R\&D \&copy`},
		{"fenced code kept", "```go\nfmt.Println(\"<b>\")\n```", "```go\nfmt.Println(\"<b>\")\n```"},
		{"code fence info word only", "```go onload=x\nx\n```", "```go\nx\n```"},
		{"indented code becomes fenced", "Text.\n\n    code <b>\n", "Text.\n\n```\ncode <b>\n```"},
		{"list with links", "- [A](a.md): first\n- [B](b.md)", "- [A](<" + dir + "a.md>): first\n- [B](<" + dir + "b.md>)"},
		{"ordered list renumbered", "3. three\n4. four", "1. three\n2. four"},
		{"quote with heading", "> # Q\n> text", "> ### Q\n>\n> text"},
		{"text that would start a block", "a\n\\- b\n\\# c\n1\\. d", "a\n\\- b\n\\# c\n1\\. d"},
		{"thematic break", "a\n\n---\n\nb", "a\n\n* * *\n\nb"},
		{"empty", "  \n ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := descriptionMarkdown(tt.src, testRoot, descriptionHeadingDepth); got != tt.want {
				t.Errorf("descriptionMarkdown(%q)\n got %q\nwant %q", tt.src, got, tt.want)
			}
		})
	}
}

// A card's own fields are text: whatever they hold, they make no markup.
func TestCardMarkdownEscapesFields(t *testing.T) {
	lang, state := "<b>Go</b>", "active"
	c := wire.Card{
		ID: "acme-kb-0123456789", Name: "<script>alert(1)</script> `x` # [a](b)", Tagline: "- not a list *em*",
		OKFVersion: "0.2", Type: "<svg/onload=alert(1)>", Concepts: 1,
		Source:      wire.BundleSource{Origin: "code_host", Via: "sweep", URL: "https://github.com/acme/kb", Path: "docs/okf/index.md"},
		Repo:        &wire.RepoSignal{Language: &lang, State: &state},
		IndexURL:    testRoot,
		PageURL:     "https://okf.example/b/acme-kb-0123456789",
		API:         "https://okf.example/api/bundles/acme-kb-0123456789",
		Description: "# Title\n\n<img src=x onerror=alert(1)>\n\n[rel](x.md)",
		ConceptList: []wire.Concept{{Name: "]](javascript:x) <i>", URL: "https://raw.githubusercontent.com/acme/kb/main/docs/okf/x.md", Summary: "# not a heading"}},
	}
	md := Card(c)
	for _, want := range []string{
		"# \\<script\\>alert(1)\\</script\\> \\`x\\` \\# \\[a\\](b)\n",
		"> \\- not a list \\*em\\*\n",
		"- type: \\<svg/onload=alert(1)\\>\n",
		"\\<b\\>Go\\</b\\>",
		"- okf_version: 0.2\n",
		"## Description\n\n### Title\n\n\\<img src=x onerror=alert(1)\\>\n\n[rel](<https://raw.githubusercontent.com/acme/kb/main/docs/okf/x.md>)\n",
		"- [\\]\\](javascript:x) \\<i\\>](<https://raw.githubusercontent.com/acme/kb/main/docs/okf/x.md>): \\# not a heading\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("card lacks %q:\n%s", want, md)
		}
	}
	if problems := cardMarkupProblems(md); len(problems) > 0 {
		t.Errorf("%v\n%s", problems, md)
	}
}

// cardMarkupProblems parses a markdown card as a GFM-like reader would and
// returns what the card must never hold: raw HTML, a heading other than
// the card's own above level 3, a link that is not absolute.
func cardMarkupProblems(md string) []string {
	var out []string
	doc := markdown.Parse([]byte(md), parser.NewWithExtensions(parser.CommonExtensions))
	h1 := 0
	ast.WalkFunc(doc, func(n ast.Node, entering bool) ast.WalkStatus {
		if !entering {
			return ast.GoToNext
		}
		switch n := n.(type) {
		case *ast.HTMLSpan, *ast.HTMLBlock:
			out = append(out, fmt.Sprintf("raw HTML %q", n.AsLeaf().Literal))
		case *ast.Heading:
			text := plainText(n)
			switch {
			case n.Level == 1:
				h1++
			case n.Level == 2 && (text == "Description" || text == "Concepts"):
			case n.Level < 3:
				out = append(out, fmt.Sprintf("heading %q at level %d", text, n.Level))
			}
		case *ast.Link:
			if !absoluteDestination(string(n.Destination)) {
				out = append(out, fmt.Sprintf("link to %q", n.Destination))
			}
		case *ast.Image:
			if !absoluteDestination(string(n.Destination)) {
				out = append(out, fmt.Sprintf("image of %q", n.Destination))
			}
		}
		return ast.GoToNext
	})
	if h1 != 1 {
		out = append(out, fmt.Sprintf("%d level-1 headings, want the card's one", h1))
	}
	return out
}

// absoluteDestination reports whether a link's destination is a URL a
// reader can follow from anywhere: http(s) with a host, or mailto. A bare
// address the reader's autolinker found in text (ftp://, www.) is text the
// card wrote as text, so it counts too.
func absoluteDestination(d string) bool {
	u, err := url.Parse(d)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ftp", "file":
		return u.Host != "" || u.Scheme == "file"
	case "mailto":
		return true
	}
	return false
}

func TestAbsoluteLink(t *testing.T) {
	tests := []struct {
		dest, want string
		ok         bool
	}{
		{"x.md", "https://raw.githubusercontent.com/acme/kb/main/docs/okf/x.md", true},
		{"./a/b.md#c", "https://raw.githubusercontent.com/acme/kb/main/docs/okf/a/b.md#c", true},
		{"/y.md", "https://raw.githubusercontent.com/acme/kb/main/docs/okf/y.md", true},
		{"../../../../../../../etc", "https://raw.githubusercontent.com/etc", true},
		{"//cdn.example/x.js", "https://cdn.example/x.js", true},
		{"https://a.example/b c", "https://a.example/b%20c", true},
		{"HTTPS://A.example/", "HTTPS://A.example/", true},
		{"http:no-host", "", false},
		{"javascript:alert(1)", "", false},
		{"JavaScript:alert(1)", "", false},
		{"vbscript:x", "", false},
		{"data:text/html,x", "", false},
		{"file:///etc/passwd", "", false},
		{"", "", false},
		{"%zz", "", false},
		{strings.Repeat("a", 5000), "", false},
	}
	for _, tt := range tests {
		got, ok := absoluteLink(tt.dest, testRoot)
		if got != tt.want || ok != tt.ok {
			t.Errorf("absoluteLink(%.40q) = %q, %v; want %q, %v", tt.dest, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := absoluteLink("x.md", "/relative/base"); ok {
		t.Error("a relative base resolved a link")
	}
}

func TestSafeLineStart(t *testing.T) {
	for in, want := range map[string]string{
		"text":      "text",
		"- item":    `\- item`,
		"+ item":    `\+ item`,
		"1. first":  `1\. first`,
		"12) first": `12\) first`,
		"2024 was":  "2024 was",
		"===":       `\===`,
		"# h":       `\# h`,
		": term":    `\: term`,
		"":          "",
	} {
		if got := safeLineStart(in); got != want {
			t.Errorf("safeLineStart(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMdText(t *testing.T) {
	for in, want := range map[string]string{
		"OKF Field Guide":           "OKF Field Guide",
		"snake_case and _em_":       `snake_case and \_em\_`,
		"C# guide":                  "C# guide",
		"guide #":                   `guide \#`,
		"# heading":                 `\# heading`,
		"- item":                    "- item",
		"1. first":                  "1. first",
		"> quote":                   `\> quote`,
		"a\nb\n# c":                 `a b \# c`,
		"<b>&amp;</b>":              `\<b\>\&amp;\</b\>`,
		"a | b ~~c~~ \\":            `a \| b \~\~c\~\~ \\`,
		"ünïcode_wörds & more":      "ünïcode_wörds & more",
		"tinyco/ops-runbooks · okf": "tinyco/ops-runbooks · okf",
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
}

// The card as markdown, whatever its fields and description hold, has no
// raw HTML, no heading of its own level from the bundle, and only absolute
// links; the escaped fields read back as the text they were.
func FuzzCardMarkdown(f *testing.F) {
	for _, seed := range []struct{ name, tagline, desc, concept string }{
		{"OKF Field Guide", "A guide", "# Intro\n\nSee [x](x.md).", "X"},
		{"<script>alert(1)</script>", "- a", "<div>\n*x*\n</div>\n\n`<b>`", "]](javascript:x)"},
		{"# h", "> q", "Setext\n===\n\n> # q\n> - [a](/b)\n\n1. x\n   ```\n   code\n   ```", "`x`"},
		{"a_b_", "&amp;", "[a]: javascript:x\n\n[link][a] ![i](data:x) <https://a.example> www.b.example", "*"},
		{"\\", "~~", "    indented\n\n---\n\n- - -\n\n***bold em***\n\n<!-- c -->\n\n| a | b |\n|---|---|", "|"},
	} {
		f.Add(seed.name, seed.tagline, seed.desc, seed.concept)
	}
	f.Fuzz(func(t *testing.T, name, tagline, desc, concept string) {
		if len(desc) > 4000 {
			return // descriptions are capped at 1,000 characters
		}
		c := wire.Card{
			ID: "acme-kb-0123456789", Name: name, Tagline: tagline, OKFVersion: "0.1", Type: concept,
			Source:      wire.BundleSource{Origin: "code_host", Via: "sweep", URL: "https://github.com/acme/kb", Path: "docs/okf/index.md"},
			IndexURL:    testRoot,
			PageURL:     "https://okf.example/b/acme-kb-0123456789",
			API:         "https://okf.example/api/bundles/acme-kb-0123456789",
			Description: desc,
			ConceptList: []wire.Concept{{Name: concept, URL: testRoot[:strings.LastIndex(testRoot, "/")+1] + "x.md", Summary: tagline}},
		}
		md := Card(c)
		if problems := cardMarkupProblems(md); len(problems) > 0 {
			t.Fatalf("%v\n%s", problems, md)
		}
		if utf8.ValidString(name) && utf8.ValidString(tagline) && utf8.ValidString(desc) && utf8.ValidString(concept) && !utf8.ValidString(md) {
			t.Fatalf("valid UTF-8 in, invalid out:\n%q", md)
		}
		// A field reads back as itself: a paragraph of the escaped name is
		// the name's words.
		if want := oneLine(name); want != "" && strings.IndexFunc(want, unicode.IsControl) < 0 && utf8.ValidString(want) {
			doc := markdown.Parse([]byte(mdText(name)), parser.NewWithExtensions(parser.CommonExtensions&^parser.Autolink))
			if got := strings.Join(strings.Fields(plainText(doc)), " "); got != want {
				t.Fatalf("name %q reads back as %q (written %q)", want, got, mdText(name))
			}
		}
	})
}

// The hostile corpus's surfaces, indexed as the sweep and import index
// them and written as markdown cards (TestCardAsMarkdown in package server
// checks the HTTP route that answers with them): no raw HTML, no heading of the
// card's level from the bundle, only absolute links, no terminal escape.
func TestCardMarkdownHostileSurfaces(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"markup", "terminal", "bidi"} {
		data, err := os.ReadFile(filepath.Join("../../../../testdata/hostile/surfaces", name, "index.md"))
		if err != nil {
			t.Fatal(err)
		}
		in, err := indexer.FromRepo(data, source.Repo{Owner: "surfaces", Name: name, Path: "index.md"}, indexer.RepoInfo{}, time.Now())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		card := in.Card
		card.API = "https://okf.example/api/bundles/" + in.ID
		md := Card(card)
		if problems := cardMarkupProblems(md); len(problems) > 0 {
			t.Errorf("%s: %v\n%s", name, problems, md)
		}
		if i := strings.IndexFunc(md, func(r rune) bool { return r == 0x1b || r == 0x07 || r == 0x9b }); i >= 0 {
			t.Errorf("%s: a terminal escape at %d:\n%q", name, i, md)
		}
		if name == "markup" && (!strings.Contains(md, "### search\n") || !strings.Contains(md, "#### card\n")) {
			t.Errorf("markup: the root's headings are not nested under ## Description:\n%s", md)
		}
	}
}
