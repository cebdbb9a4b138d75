package okf

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTitleFromFrontmatter(t *testing.T) {
	// Quitetall/tritium: fm title "Tritium", H1 "Tritium — Knowledge Bundle".
	if got := mustParseCorpus(t, "Quitetall__tritium/okf/index.md").Name; got != "Tritium" {
		t.Errorf("name = %q, want the frontmatter title", got)
	}
	// agnes-ai-models: fm title differs from the H1.
	if got := mustParseCorpus(t, "awesome-flexloop__awesome-okf/bundles/agnes-ai/agnes-ai-models/index.md").Name; got != "AgnesAI 模型API网关" {
		t.Errorf("name = %q", got)
	}
	// franklinbaldo/leizilla has no '# ' heading at all.
	if got := mustParseCorpus(t, "franklinbaldo__leizilla/docs/okf/index.md").Name; got != "Leizilla Knowledge Bundle" {
		t.Errorf("name = %q", got)
	}
	card := mustParse(t, "---\nokf_version: 0.1\ntitle: >\n  Folded\n  title\n---\n# H1\n")
	if card.Name != "Folded title" {
		t.Errorf("name = %q", card.Name)
	}
}

func TestNameIsFirstH1EvenWhenASection(t *testing.T) {
	// DESIGN takes the first non-empty H1 as the name; only listing headings
	// fall back. These roots open with section headings.
	for key, want := range map[string]string{
		"123wowow123__chronopin/docs/okf/index.md":           "Start here",
		"chris-page-gov__okf-uk-legislation/bundle/index.md": "Scope",
		"secondhomelab__secondhome-okf/bundle/index.md":      "Venue",
		"_unattributed__findstring-62526408826/index.md":     "agents",
	} {
		card := mustParseCorpus(t, key)
		if card.Name != want || card.NameFellBack {
			t.Errorf("%s: name = %q (fell back %v), want %q", key, card.Name, card.NameFellBack, want)
		}
	}
	card := parseBody(t, "Intro.\n\n## Second level\n\n#\n\n# First\n\n# Second\n")
	if card.Name != "First" {
		t.Errorf("name = %q, want the first non-empty H1", card.Name)
	}
	if card := parseBody(t, "Setext title\n============\n"); card.Name != "Setext title" {
		t.Errorf("setext: name = %q", card.Name)
	}
}

func TestListingHeadingFallsBack(t *testing.T) {
	for key, want := range map[string]string{
		"copperbox__okf-mcp/okf-bundle/index.md":                                             "copperbox/okf-mcp · okf-bundle",
		"shinzui__okf-profiles/docs/adr/index.md":                                            "shinzui/okf-profiles · docs/adr",
		"shinzui__okf-profiles/fixtures/architecture-decisions-invalid/nested-path/index.md": "shinzui/okf-profiles · fixtures/architecture-decisions-invalid/nested-path",
		"_unattributed__findstring-59527638711/index.md":                                     "_unattributed/findstring-59527638711",
		"claudiobottari__databricks-okf/index.md":                                            "claudiobottari/databricks-okf",
		"essamrafie__okf-converter/okf-bundle/index.md":                                      "essamrafie/okf-converter · okf-bundle",
	} {
		card := mustParseCorpus(t, key)
		if card.Name != want || !card.NameFellBack {
			t.Errorf("%s: name = %q (fell back %v), want %q", key, card.Name, card.NameFellBack, want)
		}
	}
	for _, h1 := range []string{"Index", "FILES", "Table of Contents", "Contents:", "bundle  index", "Knowledge Bundle Index", "Subdirectories", "Concepts", "Wiki Index", "Directories."} {
		card := parseBody(t, "# "+h1+"\n\n- [A](a.md)\n")
		if card.Name != "example.com · kb/okf" || !card.NameFellBack {
			t.Errorf("%q: name = %q (fell back %v)", h1, card.Name, card.NameFellBack)
		}
	}
	// No heading at all; a domain bundle at the host root.
	card, err := Parse([]byte("---\nokf_version: 0.1\n---\nJust text.\n"), Root{URL: "https://example.org/index.md", Label: "example.org"})
	if err != nil || card.Name != "example.org" || !card.NameFellBack {
		t.Errorf("card = %+v, %v", card, err)
	}
	// Headings that merely contain a listing word are names.
	for _, h1 := range []string{"Index of Bitcoin tables", "Knowledge Bundle: TokenBel Wiki", "OKF Knowledge Set"} {
		if card := parseBody(t, "# "+h1+"\n"); card.Name != h1 || card.NameFellBack {
			t.Errorf("%q: name = %q", h1, card.Name)
		}
	}
}

