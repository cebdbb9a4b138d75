package web

import (
	"bytes"
	"html/template"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gomarkdown/markdown"
	"github.com/gomarkdown/markdown/ast"
	mdhtml "github.com/gomarkdown/markdown/html"
	"github.com/gomarkdown/markdown/parser"
	"github.com/microcosm-cc/bluemonday"
)

// descriptionPolicy is what a bundle's description may keep once rendered:
// bluemonday's policy for user content (no script, no style, no event
// handlers, no javascript: or data: URLs), without images (the page's CSP
// loads nothing from other origins, and a picture in a description is a
// tracker as often as an illustration), and with every link
// rel="nofollow ugc noopener" and opened apart.
var descriptionPolicy = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)      // they would resolve against this site, not the bundle's
	p.RequireNoFollowOnLinks(false) // withUGCRel writes the whole rel
	p.AllowAttrs("class").Matching(bluemonday.SpaceSeparatedTokens).OnElements("code")
	p.SkipElementsContent("img") // dropped
	return p
}()

// Markdown renders a bundle's markdown as sanitized HTML. Raw HTML in the
// source is escaped by the renderer and whatever remains passes the
// sanitizer, so nothing of the source can run in the page.
func Markdown(src string) template.HTML { return renderDescription(src, "", false) }

// renderDescription renders a description: its headings one level down
// (the page's h1 is the bundle's name), a first heading that repeats the
// name left out, and with dropLinkLists the lists whose every item is a
// link (the concept list, which the page shows resolved) left out.
func renderDescription(src, name string, dropLinkLists bool) template.HTML {
	p := parser.NewWithExtensions(parser.CommonExtensions | parser.AutoHeadingIDs)
	// Heading ids of bundle content are prefixed: a heading "# search" must
	// not make id="search", which the page's own script and links use.
	r := mdhtml.NewRenderer(mdhtml.RendererOptions{Flags: mdhtml.CommonFlags | mdhtml.SkipHTML | mdhtml.SkipImages,
		HeadingIDPrefix: ContentIDPrefix})
	doc := markdown.Parse([]byte(src), p)
	var drop []ast.Node
	first := true
	for _, n := range doc.GetChildren() {
		switch n := n.(type) {
		case *ast.Heading:
			if first && name != "" && strings.EqualFold(strings.TrimSpace(plainText(n)), strings.TrimSpace(name)) {
				drop = append(drop, n)
			}
		case *ast.List:
			if dropLinkLists && isLinkList(n) {
				drop = append(drop, n)
				if prev := ast.GetPrevNode(n); prev != nil && isHeading(prev) && !slices.Contains(drop, prev) {
					drop = append(drop, prev) // the list's own heading ("Concepts")
				}
			}
		}
		first = false
	}
	for _, n := range drop {
		ast.RemoveFromTree(n)
	}
	ast.WalkFunc(doc, func(n ast.Node, entering bool) ast.WalkStatus {
		if h, ok := n.(*ast.Heading); ok && entering {
			h.Level = min(h.Level+1, 6)
		}
		return ast.GoToNext
	})
	raw := markdown.Render(doc, r)
	clean := descriptionPolicy.SanitizeBytes(raw)
	return template.HTML(withUGCRel(clean)) // #nosec: sanitized above
}

func isHeading(n ast.Node) bool { _, ok := n.(*ast.Heading); return ok }

// isLinkList reports whether every item of a list starts with a link.
func isLinkList(l *ast.List) bool {
	items := l.GetChildren()
	if len(items) == 0 {
		return false
	}
	for _, it := range items {
		found := false
		ast.WalkFunc(it, func(n ast.Node, entering bool) ast.WalkStatus {
			if _, ok := n.(*ast.Link); ok && entering {
				found = true
				return ast.Terminate
			}
			return ast.GoToNext
		})
		if !found {
			return false
		}
	}
	return true
}

// plainText is the text of a node's leaves.
func plainText(n ast.Node) string {
	var b strings.Builder
	ast.WalkFunc(n, func(n ast.Node, entering bool) ast.WalkStatus {
		if entering {
			if l := n.AsLeaf(); l != nil {
				b.Write(l.Literal)
			}
		}
		return ast.GoToNext
	})
	return b.String()
}

