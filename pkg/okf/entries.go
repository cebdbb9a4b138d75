package okf

import (
	"strings"

	"github.com/gomarkdown/markdown/ast"
	"github.com/okfindex/okf-index/pkg/safetext"
)

// summarySeparators may stand between an entry's link and its summary; one is
// removed from the start of the summary.
var summarySeparators = []string{"-", "–", "—", ":", "·"}

// tableCellSeparator joins the cells after the linked one into a table
// entry's summary.
const tableCellSeparator = " · "

// entry is one concept entry of the root: a list item or a table row and
// its link. Name and summary are rendered only for the entries a card lists.
type entry struct {
	link *ast.Link
	para *ast.Paragraph // the list item's first paragraph; nil for a table row
	row  *ast.TableRow  // the table row; nil for a list item
}

// dest is the link destination as written.
func (e entry) dest() string { return string(e.link.Destination) }

// name is the link text as written, as plain text.
func (e entry) name() string { return plainText(e.link) }

// summary is the text after the link on the same line, without a leading
// separator, for a list item; for a table row, the other cells.
func (e entry) summary() string {
	if e.para != nil {
		rest := rawText(nodesAfter(e.link, e.para)...)
		rest, _, _ = strings.Cut(rest, "\n")
		return trimSeparator(rest)
	}
	var parts []string
	for _, c := range e.row.GetChildren()[1:] {
		if t := plainText(c); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, tableCellSeparator)
}

// listEntry reads a list item (ordered or not, at any depth) whose first
// inline element is a link: "- [name](url) - summary".
//
// Decision: a link wrapped in emphasis, strong or strikethrough still counts
// when it is the very first thing in the item ("- **[name](url)** - summary"),
// since the wrapper only styles the entry. An item that starts with other
// text ("- **Read** [x](y)", saschb2b bundles/okf) is prose, not an entry.
// Images, code spans and wikilinks ([[x]] is plain text in CommonMark) never
// count; nor does an item whose link has no text.
func listEntry(item *ast.ListItem) (entry, bool) {
	children := item.GetChildren()
	if len(children) == 0 {
		return entry{}, false
	}
	para, ok := children[0].(*ast.Paragraph)
	if !ok {
		return entry{}, false
	}
	link := leadingLink(para)
	if link == nil || !hasText(link) {
		return entry{}, false
	}
	return entry{link: link, para: para}, true
}

// leadingLink returns the link that is the first inline element of para,
// looking through emphasis wrappers, or nil.
func leadingLink(para *ast.Paragraph) *ast.Link {
	var n ast.Node = para
	for {
		children := n.GetChildren()
		if len(children) == 0 {
			return nil
		}
		switch c := children[0].(type) {
		case *ast.Link:
			if c.NoteID != 0 || c.Footnote != nil {
				return nil
			}
			return c
		case *ast.Emph, *ast.Strong, *ast.Del:
			n = c
		default:
			return nil
		}
	}
}

// nodesAfter lists the inline nodes that follow n inside its ancestor top,
// in document order: n's later siblings, then those of each wrapper.
func nodesAfter(n, top ast.Node) []ast.Node {
	var out []ast.Node
	for n != top {
		parent := n.GetParent()
		if parent == nil {
			break
		}
		siblings := parent.GetChildren()
		for i, s := range siblings {
			if s == n {
				out = append(out, siblings[i+1:]...)
				break
			}
		}
		n = parent
	}
	return out
}

// trimSeparator collapses whitespace and removes one leading separator.
func trimSeparator(s string) string {
	s = safetext.Line(s)
	for _, sep := range summarySeparators {
		if rest, ok := strings.CutPrefix(s, sep); ok {
			return strings.TrimSpace(rest)
		}
	}
	return s
}

// tableEntry reads a table body row whose first cell holds a link (header
// rows are never entries).
//
// Decisions: the first link anywhere in the first cell counts (the DESIGN
// says "holds", not "starts with"), outside code spans and images; the
// summary is the plain text of the remaining non-empty cells joined with
// " · ", which is the second cell for the common two-column table and keeps
// every column of wider catalogue tables searchable.
func tableEntry(row *ast.TableRow) (entry, bool) {
	if _, inBody := row.GetParent().(*ast.TableBody); !inBody {
		return entry{}, false
	}
	cells := row.GetChildren()
	if len(cells) == 0 {
		return entry{}, false
	}
	if c, ok := cells[0].(*ast.TableCell); !ok || c.IsHeader {
		return entry{}, false
	}
	link := firstLink(cells[0])
	if link == nil || !hasText(link) {
		return entry{}, false
	}
	return entry{link: link, row: row}, true
}

// firstLink returns the first link under n, not counting footnote links or
// anything inside images.
func firstLink(n ast.Node) *ast.Link {
	for _, c := range n.GetChildren() {
		switch c := c.(type) {
		case *ast.Image:
			continue
		case *ast.Link:
			if c.NoteID == 0 && c.Footnote == nil {
				return c
			}
		}
		if l := firstLink(c); l != nil {
			return l
		}
	}
	return nil
}
