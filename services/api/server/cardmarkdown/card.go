// Package cardmarkdown writes a bundle's card as markdown, the form agents
// read best (GET /api/bundles/{id} with Accept: text/markdown); JSON stays
// the default.
package cardmarkdown

import (
	"fmt"
	"mime"
	"strconv"
	"strings"

	"github.com/gomarkdown/markdown"
	"github.com/gomarkdown/markdown/parser"

	"github.com/okfindex/okf-index/pkg/wire"
)

// A card asked for with Accept: text/markdown is answered as markdown, the
// form agents read best; JSON stays the default.
//
// Nothing of a card becomes markup the card did not write. The fields
// (name, tagline, type, concept names, ...) are escaped as text. The
// description is the bundle's own markdown, so it is parsed and written
// again: its text escaped, its raw HTML shown as text or code, its headings
// nested under the card's "## Description", and its relative links made
// absolute against the root's own URL (the index_url, which the indexer
// wrote: never the request's host).

// PrefersMarkdown reports whether an Accept header ranks text/markdown above
// JSON: a missing header, */* or a tie keeps JSON.
func PrefersMarkdown(accept string) bool {
	var md, js float64
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch mt {
		case "text/markdown":
			md = max(md, q)
		case "application/json", "application/*", "*/*":
			js = max(js, q)
		}
	}
	return md > 0 && md > js
}

// Card writes a card as markdown: its name, tagline, facts, the
// description and the concept list with links.
func Card(c wire.Card) string {
	var b strings.Builder
	name := oneLine(c.Name)
	if name == "" {
		name = c.ID
	}
	fmt.Fprintf(&b, "# %s\n\n", mdText(name))
	if c.Tagline != "" {
		fmt.Fprintf(&b, "> %s\n\n", safeLineStart(mdText(c.Tagline)))
	}
	fmt.Fprintf(&b, "- id: %s\n- okf_version: %s\n", mdCode(c.ID), mdText(c.OKFVersion))
	if c.Type != "" {
		fmt.Fprintf(&b, "- type: %s\n", mdText(c.Type))
	}
	fmt.Fprintf(&b, "- concepts: %d\n", c.Concepts)
	fmt.Fprintf(&b, "- source: %s via %s, %s, %s\n", mdText(string(c.Source.Origin)), mdText(string(c.Source.Via)),
		mdAutolink(c.Source.URL), mdCode(c.Source.Path))
	if r := c.Repo; r != nil {
		fmt.Fprintf(&b, "- repository: %d stars, %d forks", r.Stars, r.Forks)
		for _, v := range []*string{r.Language, r.License, r.State} {
			if v != nil {
				fmt.Fprintf(&b, ", %s", mdText(*v))
			}
		}
		if r.PushedAt != nil {
			fmt.Fprintf(&b, ", pushed %s", r.PushedAt.UTC().Format(wire.TimestampLayout))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "- indexed: %s; updated: %s\n", c.IndexedAt.UTC().Format(wire.TimestampLayout), c.UpdatedAt.UTC().Format(wire.TimestampLayout))
	fmt.Fprintf(&b, "- root: %s\n- page: %s\n- card (JSON): %s\n", mdAutolink(c.IndexURL), mdAutolink(c.PageURL), mdAutolink(c.API))
	if d := descriptionMarkdown(c.Description, c.IndexURL, descriptionHeadingDepth); d != "" {
		fmt.Fprintf(&b, "\n## Description\n\n%s\n", d)
	}
	if len(c.ConceptList) > 0 {
		fmt.Fprintf(&b, "\n## Concepts\n\n")
		for _, k := range c.ConceptList {
			if u, ok := absoluteLink(k.URL, c.IndexURL); ok {
				fmt.Fprintf(&b, "- [%s](%s)", mdText(k.Name), mdDestination(u))
			} else {
				fmt.Fprintf(&b, "- %s", mdText(k.Name))
			}
			if k.Summary != "" {
				fmt.Fprintf(&b, ": %s", mdText(k.Summary))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// descriptionHeadingDepth is the level of the card's heading the
// description sits under ("## Description"): the root's "#" becomes "###".
const descriptionHeadingDepth = 2

// descriptionParser is how a description is read: CommonMark with fenced
// code, bare URLs as links and strikethrough; no extension that would make
// more constructs to write again (tables stay text, and their pipes with
// them).
func descriptionParser() *parser.Parser {
	return parser.NewWithExtensions(parser.NoIntraEmphasis | parser.FencedCode | parser.Autolink |
		parser.Strikethrough | parser.SpaceHeadings | parser.BackslashLineBreak)
}

// descriptionMarkdown writes a root's markdown again for a card: headings
// nested depth levels down (capped at ######), links and images made
// absolute against base (a link that cannot be, javascript: and the like,
// keeps its text only), raw HTML shown as text, everything else escaped.
func descriptionMarkdown(src, base string, depth int) string {
	src = strings.TrimSpace(src)
	if src == "" {
		return ""
	}
	doc := markdown.Parse([]byte(src+"\n"), descriptionParser()) // a block ends at a line's end
	w := mdWriter{base: base, depth: depth}
	return strings.TrimSpace(w.blocks(doc.GetChildren(), "\n\n"))
}
