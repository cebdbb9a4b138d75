package web

import (
	"html/template"
	"regexp"
	"strings"
	"unicode"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

// maxTerms bounds the words of a query that are highlighted.
const maxTerms = 8

// Highlighter marks the words of a search query in text, server-side.
type Highlighter struct {
	re *regexp.Regexp // nil: nothing to mark
}

// NewHighlighter matches the words of q (letters and digits, two or more
// characters) and the names written with symbols it holds ("C++":
// searchtext.SymbolNames), case-insensitively.
func NewHighlighter(q string) Highlighter {
	words := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var alts []string
	seen := map[string]bool{}
	for _, w := range words {
		lw := strings.ToLower(w)
		if len([]rune(w)) < 2 || seen[lw] || len(alts) == maxTerms {
			continue
		}
		seen[lw] = true
		alts = append(alts, regexp.QuoteMeta(w))
	}
	for _, name := range searchtext.SymbolNames(q) { // "C++", which words make "C"
		if len(alts) < maxTerms {
			alts = append(alts, regexp.QuoteMeta(name))
		}
	}
	if len(alts) == 0 {
		return Highlighter{}
	}
	return Highlighter{re: regexp.MustCompile(`(?i)` + strings.Join(alts, "|"))}
}

// Mark escapes text and wraps each match in <mark>.
func (h Highlighter) Mark(text string) template.HTML {
	if h.re == nil {
		return template.HTML(template.HTMLEscapeString(text)) // #nosec: escaped
	}
	var b strings.Builder
	last := 0
	for _, m := range h.re.FindAllStringIndex(text, -1) {
		b.WriteString(template.HTMLEscapeString(text[last:m[0]]))
		b.WriteString("<mark>")
		b.WriteString(template.HTMLEscapeString(text[m[0]:m[1]]))
		b.WriteString("</mark>")
		last = m[1]
	}
	b.WriteString(template.HTMLEscapeString(text[last:]))
	return template.HTML(b.String()) // #nosec: every piece escaped
}
