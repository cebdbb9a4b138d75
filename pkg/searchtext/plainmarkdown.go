package searchtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// PlainMarkdown is markdown as a reader sees it, on one line, for a
// snippet: headings, list and quote markers, rules, table pipes, code
// fences and backticks, emphasis, HTML tags and link targets are left out;
// a link or an image keeps its text. It is a single linear pass, cheap
// enough for every row of a page, not a parser: what it does not know it
// keeps as text.
func PlainMarkdown(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for line := range strings.Lines(s) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || isRule(t) {
			continue
		}
		t = blockText(t)
		if t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		writeInline(&b, t)
	}
	return collapseSpaces(b.String())
}

// blockText is line t without its block markers: quote markers, a heading's
// hashes, a list item's bullet or number, a task box.
func blockText(t string) string {
	for {
		switch {
		case strings.HasPrefix(t, ">"):
			t = strings.TrimSpace(t[1:])
			continue
		case strings.HasPrefix(t, "#"):
			h := strings.TrimLeft(t, "#")
			if len(t)-len(h) <= 6 && (h == "" || h[0] == ' ' || h[0] == '\t') {
				t = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#"))
				continue
			}
		case len(t) >= 2 && strings.ContainsRune("*+-", rune(t[0])) && (t[1] == ' ' || t[1] == '\t'):
			t = strings.TrimSpace(t[2:])
			continue
		case strings.HasPrefix(t, "[ ] ") || strings.HasPrefix(t, "[x] ") || strings.HasPrefix(t, "[X] "):
			t = strings.TrimSpace(t[4:])
			continue
		}
		if n := leadingDigits(t); n > 0 && n <= 9 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') && (t[n+1] == ' ' || t[n+1] == '\t') {
			t = strings.TrimSpace(t[n+2:])
			continue
		}
		return t
	}
}

func leadingDigits(t string) int {
	n := 0
	for n < len(t) && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	return n
}

// isRule reports a thematic break or a table's delimiter row.
func isRule(t string) bool {
	if len(t) < 3 {
		return false
	}
	marks := 0
	for _, r := range t {
		switch r {
		case '-', '*', '_', '=':
			marks++
		case ' ', '\t', '|', ':':
		default:
			return false
		}
	}
	return marks >= 3
}

// writeInline writes the text of one line of inline markdown.
func writeInline(b *strings.Builder, t string) {
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == '\\' && i+1 < len(t) && strings.IndexByte("\\`*_{}[]()#+-.!|<>~", t[i+1]) >= 0:
			b.WriteByte(t[i+1])
			i += 2
			continue
		case c == '!' && i+1 < len(t) && t[i+1] == '[':
			i++ // an image: its alt text, as a link's
			continue
		case c == '[':
			if text, next, ok := link(t, i); ok {
				writeInline(b, text)
				i = next
				continue
			}
		case c == '<':
			if end := strings.IndexByte(t[i:], '>'); end > 1 {
				inner := t[i+1 : i+end]
				switch {
				case strings.HasPrefix(inner, "http://") || strings.HasPrefix(inner, "https://"):
					b.WriteString(inner)
					i += end + 1
					continue
				case isTag(inner):
					b.WriteByte(' ')
					i += end + 1
					continue
				}
			}
		case c == '`' || c == '*' || c == '~':
			i++
			continue
		case c == '_' && !(inWordAt(t, i-1) && inWordAt(t, i+1)):
			i++ // emphasis, not a snake_case name's
			continue
		case c == '|':
			b.WriteByte(' ')
			i++
			continue
		}
		b.WriteByte(c)
		i++
	}
}

// link reads [text](target) or [text][ref] at t[i]: its text and where
// the link ends.
func link(t string, i int) (text string, next int, ok bool) {
	shut := strings.IndexByte(t[i+1:], ']')
	if shut < 0 {
		return "", 0, false
	}
	text, after := t[i+1:i+1+shut], i+2+shut
	if after < len(t) && (t[after] == '(' || t[after] == '[') {
		end := byte(')')
		if t[after] == '[' {
			end = ']'
		}
		if j := strings.IndexByte(t[after:], end); j > 0 {
			return text, after + j + 1, true
		}
	}
	return "", 0, false
}

// isTag reports whether inner (between < and >) reads as an HTML tag or
// comment.
func isTag(inner string) bool {
	r, _ := utf8.DecodeRuneInString(inner)
	return r == '/' || r == '!' || (r < utf8.RuneSelf && unicode.IsLetter(r))
}

func inWordAt(t string, i int) bool {
	if i < 0 || i >= len(t) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t[i:])
	if r == utf8.RuneError {
		r, _ = utf8.DecodeLastRuneInString(t[:i+1])
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// collapseSpaces turns every run of spaces and tabs into one space and
// trims the ends.
func collapseSpaces(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
