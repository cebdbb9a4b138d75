package searchtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A token is a maximal run of non-space characters, as Postgres's parser
// first sees it. Inside a token, runs of letters and digits are separated by
// punctuation; how the token is joined decides what the parser keeps whole.

// isWordRune reports whether r belongs in a word: a letter or a digit.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isMark reports combining marks, which neither end a word nor appear in
// the words this package returns (unaccent drops the common ones anyway).
func isMark(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me)
}

// isCJK reports the characters Postgres's parser lumps into one token per
// run because they are written without spaces: Han, Hiragana, Katakana,
// Hangul, and the kana length mark and 〆, which Unicode files as Common.
// Only letters: those scripts also hold symbols such as ㍃ (U+3343).
func isCJK(r rune) bool {
	if r < 0x1100 {
		return false // below Hangul Jamo, the first of them: the fast path for Latin text
	}
	switch r {
	case 'ー', 'ｰ', '〆':
		return true
	}
	return unicode.IsLetter(r) && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// tokenRuns cuts token into its runs of letters and digits (marks dropped).
// pathJoined is true when a '.', '/' or ':' separates two runs: Postgres
// keeps such a token whole ("okf.index", "owner/repo", a URL), so its parts
// are nowhere in the index unless Expand adds them.
func tokenRuns(token string) (runs []string, pathJoined bool) {
	start, marked, pathSep := -1, false, false
	flush := func(end int) {
		if start < 0 {
			return
		}
		run := token[start:end]
		if marked {
			run = strings.Map(func(r rune) rune {
				if isMark(r) {
					return -1
				}
				return r
			}, run)
		}
		if run != "" {
			runs = append(runs, run)
		}
		start, marked = -1, false
	}
	for i, r := range token {
		switch {
		case isWordRune(r):
			if start < 0 {
				pathJoined = pathJoined || pathSep && len(runs) > 0
				start, pathSep = i, false
			}
		case isMark(r):
			// A mark inside a run is dropped from it; before any letter,
			// it goes with the separators.
			marked = marked || start >= 0
		default:
			flush(i)
			pathSep = pathSep || r == '.' || r == '/' || r == ':'
		}
	}
	flush(len(token))
	return runs, pathJoined
}

// runeClass is what a word character is for splitting at boundaries.
type runeClass int

const (
	classLower runeClass = iota // lowercase, and letters without case
	classUpper
	classDigit
	classCJK
)

func classOf(r rune) runeClass {
	switch {
	case isCJK(r):
		return classCJK
	case unicode.IsDigit(r):
		return classDigit
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return classUpper
	}
	return classLower
}

// wordParts splits a run of letters and digits where Postgres's parser does
// not: "PharmacyDomain" -> Pharmacy Domain, "XMLHttpRequest" -> XML Http
// Request, "web3" -> web 3, "AI大模型" -> AI 大模型. The cuts are at a lower to
// upper change, before the last capital of a capital run that a lowercase
// letter follows, and wherever digits or CJK characters start or stop.
func wordParts(run string) []string {
	var parts []string
	start := 0
	prevClass := runeClass(-1)
	for i, r := range run {
		class := classOf(r)
		if i > start && cutBefore(prevClass, class, run[i+utf8.RuneLen(r):]) {
			parts = append(parts, run[start:i])
			start = i
		}
		prevClass = class
	}
	return append(parts, run[start:])
}

// cutBefore reports whether a word splits between a character of class prev
// and one of class cur, followed by rest.
func cutBefore(prev, cur runeClass, rest string) bool {
	if prev != cur && (prev == classDigit || cur == classDigit || prev == classCJK || cur == classCJK) {
		return true
	}
	if prev == classLower && cur == classUpper {
		return true
	}
	if prev == classUpper && cur == classUpper {
		next, _ := utf8.DecodeRuneInString(rest)
		return rest != "" && unicode.IsLower(next)
	}
	return false
}

// bigrams returns a CJK run as overlapping pairs of characters, as Lucene's
// CJKBigramFilter does, so any two-character word inside it can be found;
// a one-character run is itself.
func bigrams(run string) []string {
	runes := []rune(run)
	if len(runes) < 2 {
		return []string{run}
	}
	pairs := make([]string, 0, len(runes)-1)
	for i := 0; i+1 < len(runes); i++ {
		pairs = append(pairs, string(runes[i:i+2]))
	}
	return pairs
}

// prefixBytes returns at most limit bytes of s, cut at a character boundary.
func prefixBytes(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
