package web

import (
	"html/template"
	"net/url"
	"strings"

	"github.com/okfindex/okf-index/pkg/wire"
)

// SnippetView is a search result's snippet as shown: the passage, escaped,
// with its highlights in <mark>, and the field it comes from.
type SnippetView struct {
	Field string        // "description" or "concepts"
	HTML  template.HTML // escaped, highlights marked
}

// snippetView is the snippet of a search result, nil when there is none to
// show. A passage of the name or the tagline is not shown again: the
// result shows both fields whole, with the query's words marked.
func snippetView(s *wire.Snippet) *SnippetView {
	if s == nil || s.Text == "" || (s.Field != "description" && s.Field != "concepts") {
		return nil
	}
	return &SnippetView{Field: s.Field, HTML: markSpans(s.Text, s.Highlights)}
}

// markSpans is text escaped, each span of highlights (code points,
// [start, end)) wrapped in <mark>. The text is never read as markup: every
// piece is escaped on its own. Spans that are empty, out of order,
// overlapping or past the text are left unmarked, so a bad span can cost
// a highlight, never the page.
func markSpans(text string, highlights [][2]int) template.HTML {
	runes := []rune(text)
	var b strings.Builder
	last := 0
	for _, h := range highlights {
		start, end := h[0], h[1]
		if start < last || end <= start || end > len(runes) {
			continue
		}
		b.WriteString(template.HTMLEscapeString(string(runes[last:start])))
		b.WriteString("<mark>")
		b.WriteString(template.HTMLEscapeString(string(runes[start:end])))
		b.WriteString("</mark>")
		last = end
	}
	b.WriteString(template.HTMLEscapeString(string(runes[last:])))
	return template.HTML(b.String()) // #nosec: every piece escaped
}

// Suggestion is a query the search page offers in place of its q ("did
// you mean"), and the link to the same search with it.
type Suggestion struct {
	Text string
	URL  string
}

// withQ is the query string of form with q replaced by q, from the first
// page: every other parameter stays as given.
func withQ(form url.Values, q string) string {
	f := url.Values{}
	for k, vs := range form {
		if k != "offset" && k != "cursor" {
			f[k] = vs
		}
	}
	f.Set("q", q)
	return f.Encode()
}
