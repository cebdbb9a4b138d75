package web

import (
	"bytes"
	"html/template"

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
func Markdown(src string) template.HTML {
	p := parser.NewWithExtensions(parser.CommonExtensions | parser.AutoHeadingIDs)
	r := mdhtml.NewRenderer(mdhtml.RendererOptions{Flags: mdhtml.CommonFlags | mdhtml.SkipHTML | mdhtml.SkipImages})
	doc := markdown.Parse([]byte(src), p)
	ast.WalkFunc(doc, func(n ast.Node, entering bool) ast.WalkStatus {
		if h, ok := n.(*ast.Heading); ok && entering {
			h.Level = min(h.Level+1, 6) // the page's h1 is the bundle's name
		}
		return ast.GoToNext
	})
	raw := markdown.Render(doc, r)
	clean := descriptionPolicy.SanitizeBytes(raw)
	return template.HTML(withUGCRel(clean)) // #nosec: sanitized above
}

// ugcRel is the rel of every link of bundle content.
const ugcRel = `rel="nofollow ugc noopener"`

// withUGCRel gives every link of sanitized HTML the rel of user content. In
// the sanitizer's output "<a" opens only a link: text has "<" escaped, and
// no other allowed element starts with "a" and a space or ">".
func withUGCRel(clean []byte) []byte {
	clean = bytes.ReplaceAll(clean, []byte("<a "), []byte("<a "+ugcRel+" "))
	return bytes.ReplaceAll(clean, []byte("<a>"), []byte("<a "+ugcRel+">"))
}
