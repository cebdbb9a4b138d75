package cardmarkdown

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gomarkdown/markdown/ast"
	"github.com/okfindex/okf-index/pkg/cardsize"
)

// mdWriter writes a parsed description as markdown.
type mdWriter struct {
	base  string
	depth int
}

// blocks writes block nodes, separated by sep.
func (w mdWriter) blocks(nodes []ast.Node, sep string) string {
	var parts []string
	for _, n := range nodes {
		if s := w.block(n); strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, sep)
}

func (w mdWriter) block(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Paragraph:
		return w.inlines(n.Children)
	case *ast.Heading:
		level := min(n.Level+w.depth, 6)
		text := strings.ReplaceAll(w.inlines(n.Children), "\n", " ")
		return strings.Repeat("#", level) + " " + text
	case *ast.HorizontalRule:
		return "* * *"
	case *ast.BlockQuote:
		return prefixLines(w.blocks(n.Children, "\n\n"), "> ", "> ")
	case *ast.List:
		sep := "\n"
		if !n.Tight {
			sep = "\n\n"
		}
		var items []string
		num := max(n.Start, 1)
		for _, c := range n.Children {
			item, ok := c.(*ast.ListItem)
			if !ok {
				items = append(items, w.block(c))
				continue
			}
			marker := "- "
			if n.ListFlags&ast.ListTypeOrdered != 0 {
				marker = strconv.Itoa(num) + ". "
				num++
			}
			body := w.blocks(item.Children, "\n\n")
			if strings.TrimSpace(body) == "" {
				items = append(items, strings.TrimSpace(marker))
				continue
			}
			items = append(items, prefixLines(body, marker, strings.Repeat(" ", len(marker))))
		}
		return strings.Join(items, sep)
	case *ast.CodeBlock:
		return fencedCode(string(n.Literal), infoWord(string(n.Info)))
	case *ast.HTMLBlock:
		return fencedCode(string(n.Literal), "html")
	case *ast.Text:
		return w.inlines([]ast.Node{n})
	}
	// Anything else: its text, escaped, as a paragraph.
	return mdText(plainText(n))
}

// inlines writes inline nodes as one paragraph's text: a line break is a
// new line, which starts like any line (mdLine).
func (w mdWriter) inlines(nodes []ast.Node) string {
	var b strings.Builder
	w.inline(&b, nodes)
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = safeLineStart(strings.TrimLeft(l, " \t"))
	}
	return strings.Join(lines, "\n")
}

func (w mdWriter) inline(b *strings.Builder, nodes []ast.Node) {
	for _, n := range nodes {
		switch n := n.(type) {
		case *ast.Text:
			b.WriteString(escapeInline(string(n.Literal)))
		case *ast.Softbreak:
			b.WriteString("\n")
		case *ast.Hardbreak:
			b.WriteString("\\\n")
		case *ast.Emph:
			w.wrap(b, "*", n.Children)
		case *ast.Strong:
			w.wrap(b, "**", n.Children)
		case *ast.Del:
			w.wrap(b, "~~", n.Children)
		case *ast.Code:
			b.WriteString(mdCode(string(n.Literal)))
		case *ast.HTMLSpan:
			b.WriteString(escapeInline(string(n.Literal)))
		case *ast.Link:
			w.link(b, "", string(n.Destination), string(n.Title), n.Children)
		case *ast.Image:
			w.link(b, "!", string(n.Destination), string(n.Title), n.Children)
		default:
			b.WriteString(escapeInline(plainText(n)))
		}
	}
}

// wrap writes children between two delimiters; empty content writes
// nothing (an empty "**" would be text, or a rule at a line's start).
func (w mdWriter) wrap(b *strings.Builder, delim string, children []ast.Node) {
	var in strings.Builder
	w.inline(&in, children)
	s := strings.ReplaceAll(in.String(), "\n", " ")
	if strings.TrimSpace(s) == "" {
		return
	}
	b.WriteString(delim + s + delim)
}

// link writes a link (or, with bang "!", an image) whose destination is
// made absolute; one that cannot be keeps its text only.
func (w mdWriter) link(b *strings.Builder, bang, dest, title string, children []ast.Node) {
	var in strings.Builder
	w.inline(&in, children)
	text := strings.ReplaceAll(in.String(), "\n", " ")
	u, ok := absoluteLink(dest, w.base)
	if !ok {
		b.WriteString(text)
		return
	}
	b.WriteString(bang + "[" + text + "](" + mdDestination(u))
	if t := strings.TrimSpace(title); t != "" {
		b.WriteString(` "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(t) + `"`)
	}
	b.WriteString(")")
}

// absoluteLink resolves a link of a root against the root's URL, as the
// concept list's links are: http, https and mailto stay as written, "#x"
// is the root's own "#x", "/x" is the bundle directory's x (the parser's
// reading when the home's tree is unknown), a directory link names its
// index.md. Any other scheme, a URL that does not parse and one longer
// than a concept URL may be are not links.
func absoluteLink(dest, base string) (string, bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" || len(dest) > cardsize.MaxConceptURL {
		return "", false
	}
	ref, err := url.Parse(dest)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(ref.Scheme) {
	case "http", "https":
		if ref.Host == "" {
			return "", false
		}
		if strings.ContainsAny(dest, " \t\n") {
			return ref.String(), true
		}
		return dest, true
	case "mailto":
		return ref.String(), true
	case "":
	default:
		return "", false
	}
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() || (b.Scheme != "http" && b.Scheme != "https") {
		return "", false
	}
	if ref.Host != "" { // "//host/x": another host, this scheme
		ref.Scheme = b.Scheme
		return ref.String(), true
	}
	if strings.HasPrefix(ref.Path, "/") {
		ref.Path = "." + ref.Path
		if ref.RawPath != "" {
			ref.RawPath = "." + ref.RawPath
		}
	}
	abs := b.ResolveReference(ref)
	if ref.Path != "" && strings.HasSuffix(abs.Path, "/") {
		abs.Path += "index.md"
		if abs.RawPath != "" {
			abs.RawPath += "index.md"
		}
	}
	out := abs.String()
	if len(out) > cardsize.MaxConceptURL {
		return "", false
	}
	return out, true
}

