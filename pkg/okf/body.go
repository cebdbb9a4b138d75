package okf

import (
	"github.com/gomarkdown/markdown/ast"
	"github.com/gomarkdown/markdown/parser"
)

// markdownExtensions are the GitHub Flavored Markdown extensions on top of
// CommonMark 0.31.2: pipe tables, ~~strikethrough~~ and bare-URL autolinks.
// Fenced code is part of CommonMark itself.
//
// CommonMark mode matters for real roots: a link destination with unescaped
// spaces, [x](/a b.md), is not a link in CommonMark (nor on GitHub), and the
// parser agrees, so such entries are not concepts.
const markdownExtensions = parser.Tables | parser.Strikethrough | parser.Autolink

// parseMarkdown parses a root body into a gomarkdown AST.
func parseMarkdown(body []byte) ast.Node {
	return parser.NewCommonMarkWithExtensions(markdownExtensions).Parse(body)
}

// markdownParser is parseMarkdown; a test replaces it to check that Parse
// turns a parser panic into an error.
var markdownParser = parseMarkdown

// bodyScan is what one walk over the body AST collects.
type bodyScan struct {
	h1        string  // plain text of the first non-empty level-1 heading
	entries   []entry // concept entries in root order, at most MaxEntries
	truncated bool    // more than MaxEntries entries were listed
	links     []string
}

// scanBody walks the AST once, in document order. Code blocks and code
// spans are leaves, so links inside code are never seen.
func scanBody(doc ast.Node) bodyScan {
	s := bodyScan{}
	seen := map[string]bool{}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 1 && s.h1 == "" {
				s.h1 = plainText(n)
			}
		case *ast.ListItem:
			if e, ok := listEntry(n); ok {
				s.add(e)
			}
		case *ast.TableRow:
			if e, ok := tableEntry(n); ok {
				s.add(e)
			}
		case *ast.Link:
			if dest, ok := relativeLink(n.Destination); ok && !seen[string(dest)] {
				seen[string(dest)] = true
				s.links = append(s.links, string(dest))
			}
		case *ast.Image:
			return // alt text; images are not links
		case *ast.Text, *ast.Code, *ast.CodeBlock, *ast.HTMLSpan, *ast.HTMLBlock:
			return // leaves
		}
		for _, c := range n.GetChildren() {
			walk(c)
		}
	}
	walk(doc)
	return s
}

// add records an entry unless MaxEntries have been read already.
func (s *bodyScan) add(e entry) {
	if len(s.entries) >= MaxEntries {
		s.truncated = true
		return
	}
	s.entries = append(s.entries, e)
}
