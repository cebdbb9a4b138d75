// Package safetext cleans text that bundle authors write before any surface
// shows it: the characters that change how a terminal, a page or a reader
// sees text without being text themselves (control characters, bidirectional
// overrides, zero-width characters) are removed, and names get the key under
// which two names that look the same compare equal (Unicode TR39 skeletons).
//
// It is pure: strings in, strings out, no state. The parser applies it at
// ingest, so every surface (JSON, HTML, markdown, feeds, okfctl lint) gets
// clean text; the store applies it again to whatever a writer hands it.
package safetext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
)

// invisible reports whether r is removed from every text: C0 controls other
// than tab and newline, DEL, C1 controls (0x9B is a terminal's CSI), the
// bidirectional marks, embeddings, overrides and isolates, and the
// interlinear annotation marks.
func invisible(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n'
	case r == 0x7f, 0x80 <= r && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	case 0xfff9 <= r && r <= 0xfffb:
		return true
	}
	return false
}

// zeroWidth reports whether r is a character without width that names,
// taglines and concept names lose: zero-width space, non-joiner and joiner,
// word joiner, the invisible operators, the Mongolian vowel separator and
// the byte order mark.
func zeroWidth(r rune) bool {
	switch {
	case 0x200b <= r && r <= 0x200d, 0x2060 <= r && r <= 0x2064, r == 0x180e, r == 0xfeff:
		return true
	}
	return false
}

// Block cleans multi-line text (a description): invalid UTF-8 becomes
// U+FFFD, and the invisible characters are removed; tabs, newlines and
// zero-width characters (emoji sequences need the joiner) stay.
func Block(s string) string {
	if clean(s, false) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if !invisible(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Line cleans one line of text (a name, a tagline, a type, a concept's name
// or summary): each invalid UTF-8 byte becomes U+FFFD, invisible and zero-width
// characters are removed, and each run of whitespace (tabs and newlines
// included) becomes one space, with none at either end.
func Line(s string) string {
	if isLine(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s { // each invalid byte is one U+FFFD
		switch {
		case invisible(r) || zeroWidth(r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// LineCap is Cap(Line(s), n, ellipsis), reading only as much of s as the
// result needs: a name of megabytes costs what its first n characters do.
func LineCap(s string, n int, ellipsis bool) (string, bool) {
	if len(s) <= n && isLine(s) {
		return s, false // the common case: nothing to clean or cut, no copy
	}
	keep := n
	if ellipsis {
		keep = n - 1
	}
	var b strings.Builder
	count, keepLen, space := 0, 0, false
	put := func(r rune) bool { // false when r is past the n-th character
		if count == n {
			return false
		}
		if count == keep {
			keepLen = b.Len()
		}
		b.WriteRune(r)
		count++
		return true
	}
	for _, r := range s {
		switch {
		case invisible(r) || zeroWidth(r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space && !put(' ') || !put(r) {
			if keep == n {
				keepLen = b.Len()
			}
			out := strings.TrimRightFunc(b.String()[:keepLen], unicode.IsSpace)
			if ellipsis {
				out += "…"
			}
			return out, true
		}
		space = false
	}
	return b.String(), false
}

// isLine reports whether Line(s) == s without computing it: clean, and
// its only whitespace single spaces between other characters.
func isLine(s string) bool {
	if !clean(s, true) {
		return false
	}
	prevSpace := true // no leading space
	for _, r := range s {
		if unicode.IsSpace(r) {
			if r != ' ' || prevSpace {
				return false
			}
			prevSpace = true
			continue
		}
		prevSpace = false
	}
	return !prevSpace || s == ""
}

// clean reports whether s is valid UTF-8 without any character Block (or,
// with line, Line) removes: the common case, which costs no copy.
func clean(s string, line bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || invisible(r) || line && zeroWidth(r) {
			return false
		}
		i += size
	}
	return true
}

// Cap returns the first n characters (code points) of s, and whether it cut.
// With ellipsis, a cut string ends in "…" within the n characters.
func Cap(s string, n int, ellipsis bool) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	keep := n
	if ellipsis {
		keep = n - 1
	}
	count := 0
	for i := range s {
		if count == keep {
			if utf8.RuneCountInString(s[i:]) <= n-keep {
				return s, false // exactly n characters: nothing to cut
			}
			out := strings.TrimRightFunc(s[:i], unicode.IsSpace)
			if ellipsis {
				out += "…"
			}
			return out, true
		}
		count++
	}
	return s, false
}

// CapBytes returns at most n bytes of s, cut at a character boundary.
func CapBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// MaxLookAlikeKeyBytes bounds LookAlikeKey, so that the key fits any index.
const MaxLookAlikeKeyBytes = 256

// LookAlikeKey is the key under which names that look alike are equal: the
// Unicode TR39 skeleton of the name, case-folded before and after (so that
// "PAYPAL", "paypal" and "pаypаl" with Cyrillic a agree, and the digit zero,
// whose skeleton is the capital O, matches the letter o), with the
// separators the exact-name tier ignores (spaces, - _ . / :) collapsed to
// one space, at most MaxLookAlikeKeyBytes.
func LookAlikeKey(name string) string {
	sk := strings.ToLower(confusables.Skeleton(strings.ToLower(Line(name))))
	sk = strings.Join(strings.FieldsFunc(sk, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("-_./:", r)
	}), " ")
	return CapBytes(sk, MaxLookAlikeKeyBytes)
}
