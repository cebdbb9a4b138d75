package okf

import (
	"errors"
	"strings"
	"testing"
)

// testRoot is the root used by the synthetic tests: a domain bundle.
var testRoot = Root{URL: "https://example.com/kb/okf/index.md", Label: "example.com", Dir: "kb/okf"}

// parseBody parses a bundle root made of a minimal frontmatter and body.
func parseBody(t *testing.T, body string) Card {
	t.Helper()
	return mustParse(t, "---\nokf_version: \"0.2\"\n---\n"+body)
}

// mustParse parses src with testRoot and fails on error.
func mustParse(t *testing.T, src string) Card {
	t.Helper()
	card, err := Parse([]byte(src), testRoot)
	if err != nil {
		t.Fatalf("Parse: %v\ninput: %q", err, src)
	}
	checkInvariants(t, card)
	return card
}

// wantNotBundle asserts that src is not a bundle root.
func wantNotBundle(t *testing.T, src string) {
	t.Helper()
	card, err := Parse([]byte(src), testRoot)
	if !errors.Is(err, ErrNotBundle) {
		t.Errorf("Parse(%q) = %+v, %v; want ErrNotBundle", src, card, err)
	}
}

func TestUnquotedVersionKeepsRawText(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{`okf_version: 0.10`, "0.10"},
		{`okf_version: 0.2`, "0.2"},
		{`okf_version: 1.0`, "1.0"},
		{`okf_version: '0.1'`, "0.1"},
		{`okf_version: "0.2"`, "0.2"},
		{`okf_version: 0.1   # a comment`, "0.1"},
		{"okf_version: |\n  0.1\n", "0.1"},
		{"base: &v 0.2\nokf_version: *v", "0.2"},
	} {
		card := mustParse(t, "---\n"+tc.yaml+"\n---\n# T\n")
		if card.OKFVersion != tc.want {
			t.Errorf("%q: okf_version = %q, want %q", tc.yaml, card.OKFVersion, tc.want)
		}
	}
	// The corpus: eloybar/okf-skills writes 0.2 and zeyos/client 0.1 unquoted,
	// ImperialBower/cardpack.rs '0.1' single-quoted.
	for key, want := range map[string]string{
		"eloybar__okf-skills/docs/okf/index.md":    "0.2",
		"zeyos__client/okf/index.md":               "0.1",
		"ImperialBower__cardpack.rs/.okf/index.md": "0.1",
	} {
		if got := mustParseCorpus(t, key).OKFVersion; got != want {
			t.Errorf("%s: okf_version = %q, want %q", key, got, want)
		}
	}
}

func TestUnknownVersionIsKept(t *testing.T) {
	if got := mustParseCorpus(t, "_unattributed__findstring-63638829135/index.md").OKFVersion; got != "0.3" {
		t.Errorf("okf_version = %q, want the unreleased 0.3 kept", got)
	}
	if got := mustParse(t, "---\nokf_version: banana\n---\n").OKFVersion; got != "banana" {
		t.Errorf("okf_version = %q, want banana", got)
	}
}

func TestVersionLaterKeysAndDuplicates(t *testing.T) {
	// okf_version need not be the first key (4i7/LLM-News-Memo); when a key
	// repeats, the last one wins.
	card := mustParse(t, "---\ntitle: T\nokf_version: 0.1\nokf_version: 0.2\n---\n")
	if card.OKFVersion != "0.2" {
		t.Errorf("okf_version = %q, want the last, 0.2", card.OKFVersion)
	}
	wantNotBundle(t, "---\nokf_version: 0.1\nokf_version:\n---\n")
}

func TestVersionNotScalarIsNotBundle(t *testing.T) {
	for _, yaml := range []string{
		"okf_version:",
		"okf_version: ~",
		"okf_version: null",
		`okf_version: ""`,
		`okf_version: "  "`,
		"okf_version: [0.1]",
		"okf_version: {v: 0.1}",
		"okf_version:\n  - 0.1",
		"okf: {version: 0.1}",
		"title: x",
	} {
		wantNotBundle(t, "---\n"+yaml+"\n---\n# T\n")
	}
}

func TestBodyOkfVersionIsNotBundle(t *testing.T) {
	// linuxfoundation/lfx-self-serve: okf_version only in a body blockquote.
	_, err := parseCorpus(t, "linuxfoundation__lfx-self-serve/docs/okf/index.md")
	if !errors.Is(err, ErrNotBundle) {
		t.Errorf("got %v, want ErrNotBundle", err)
	}
	wantNotBundle(t, "# T\n\nokf_version: 0.1\n")
	wantNotBundle(t, "# T\n\n---\nokf_version: 0.1\n---\n")
	wantNotBundle(t, "\n---\nokf_version: 0.1\n---\n")
}

