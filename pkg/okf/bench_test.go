package okf

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// bigRoot builds a root of about 2 MiB listing n entries in groups under
// H2 headings, shaped like the large generated roots of the corpus
// (claudiobottari/databricks-okf, gaia-research/gaia-skill-tree): mostly
// "* [Name](/concepts/x.md) - summary" lines, with relative, directory and
// bold-wrapped links, code spans and inline links in some summaries, a table,
// and prose filling the rest.
func bigRoot(n int) []byte {
	var b strings.Builder
	b.WriteString("---\nokf_version: \"0.2\"\ntitle: Benchmark bundle\ndescription: A generated root.\n---\n\n# Benchmark\n\nIntro with a [link](intro.md) and `code`.\n")
	for i := range n {
		if i%1000 == 0 {
			fmt.Fprintf(&b, "\n## Group %d\n\n", i/1000)
		}
		switch i % 8 {
		case 1:
			fmt.Fprintf(&b, "- [Concept %d](concepts/c%d.md) — Summary for concept %d with a `code span` and an inline [reference](other/o%d.md) in it.\n", i, i, i, i)
		case 3:
			fmt.Fprintf(&b, "* [Directory %d](dirs/d%d/) - A directory entry %d whose summary runs on for a while, the size of a real one.\n", i, i, i)
		case 5:
			fmt.Fprintf(&b, "* **[Bold %d](./b/b%d.md#part)** · A bold-wrapped entry %d with *emphasis* and plain words following it.\n", i, i, i)
		default:
			fmt.Fprintf(&b, "* [Concept %d](/concepts/concept-%d.md) - A generated one-sentence summary of concept number %d, as the large roots have.\n", i, i, i)
		}
	}
	b.WriteString("\n| Name | Summary |\n|---|---|\n| [T](t.md) | table entry |\n")
	for b.Len() < MaxRootBytes-200 {
		b.WriteString("Trailing prose paragraph that pads the root to two mebibytes.\n")
	}
	return []byte(b.String())
}

// BenchmarkParse2MiB10kEntries parses a generated root of about 2 MiB
// listing 10,000 entries. The budget is well under 100 ms per parse.
func BenchmarkParse2MiB10kEntries(b *testing.B) {
	data := bigRoot(MaxEntries)
	root := Root{URL: "https://raw.githubusercontent.com/o/r/HEAD/okf/index.md", Label: "o/r", Dir: "okf"}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		card, err := Parse(data, root)
		if err != nil || card.Concepts < MaxEntries-1 {
			b.Fatalf("Parse: %d concepts, %v", card.Concepts, err)
		}
	}
}

// BenchmarkParseDatabricks parses the largest real root of the corpus
// (1.5 MB, 6,064 entries).
func BenchmarkParseDatabricks(b *testing.B) {
	data, err := os.ReadFile(corpusDir(b) + "/claudiobottari__databricks-okf/index.md")
	if err != nil {
		b.Fatal(err)
	}
	root := Root{URL: "https://raw.githubusercontent.com/claudiobottari/databricks-okf/HEAD/index.md", Label: "claudiobottari/databricks-okf"}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data, root); err != nil {
			b.Fatal(err)
		}
	}
}
