package okf

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/gomarkdown/markdown/ast"
	"github.com/okfindex/okf-index/pkg/safetext"
)

// sanitize makes input safe for every later step and for the card's
// consumers (JSON, Postgres text): a leading UTF-8 BOM is dropped, CRLF and
// lone CR become LF, invalid UTF-8 becomes U+FFFD and NUL bytes are removed.
// Everything the card holds is cut from the sanitized text, so every output
// string is valid UTF-8 without NULs.
func sanitize(src []byte) []byte {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
		src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	}
	if bytes.IndexByte(src, 0) >= 0 {
		src = bytes.ReplaceAll(src, []byte{0}, nil)
	}
	if !utf8.Valid(src) {
		src = bytes.ToValidUTF8(src, []byte("\uFFFD"))
	}
	return src
}

// cleanString applies sanitize's guarantees to a string that did not come
// from the input (the caller's Root fields).
func cleanString(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
}

// cutAtRuneBoundary returns at most n bytes of b without splitting a UTF-8
// sequence.
func cutAtRuneBoundary(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	cut := n
	for cut > 0 && n-cut < utf8.UTFMax && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return b[:cut]
}

// capRunes returns the first n runes of s.
func capRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

// plainText renders inline markdown as one line of text: emphasis,
// strikethrough and links keep their text, code spans keep their content;
// images, raw HTML and math are dropped. Whitespace, line breaks included,
// is collapsed.
func plainText(nodes ...ast.Node) string {
	return safetext.Line(rawText(nodes...))
}

// rawText is plainText without collapsing whitespace: line breaks stay "\n".
func rawText(nodes ...ast.Node) string {
	var b strings.Builder
	for _, n := range nodes {
		writeText(&b, n)
	}
	return b.String()
}

// writeText appends the plain text of n and its descendants to b.
func writeText(b *strings.Builder, n ast.Node) {
	switch n := n.(type) {
	case *ast.Image, *ast.HTMLSpan, *ast.HTMLBlock, *ast.Math, *ast.MathBlock:
		return
	case *ast.Text:
		b.Write(n.Literal)
	case *ast.Code:
		b.Write(n.Literal)
	case *ast.Softbreak, *ast.Hardbreak:
		b.WriteByte('\n')
	case *ast.NonBlockingSpace:
		b.WriteByte(' ')
	}
	for _, c := range n.GetChildren() {
		writeText(b, c)
	}
}

// hasText reports whether n renders to any non-space plain text.
func hasText(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.Image, *ast.HTMLSpan, *ast.HTMLBlock, *ast.Math, *ast.MathBlock:
		return false
	case *ast.Text:
		return len(bytes.TrimSpace(n.Literal)) > 0
	case *ast.Code:
		return len(bytes.TrimSpace(n.Literal)) > 0
	}
	for _, c := range n.GetChildren() {
		if hasText(c) {
			return true
		}
	}
	return false
}