// ExcerptMarker ends a description cut at its contract length.
const ExcerptMarker = "…"

// wholeDescription ends a description that was cut at maxRunes (the
// contract's length) on its last whole word, with no construct left open
// (a code fence, inline code, a link, emphasis), followed by ExcerptMarker.
// A description shorter than that is returned as it is, and cut false.
func wholeDescription(src string, maxRunes int, wasCut bool) (out string, cut bool) {
	if !wasCut && utf8.RuneCountInString(src) < maxRunes {
		return src, false
	}
	// The last whole word: drop what follows the last space.
	if i := strings.LastIndexAny(src, " \t\n"); i > 0 {
		src = src[:i]
	}
	// A code fence left open is closed.
	fences := 0
	for _, line := range strings.Split(src, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fences++
		}
	}
	if fences%2 == 1 {
		return strings.TrimRight(src, " \t\n") + "\n" + ExcerptMarker + "\n```\n", true
	}
	// In the last paragraph, a construct left open is cut before it starts.
	start := strings.LastIndex(src, "\n\n") + 1
	last := src[start:]
	cutAt := len(last)
	if n := strings.Count(last, "`"); n%2 == 1 {
		cutAt = min(cutAt, strings.LastIndex(last, "`"))
	}
	if o, c := strings.LastIndex(last, "["), strings.LastIndex(last, "]"); o > c {
		cutAt = min(cutAt, o)
	}
	if o := strings.LastIndex(last, "]("); o >= 0 && !strings.Contains(last[o:], ")") {
		cutAt = min(cutAt, strings.LastIndex(last[:o], "["))
	}
	for _, mark := range []string{"**", "__"} {
		if strings.Count(last[:max(cutAt, 0)], mark)%2 == 1 {
			cutAt = min(cutAt, strings.LastIndex(last[:cutAt], mark))
		}
	}
	if o := strings.LastIndex(last, "<"); o >= 0 && !strings.Contains(last[o:], ">") {
		cutAt = min(cutAt, o)
	}
	last = strings.TrimRight(last[:max(cutAt, 0)], " \t\n,;:([{-*_")
	// A table row the cut ended is left out, and a table left without
	// its body row with it: a half row renders as a line of pipes.
	if lines := strings.Split(last, "\n"); isTableLine(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
		rows := 0
		for i := len(lines) - 1; i >= 0 && isTableLine(lines[i]); i-- {
			rows++
		}
		if rows < 3 { // header, separator, one row at least
			lines = lines[:len(lines)-rows]
		}
		last = strings.Join(lines, "\n")
	}
	src = strings.TrimRight(src[:start]+last, " \t\n")
	// A heading the cut left with nothing under it is left out too.
	for {
		i := strings.LastIndex(src, "\n") + 1
		if i == 0 || !strings.HasPrefix(src[i:], "#") {
			break
		}
		src = strings.TrimRight(src[:i], " \t\n")
	}
	if lines := strings.Split(src, "\n"); isTableLine(lines[len(lines)-1]) {
		return src + "\n\n" + ExcerptMarker, true // after the table, not in a cell
	}
	return src + " " + ExcerptMarker, true
}

// isTableLine reports whether a markdown line is a row of a table.
func isTableLine(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "|") }

// ContentIDPrefix begins every id that bundle content makes (its headings'),
// so none is one of the page's own ids.
const ContentIDPrefix = "md-"

// ugcRel is the rel of every link of bundle content.
const ugcRel = `rel="nofollow ugc noopener"`

// withUGCRel gives every link of sanitized HTML the rel of user content. In
// the sanitizer's output "<a" opens only a link: text has "<" escaped, and
// no other allowed element starts with "a" and a space or ">".
func withUGCRel(clean []byte) []byte {
	clean = bytes.ReplaceAll(clean, []byte("<a "), []byte("<a "+ugcRel+" "))
	return bytes.ReplaceAll(clean, []byte("<a>"), []byte("<a "+ugcRel+">"))
}
