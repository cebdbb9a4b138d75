package web

import (
	"bytes"
	"html/template"
	"regexp"
	"strings"

	"github.com/gomarkdown/markdown"
	"github.com/gomarkdown/markdown/ast"
	mdhtml "github.com/gomarkdown/markdown/html"
	"github.com/gomarkdown/markdown/parser"
	"github.com/microcosm-cc/bluemonday"
)

// The documentation page (/docs, /docs/<name>): the service's own OKF
// bundle (served raw under /okf/) rendered for people, its frontmatter
// left out and its links between files kept on /docs.

// DocView is a documentation page.
type DocView struct {
	Chrome
	Body   template.HTML
	RawURL string // the same file as markdown
	Files  []DocLink
}

// DocLink is one file of the documentation, linked.
type DocLink struct {
	Name, URL string
	Current   bool
}

// docPolicy keeps what the service's own markdown renders to: user
// content's elements, relative links (to the other files) included.
var docPolicy = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowURLSchemes("http", "https", "mailto")
	p.AllowRelativeURLs(true)
	p.AllowAttrs("class").Matching(bluemonday.SpaceSeparatedTokens).OnElements("code")
	return p
}()

// mdLink is a relative link to another file of the bundle.
var mdLink = regexp.MustCompile(`^(?:\./)?([a-z0-9_-]+)\.md(#.*)?$`)

// NewDocView renders the documentation file name (its markdown, src) with
// the list of files.
func NewDocView(name, src string, files []string, full bool) DocView {
	body := src
	if strings.HasPrefix(body, "---\n") {
		if end := strings.Index(body[4:], "\n---\n"); end >= 0 {
			body = body[4+end+5:]
		}
	}
	p := parser.NewWithExtensions(parser.CommonExtensions | parser.AutoHeadingIDs)
	doc := markdown.Parse([]byte(body), p)
	title := strings.TrimSuffix(name, ".md")
	ast.WalkFunc(doc, func(n ast.Node, entering bool) ast.WalkStatus {
		switch n := n.(type) {
		case *ast.Link:
			if m := mdLink.FindSubmatch(n.Destination); m != nil && entering {
				n.Destination = []byte("/docs/" + string(m[1]) + string(m[2]))
			}
		case *ast.Heading:
			if entering && n.Level == 1 && title == strings.TrimSuffix(name, ".md") {
				title = strings.TrimSpace(plainText(n))
			}
		}
		return ast.GoToNext
	})
	r := mdhtml.NewRenderer(mdhtml.RendererOptions{Flags: mdhtml.CommonFlags | mdhtml.SkipHTML | mdhtml.SkipImages})
	clean := docPolicy.SanitizeBytes(markdown.Render(doc, r))
	v := DocView{Chrome: Chrome{Title: title + " · OKF Index", Nav: "docs", Full: full,
		Description: "How OKF Index works, how to publish a bundle, and its API and MCP server."},
		Body: template.HTML(bytes.TrimSpace(clean)), RawURL: "/okf/" + name} // #nosec: sanitized above
	for _, f := range files {
		v.Files = append(v.Files, DocLink{Name: strings.TrimSuffix(f, ".md"), URL: "/docs/" + strings.TrimSuffix(f, ".md"), Current: f == name})
	}
	return v
}
