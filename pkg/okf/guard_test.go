package okf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gomarkdown/markdown/ast"
)

// maxParseTime is the bound every Parse call must stay under, whatever the
// input; the budget of real roots is well under 100 ms.
const maxParseTime = time.Second

// shape is a pathological root: a head, then lines up to a size.
type shape struct {
	name string
	head string
	line func(i int) string
}

// repeat is a shape line that does not depend on its index.
func repeat(s string) func(int) string { return func(int) string { return s } }

// nestedList opens n levels of nested list items, one per line.
func nestedList(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return b.String()
}

// pathologicalShapes are inputs that make the markdown parser slow: many
// small blocks, long runs of inline punctuation, and deep nesting.
var pathologicalShapes = []shape{
	{"flat list items", "", repeat("- [x](y) z\n")},
	{"one-word paragraphs", "", repeat("y\n\n")},
	{"headings", "", repeat("# a\n")},
	{"setext headings", "", repeat("a\n=\n")},
	{"thematic breaks", "", repeat("---\n")},
	{"fences", "", repeat("```\n")},
	{"quote lines", "", repeat("> a\n")},
	{"table rows", "|a|b|\n|-|-|\n", repeat("|[x](y)|z|\n")},
	{"wide table", "|" + strings.Repeat("a|", 50000) + "\n|" + strings.Repeat("-|", 50000) + "\n", repeat("|[x](y)\n")},
	{"emphasis", "", repeat("*a _b ")},
	{"brackets", "", repeat("[")},
	{"image openers", "", repeat("![")},
	{"angle brackets", "", repeat("<")},
	{"backticks", "", repeat("` ")},
	{"tildes", "", repeat("~~a")},
	{"entities", "", repeat("&amp;")},
	{"links", "", repeat("[a](b)")},
	{"autolinks", "", repeat("http://a.b ")},
	{"long line", "", repeat("a")},
	{"reference definitions", "", func(i int) string { return fmt.Sprintf("[r%d]: /u%d\n[r%d][] ", i, i, i/2) }},
	{"list markers on every line", "", repeat(strings.Repeat("- ", 64) + "x\n")},
	{"quote markers on every line", "", repeat(strings.Repeat("> ", 64) + "x\n")},
	{"lazy quote continuation", strings.Repeat(">", 70) + " x\n", repeat("y y y y y y y y\n")},
	{"lazy list continuation", nestedList(70), repeat("y y y y y y y y\n")},
	{"indented continuation", nestedList(70), repeat(strings.Repeat(" ", 140) + "y\n")},
	{"indentation cycle 8", "", func(i int) string { return strings.Repeat("  ", i%8) + "- [x](y) z\n" }},
	{"indentation cycle 100", "", func(i int) string { return strings.Repeat("  ", i%100) + "- [x](y) z\n" }},
	{"indentation growing", "", func(i int) string { return strings.Repeat("  ", i) + "- [x](y)\n" }},
}

// build makes a root of about size bytes from a shape.
func (s shape) build(size int) []byte {
	var b bytes.Buffer
	b.WriteString("---\nokf_version: \"0.1\"\n---\n" + s.head)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(s.line(i))
	}
	return b.Bytes()
}

func TestPathologicalInputsAreBounded(t *testing.T) {
	size := MaxRootBytes + 1024
	if raceEnabled || testing.Short() {
		size = 256 << 10
	}
	for _, s := range pathologicalShapes {
		t.Run(s.name, func(t *testing.T) {
			data := s.build(size)
			start := time.Now()
			card, err := Parse(data, testRoot)
			elapsed := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, card)
			if !raceEnabled && elapsed > maxParseTime {
				t.Errorf("Parse took %v", elapsed)
			}
			t.Logf("%v, %d concepts, truncated %v", elapsed, card.Concepts, card.Truncated)
		})
	}
}

func TestParseLimitLeavesRealRootsWhole(t *testing.T) {
	for _, row := range readManifest(t) {
		if !row.isBundle() {
			continue
		}
		_, body, err := splitFrontmatter(sanitize(readCorpus(t, row.key())))
		if err != nil {
			t.Fatal(err)
		}
		if n := parseLimit(body); n != len(body) {
			t.Errorf("%s: parse limit %d of %d bytes", row.key(), n, len(body))
		}
	}
	_, body, _ := splitFrontmatter(bigRoot(MaxEntries))
	if n := parseLimit(body); n != len(body) {
		t.Errorf("generated 2 MiB root: parse limit %d of %d bytes", n, len(body))
	}
}