func TestFrontmatterNotMappingIsNotBundle(t *testing.T) {
	for _, src := range []string{
		"",
		"---",
		"---\n",
		"---\n---\n",
		"---\n- okf_version: 0.1\n---\n",
		"---\nokf_version 0.1\n---\n",
		"---\nokf_version: [0.1\n---\n",
		"---\n\tokf_version: 0.1\n---\n",
		"---\nokf_version: 0.1\n",
		"---\nokf_version: 0.1\n--\n",
		"--- \nokf_version: 0.1\n----\n# T",
	} {
		wantNotBundle(t, src)
	}
	// The spec's own sample bundles have no okf_version at all.
	for _, row := range readManifest(t) {
		if row.kind == "spec-example" || row.kind == "negative" || row.kind == "spec" {
			if _, err := parseCorpus(t, row.key()); !errors.Is(err, ErrNotBundle) {
				t.Errorf("%s (%s): got %v, want ErrNotBundle", row.key(), row.kind, err)
			}
		}
	}
}

func TestFrontmatterLongerThanCapIsNotBundle(t *testing.T) {
	long := "---\nokf_version: 0.1\nnotes: |\n" + strings.Repeat("  padding line\n", MaxFrontmatterBytes/15+1) + "---\n# T\n"
	wantNotBundle(t, long)
	fits := "---\nokf_version: 0.1\nnotes: |\n" + strings.Repeat("  padding line\n", MaxFrontmatterBytes/16) + "---\n# T\n"
	if card := mustParse(t, fits); card.Name != "T" {
		t.Errorf("name = %q, want T", card.Name)
	}
}

func TestBOMAndCRLF(t *testing.T) {
	src := "\ufeff---\r\nokf_version: \"0.1\"\r\ntitle: Windows\r\ndescription: \"line one\\r\\nline two\"\r\n---\r\n\r\n# H\r\n\r\n- [A](a.md) - first\r\n- [B](b/) - second\r\n"
	card := mustParse(t, src)
	if card.OKFVersion != "0.1" || card.Name != "Windows" || card.Tagline != "line one" {
		t.Errorf("card = %+v", card)
	}
	if card.Concepts != 2 || card.ConceptList[1] != (Concept{"B", "https://example.com/kb/okf/b/index.md", "second"}) {
		t.Errorf("concepts = %+v", card.ConceptList)
	}
	if strings.Contains(card.Description, "\r") || card.Description != "# H\n\n- [A](a.md) - first\n- [B](b/) - second" {
		t.Errorf("description = %q", card.Description)
	}
	// Fences with trailing blanks and a lone CR are tolerated too.
	if card := mustParse(t, "---  \rokf_version: 0.2\r---\t\r# T\r"); card.Name != "T" {
		t.Errorf("name = %q", card.Name)
	}
}

func TestDotDotDotTerminator(t *testing.T) {
	card := mustParse(t, "---\nokf_version: 0.1\ntitle: Dots\n...\n# Body\n")
	if card.Name != "Dots" || card.Description != "# Body" {
		t.Errorf("card = %+v", card)
	}
}

func TestNoBlankLineAfterFrontmatter(t *testing.T) {
	card := mustParseCorpus(t, "_unattributed__findstring-63638829135/index.md")
	if card.Name != "How a Slack digital worker was built" {
		t.Errorf("name = %q", card.Name)
	}
	if !strings.HasPrefix(card.Description, "# How a Slack digital worker was built\n\nAn Open Knowledge") {
		t.Errorf("description = %q", card.Description)
	}
}

func TestTwoBlankLinesAfterFrontmatter(t *testing.T) {
	// saschb2b bundles/blockchain has two blank lines after the closing fence.
	card := mustParseCorpus(t, "saschb2b__okf-bundles/bundles/blockchain/index.md")
	if !strings.HasPrefix(card.Description, "# Blockchain\n\nA curated") {
		t.Errorf("description = %q", card.Description[:40])
	}
}

func TestExtraFrontmatterKeysIgnored(t *testing.T) {
	// xcspl/mikrotik-docs-okf carries house_version, bundle and a handling list.
	card := mustParseCorpus(t, "xcspl__mikrotik-docs-okf/index.md")
	if card.OKFVersion != "0.2" || card.Type != "" || card.Tagline != "" {
		t.Errorf("card = %+v", card)
	}
}