// Real generators write the listing heading in their user's language; a
// heading that is only such a word falls back to the owner/repo · dir name,
// as the English ones do. Named cases, one per language family the issue
// saw, plus case, a trailing colon (ASCII and full-width) and the Turkish
// dotted capital.
func TestLocalizedListingHeadings(t *testing.T) {
	for _, h1 := range []string{
		"Dateien", "Archivos", "Fichiers", "Arquivos", "File", "文件", "文件列表", "ファイル", "파일",
		"Inhaltsverzeichnis", "Table des matières", "Índice", "Sumário", "目录", "目次", "파일 목록",
		"DATEIEN", "archivos:", "ファイル：", "İçindekiler", "Содержание",
	} {
		card := parseBody(t, "# "+h1+"\n\n- [A](a.md)\n")
		if card.Name != "example.com · kb/okf" || !card.NameFellBack {
			t.Errorf("%q: name = %q (fell back %v), want the fallback name", h1, card.Name, card.NameFellBack)
		}
	}
	// A title in another language that is not only a listing word stays.
	for _, h1 := range []string{"Dateien des Projekts Kiel", "Archivos de la biblioteca", "文件管理指南", "ファイル形式の手引き"} {
		if card := parseBody(t, "# "+h1+"\n"); card.Name != h1 || card.NameFellBack {
			t.Errorf("%q: name = %q, want it kept", h1, card.Name)
		}
	}
}

func TestTitleListingHeadingGivesWayToH1(t *testing.T) {
	card := mustParse(t, "---\nokf_version: 0.1\ntitle: Index\n---\n# Real name\n")
	if card.Name != "Real name" || card.NameFellBack {
		t.Errorf("name = %q", card.Name)
	}
	card = mustParse(t, "---\nokf_version: 0.1\ntitle: Index\n---\n# Files\n")
	if card.Name != "example.com · kb/okf" || !card.NameFellBack {
		t.Errorf("name = %q", card.Name)
	}
	card = mustParse(t, "---\nokf_version: 0.1\ntitle: [a, list]\n---\n# From H1\n")
	if card.Name != "From H1" {
		t.Errorf("non-scalar title: name = %q", card.Name)
	}
}

func TestH1InlineMarkupIsPlainText(t *testing.T) {
	card := parseBody(t, "# The *OKF* `spec`, [explained](x.md) ![logo](l.png) <b>now</b>\n")
	if card.Name != "The OKF spec, explained now" {
		t.Errorf("name = %q", card.Name)
	}
}

func TestH1InCodeFenceIgnored(t *testing.T) {
	card := parseBody(t, "```\n# Not a title\n```\n\n    # Indented code\n\n> # Quoted title\n")
	if card.Name != "Quoted title" {
		t.Errorf("name = %q", card.Name)
	}
	card = parseBody(t, "~~~md\n# Not a title\n~~~\n")
	if !card.NameFellBack {
		t.Errorf("name = %q, want the fallback", card.Name)
	}
}

func TestTaglineIsFirstLineOfDescription(t *testing.T) {
	card := mustParse(t, "---\nokf_version: 0.1\ndescription: |\n\n  First line.  \n  Second line.\n---\n")
	if card.Tagline != "First line." {
		t.Errorf("tagline = %q", card.Tagline)
	}
	card = mustParse(t, "---\nokf_version: 0.1\ndescription: [not, text]\n---\n")
	if card.Tagline != "" {
		t.Errorf("tagline = %q", card.Tagline)
	}
	card = mustParse(t, "---\nokf_version: 0.1\ndescription: "+strings.Repeat("é", 1200)+"\n---\n")
	if utf8.RuneCountInString(card.Tagline) != MaxDescriptionRunes {
		t.Errorf("tagline has %d runes", utf8.RuneCountInString(card.Tagline))
	}
	// The rite wiki declares only okf_version and description.
	if got := mustParseCorpus(t, "_unattributed__findstring-59527638711/index.md").Tagline; got != "rite Experience Wiki — プロジェクト固有の経験則 bundle（OKF v0.2 準拠）" {
		t.Errorf("tagline = %q", got)
	}
}