// mdDestination writes a link destination between angle brackets, where
// only "<", ">", a line break and a backslash would matter: they are
// percent-encoded.
func mdDestination(u string) string {
	return "<" + strings.NewReplacer("<", "%3C", ">", "%3E", "\n", "%0A", "\r", "%0D", `\`, "%5C").Replace(u) + ">"
}

// mdAutolink writes an absolute URL the card holds as an autolink; one
// with a space, or not absolute, is written as code.
func mdAutolink(u string) string {
	if p, err := url.Parse(u); err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != "" &&
		!strings.ContainsAny(u, " <>\t\n\r\\") {
		return "<" + u + ">"
	}
	return mdCode(u)
}

// mdCode writes s as a code span: a fence of backticks longer than any run
// inside, padded with a space when s starts or ends with a backtick or a
// space; line breaks become spaces (a code span across lines could start a
// block on its second line).
func mdCode(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	if s == "" {
		return "` `"
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' || s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	return fence + s + fence
}

// fencedCode writes a code block fenced by more backticks than any run in
// its text.
func fencedCode(text, info string) string {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	return fence + info + "\n" + strings.TrimRight(text, "\n") + "\n" + fence
}

// infoWord keeps the first word of a code block's info string when it is
// a plain language name; anything else is dropped.
func infoWord(info string) string {
	f := strings.Fields(info)
	if len(f) == 0 || len(f[0]) > 30 {
		return ""
	}
	for _, r := range f[0] {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("+-._#", r))) {
			return ""
		}
	}
	return f[0]
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// prefixLines puts first before the first line of s and rest before each
// other line (a blank line gets rest without its trailing spaces).
func prefixLines(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if l == "" {
			p = strings.TrimRight(p, " ")
		}
		lines[i] = p + l
	}
	return strings.Join(lines, "\n")
}

// plainText is the text of a node and its children.
func plainText(n ast.Node) string {
	var b strings.Builder
	ast.WalkFunc(n, func(n ast.Node, entering bool) ast.WalkStatus {
		if !entering {
			return ast.GoToNext
		}
		if l := n.AsLeaf(); l != nil {
			b.Write(l.Literal)
		}
		return ast.GoToNext
	})
	return b.String()
}

// mdText writes a value as markdown text within a line: folded onto one
// line, its markup characters escaped. A value that starts a line (inside
// a quote) also needs safeLineStart.
func mdText(s string) string { return escapeInline(oneLine(s)) }

// oneLine folds a value onto one line, so it cannot start a heading or a
// list item of its own.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// escapeInline backslash-escapes what would make inline markup of text:
// emphasis, code, links and images, raw HTML and autolinks, character
// references, strikethrough, the escape character itself, and a "#" that a
// heading would take as its closing sequence. "_" inside a word stays (it
// makes no emphasis there), as does "&" that starts no reference.
func escapeInline(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '[', ']', '<', '>', '~', '|':
			b.WriteByte('\\')
		case '_':
			if !(i > 0 && isWordByte(s[i-1]) && i+1 < len(s) && isWordByte(s[i+1])) {
				b.WriteByte('\\')
			}
		case '&':
			if i+1 < len(s) && (s[i+1] == '#' || isWordByte(s[i+1])) {
				b.WriteByte('\\')
			}
		case '#':
			if i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n' {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isWordByte reports whether c is an ASCII letter or digit, or a byte of a
// multi-byte character (letters of other scripts).
func isWordByte(c byte) bool {
	return c >= utf8.RuneSelf || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// safeLineStart escapes a line's start that would open a block: a list
// item ("-", "+", "*", "1." or "1)"), a thematic break or setext underline
// ("-", "=", "_"), a quote (">"), a heading ("#") or a fence ("~", "`").
// The escapes of escapeInline are kept.
func safeLineStart(line string) string {
	if line == "" {
		return line
	}
	switch line[0] {
	case '-', '+', '=', ':', '#':
		return `\` + line
	}
	i := 0
	for i < len(line) && i < 9 && '0' <= line[i] && line[i] <= '9' {
		i++
	}
	if i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')') {
		return line[:i] + `\` + line[i:]
	}
	return line
}
