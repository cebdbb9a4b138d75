package searchtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Thresholds of Language. A bundle is analysed with a language other than
// English only when that language's stop words make at least
// minStopShare of the text's Latin words and there are at least
// minStopWords of them: one "die" or "como" proves nothing, and the
// stop words of any running text are a third or more of its words, so
// a tenth still holds for a bundle that is mostly a list of names. Two is
// enough for a short query ("como integrar finanças com planilhas").
const (
	minStopWords = 2
	minStopShare = 0.10
	// languagePrefix is how many bytes of text Language reads: plenty to
	// tell a language, and a bound on its cost.
	languagePrefix = 8 << 10
	// cjkWeight is how many Latin letters a Han, Kana or Hangul character
	// counts for when scripts are compared: one writes about as much as a
	// syllable or a short word, and a Japanese or Chinese bundle is full of
	// Latin product names and code that would otherwise outnumber it.
	cjkWeight = 3
)

// Language returns the configuration to analyse a bundle whose text is
// text (its name, tagline, description, concept names and summaries,
// joined by spaces). The script with the most letters decides first, a
// CJK character counting as cjkWeight letters: Cyrillic is Russian; Han,
// Kana, Hangul or any other script that is neither Latin nor Cyrillic is
// Simple, for no stemmer of ours knows it; Latin (which wins ties) goes on
// to stop words. Of Latin text, the language whose stop words are the
// largest share of its words, when that share and count clear the
// thresholds above; English when nothing stands out, on ties, and for
// empty text. A bundle may mix languages: the one it uses most for its
// connecting words wins. Language reads at most the first 8 KiB of text.
func Language(text string) string {
	text = prefixBytes(text, languagePrefix)
	var latin, cyrillic, other int
	for _, r := range text {
		switch {
		case !unicode.IsLetter(r):
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.Is(unicode.Cyrillic, r):
			cyrillic++
		case isCJK(r):
			other += cjkWeight
		default:
			other++
		}
	}
	switch {
	case latin >= cyrillic && latin >= other:
		return latinLanguage(text)
	case cyrillic >= other:
		return Russian
	}
	return Simple
}

// latinLanguage picks among the stemming configurations by stop words.
// Only prose counts: a word standing alone between spaces (punctuation
// around it aside), of two letters or more and not in capitals. Letters cut
// from slugs, paths and identifiers ("3-d-and-4-d", "AI") and one-letter
// words are in several lists at once and would decide by accident.
func latinLanguage(text string) string {
	hits := make(map[string]int, len(Stemmed))
	words := 0
	for _, token := range strings.FieldsFunc(text, unicode.IsSpace) {
		word := strings.TrimFunc(token, func(r rune) bool { return !isWordRune(r) })
		if word == "" || !hasLatinLetter(word) {
			continue
		}
		words++
		if strings.IndexFunc(word, func(r rune) bool { return !isWordRune(r) && !isMark(r) }) >= 0 ||
			utf8.RuneCountInString(word) < 2 || strings.ToUpper(word) == word {
			continue
		}
		folded := fold(word)
		for _, config := range Stemmed {
			if _, stop := stopSets[config][folded]; stop {
				hits[config]++
			}
		}
	}
	best := English
	for _, config := range Stemmed {
		if hits[config] > hits[best] {
			best = config
		}
	}
	n := hits[best]
	if n < minStopWords || float64(n) < minStopShare*float64(words) {
		return English
	}
	return best
}

func hasLatinLetter(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Latin, r) {
			return true
		}
	}
	return false
}