func TestTypeFromFrontmatter(t *testing.T) {
	if got := mustParseCorpus(t, "awesome-flexloop__awesome-okf/bundles/agnes-ai/index.md").Type; got != "group-index" {
		t.Errorf("type = %q", got)
	}
	if got := parseBody(t, "# T\n").Type; got != "" {
		t.Errorf("type = %q, want empty", got)
	}
}

func TestDescriptionIsBodyAsWritten(t *testing.T) {
	card := parseBody(t, "\n\n   \n# Title\n\nSome **bold** [link](x.md).\n\n\n")
	if card.Description != "# Title\n\nSome **bold** [link](x.md)." {
		t.Errorf("description = %q", card.Description)
	}
	if card := parseBody(t, "\n \n"); card.Description != "" {
		t.Errorf("description = %q, want empty", card.Description)
	}
}

func TestDescriptionCappedAtRuneBoundary(t *testing.T) {
	for _, r := range []string{"a", "é", "語", "🤖"} {
		card := parseBody(t, strings.Repeat(r, 1500))
		if utf8.RuneCountInString(card.Description) != MaxDescriptionRunes || card.Description != strings.Repeat(r, MaxDescriptionRunes) {
			t.Errorf("%s: description has %d runes, valid %v", r, utf8.RuneCountInString(card.Description), utf8.ValidString(card.Description))
		}
	}
	card := parseBody(t, strings.Repeat("x", 999)+"🤖🤖")
	if !strings.HasSuffix(card.Description, "x🤖") || utf8.RuneCountInString(card.Description) != 1000 {
		t.Errorf("description ends %q", card.Description[len(card.Description)-8:])
	}
}

func TestInvalidUTF8AndNULsAreCleaned(t *testing.T) {
	src := "---\nokf_version: \"0.1\"\ntitle: \"bad \xff\xfe title\"\ndescription: nul\x00here\ntype: t\x00y\n---\n# H\xc3\n\n- [Na\x00me \xe2\x82](a\x00.md) - su\xffmm\x00ary\n- [Cut](b.md) \xf0\x9f\n"
	card := mustParse(t, src)
	if card.Name != "bad \uFFFD title" || card.Tagline != "nulhere" || card.Type != "ty" {
		t.Errorf("card = %+v", card)
	}
	if len(card.ConceptList) != 2 || card.ConceptList[0] != (Concept{"Name \uFFFD", "https://example.com/kb/okf/a.md", "su\uFFFDmmary"}) {
		t.Errorf("concepts = %+v", card.ConceptList)
	}
	// The caller's root fields are cleaned too.
	card, err := Parse([]byte("---\nokf_version: 0.1\n---\n"), Root{URL: "https://h/index.md", Label: "o\x00/r\xff"})
	if err != nil || card.Name != "o/r\uFFFD" {
		t.Errorf("name = %q, %v", card.Name, err)
	}
}

func TestMojibakeIsKept(t *testing.T) {
	// gaia-research/gaia-skill-tree double-encoded an em dash; it is valid
	// UTF-8 and stays as written.
	card := mustParseCorpus(t, "gaia-research__gaia-skill-tree/docs/okf/index.md")
	if card.Concepts != 230 {
		t.Fatalf("concepts = %d", card.Concepts)
	}
	for _, c := range card.ConceptList {
		if c.Name == "Autonomous Scientific Discovery" {
			if !strings.Contains(c.Summary, "a written report â€” completing a full research cycle") {
				t.Errorf("summary = %q", c.Summary)
			}
			return
		}
	}
	t.Errorf("concept not listed: %+v", card.ConceptList)
}
