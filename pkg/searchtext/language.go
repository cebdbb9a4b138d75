package searchtext

import (
	"strings"
	"unicode"
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
	// minTurkishLetters: Turkish says with suffixes what the others say
	// with stop words ("araştırmaları için": for the studies), so its
	// prose holds a third as many, under minStopShare. Its letters ı, ğ and
	// ş, which no other language of ours writes, say it instead: with this
	// many of them, Turkish stop words leading the count and at least
	// minStopWords of them are enough.
	minTurkishLetters = 3
)

// Language returns the configuration to analyse a bundle whose text is
// text (its name, tagline, description, concept names and summaries,
// joined by spaces). The script with the most letters decides first, a
// CJK character counting as cjkWeight letters: Cyrillic is Russian; Han,
// Kana, Hangul or any other script that is neither Latin nor Cyrillic is
// Simple, for no stemmer of ours knows it; Latin (which wins ties) goes on
// to stop words. Of Latin text, the language whose stop words are the
// largest share of its words, when that share and count clear the
// thresholds above (Turkish, whose stop words are few, also when they lead
// and the text holds minTurkishLetters of its letters); English when nothing stands out, on ties, and for
// empty text. A bundle may mix languages: the one it uses most for its
// connecting words wins. Language reads at most the first 8 KiB of text.
func Language(text string) string {
	text = prefixBytes(text, languagePrefix)
	var latin, cyrillic, other int
	for _, r := range text {
		switch {
		case r < 0x80: // ASCII: the common case, without table lookups
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				latin++
			}
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
	hits := make([]int, len(Stemmed)) // by index in Stemmed
	words, turkishLetters := 0, 0
	var lower [maxStopWordBytes]byte
	for token := range tokens(text) {
		word := trimToWord(token)
		if word == "" || !hasLatinLetter(word) {
			continue
		}
		words++
		if !isProse(word) {
			continue
		}
		folded := word
		if isASCII(word) && len(word) <= len(lower) {
			// Lowercased into a buffer: a map index by string(bytes) does
			// not allocate.
			for i := 0; i < len(word); i++ {
				c := word[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				lower[i] = c
			}
			count(hits, stopMasks[string(lower[:len(word)])])
			continue
		}
		for _, r := range word {
			if strings.ContainsRune("ığşİĞŞ", r) {
				turkishLetters++
			}
		}
		folded = fold(word)
		count(hits, stopMasks[folded])
	}
	best := 0 // English
	for k := range Stemmed {
		if hits[k] > hits[best] {
			best = k
		}
	}
	n := hits[best]
	if Stemmed[best] == Turkish && n >= minStopWords && turkishLetters >= minTurkishLetters {
		return Turkish
	}
	if n < minStopWords || float64(n) < minStopShare*float64(words) {
		return English
	}
	return Stemmed[best]
}

// count adds one to the hits of each language of mask (a bit per index
// of Stemmed).
func count(hits []int, mask uint16) {
	for k := range hits {
		if mask&(1<<k) != 0 {
			hits[k]++
		}
	}
}

// stopMasks maps each folded stop word to the languages whose stop word it
// is, a bit per index of Stemmed: one lookup a word instead of one per
// language (Language reads every word of every bundle written).
var stopMasks = func() map[string]uint16 {
	m := map[string]uint16{}
	for k, config := range Stemmed {
		for w := range stopSets[config] {
			m[w] |= 1 << k
		}
	}
	return m
}()

// maxStopWordBytes is longer than any stop word: a longer word is none.
const maxStopWordBytes = 32

// trimToWord is token without the characters around its first and last
// letter or digit.
func trimToWord(token string) string {
	if isASCII(token) {
		start, end := 0, len(token)
		for start < end && !isASCIIAlnum(token[start]) {
			start++
		}
		for end > start && !isASCIIAlnum(token[end-1]) {
			end--
		}
		return token[start:end]
	}
	return strings.TrimFunc(token, func(r rune) bool { return !isWordRune(r) })
}

// isProse reports whether word is a word of prose, whose stop words count:
// only letters, digits and marks, two characters at least, and not in
// capitals (letters cut from slugs, paths and identifiers, and acronyms,
// are in several lists at once and would decide by accident).
func isProse(word string) bool {
	lower, n := false, 0
	for _, r := range word {
		if !isWordRune(r) && !isMark(r) {
			return false
		}
		lower = lower || unicode.IsLower(r)
		n++
	}
	return n >= 2 && lower
}

func hasLatinLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			return true
		}
	}
	for _, r := range s {
		if unicode.Is(unicode.Latin, r) {
			return true
		}
	}
	return false
}