func TestParseLimitCutsAtLineStart(t *testing.T) {
	body := []byte(strings.Repeat("- [x](y) z\n", maxParseUnits))
	n := parseLimit(body)
	if n == 0 || n == len(body) || body[n-1] != '\n' {
		t.Errorf("limit %d of %d", n, len(body))
	}
	card := mustParse(t, "---\nokf_version: 0.1\n---\n# Kept\n\n"+string(body))
	if !card.Truncated || card.Name != "Kept" || card.Concepts != 1 {
		t.Errorf("card = %+v", card)
	}
}

func TestPrefixDepth(t *testing.T) {
	for line, want := range map[string]int{
		"":                 0,
		"plain text":       0,
		"- item":           1,
		"  - item":         2,
		"    - item":       3,
		"1. item":          1,
		"12345) item":      1,
		"1234567890. item": 0,
		"> quote":          1,
		">>> quote":        3,
		"> - > 1. x":       6,
		"- - - - x":        6,
		"---":              0,
		"-x":               0,
		"*emphasis*":       0,
		"        code":     4,
		"\t- tab":          3,
		"-":                1,
		"2.":               1,
	} {
		if got := prefixDepth([]byte(line)); got != want {
			t.Errorf("prefixDepth(%q) = %d, want %d", line, got, want)
		}
	}
}

func TestMaxEntries(t *testing.T) {
	var b strings.Builder
	for i := range MaxEntries + 5 {
		fmt.Fprintf(&b, "- [C%d](c%d.md)\n", i, i)
	}
	card := parseBody(t, b.String())
	if card.Concepts != MaxEntries || !card.Truncated || len(card.ConceptList) != MaxConceptList {
		t.Errorf("concepts = %d, truncated = %v", card.Concepts, card.Truncated)
	}
}

func TestMaxRootBytes(t *testing.T) {
	head := "---\nokf_version: 0.1\n---\n# Big\n\n- [First](first.md)\n\n"
	pad := strings.Repeat("x", MaxRootBytes-len(head)-1)
	src := head + pad + "é- [Late](late.md)\n"
	card, err := Parse([]byte(src), testRoot)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, card)
	if !card.Truncated || card.Concepts != 1 || card.Name != "Big" {
		t.Errorf("card: truncated %v, concepts %d, name %q", card.Truncated, card.Concepts, card.Name)
	}
	if links := card.Links; len(links) != 1 || links[0] != "first.md" {
		t.Errorf("links = %q", card.Links)
	}
	// Exactly MaxRootBytes is read whole.
	card = mustParse(t, head+strings.Repeat("y", MaxRootBytes-len(head)))
	if card.Truncated {
		t.Error("a root of exactly MaxRootBytes was truncated")
	}
	if !utf8.ValidString(cutString(src)) {
		t.Error("cut split a rune")
	}
}

// cutString is the input cut as Parse cuts it.
func cutString(s string) string { return string(cutAtRuneBoundary([]byte(s), MaxRootBytes)) }

func TestPanicIsRecovered(t *testing.T) {
	saved := markdownParser
	defer func() { markdownParser = saved }()
	markdownParser = func([]byte) ast.Node { panic("boom") }
	card, err := Parse([]byte("---\nokf_version: 0.1\n---\n# T\n"), testRoot)
	if err == nil || !strings.Contains(err.Error(), "boom") || card.Name != "" {
		t.Errorf("got %+v, %v", card, err)
	}
}

func TestYAMLBombsAreQuick(t *testing.T) {
	for _, yaml := range []string{
		"okf_version: 0.1\nk: " + strings.Repeat("[", 100000),
		"okf_version: 0.1\nk: " + strings.Repeat("{a: ", 60000),
		"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nokf_version: 0.1",
	} {
		start := time.Now()
		_, _ = Parse([]byte("---\n"+yaml+"\n---\n# T\n"), testRoot)
		if d := time.Since(start); !raceEnabled && d > maxParseTime/4 {
			t.Errorf("frontmatter %.20q...: %v", yaml, d)
		}
	}
}
