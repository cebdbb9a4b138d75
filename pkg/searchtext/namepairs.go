package searchtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// People type a product's name glued as its web address writes it
// ("homeassistant" for Home Assistant, "githubactions", "dockercompose"),
// and a query's one word does not meet a name's two. NamePairs gives the
// words of a name's neighbouring words glued, which the name's vector
// holds beside its words (the other way, two words typed apart for a name
// written glued, is the query's: store's gluedWord).

// maxNamePairs bounds the pairs of one name: its first words are the ones
// glued in an address.
const maxNamePairs = 4

// NamePairs returns each two neighbouring words of name glued and
// lowercased, space-separated ("Home Assistant Cookbook" -> "homeassistant
// assistantcookbook"), at most maxNamePairs of them, "" when there are none.
// A word is a token of letters and digits (punctuation around it trimmed),
// not CJK (its bigrams already join it) nor a name written with symbols
// ("C++"), with a letter; a pair longer than
// maxGluedRunes is left out.
func NamePairs(name string) string {
	var pairs []string
	prev := ""
	for token := range tokens(name) {
		word := strings.ToLower(trimToWord(token))
		if _, _, _, symbol := symbolName(token); symbol || !nameWord(word) {
			prev = ""
			continue
		}
		if prev != "" && utf8.RuneCountInString(prev)+utf8.RuneCountInString(word) <= maxGluedRunes {
			pairs = append(pairs, prev+word)
			if len(pairs) == maxNamePairs {
				break
			}
		}
		prev = word
	}
	return strings.Join(pairs, " ")
}

// nameWord reports whether word is made of letters and digits only, none
// CJK, with a letter.
func nameWord(word string) bool {
	letter := false
	for _, r := range word {
		switch {
		case isCJK(r) || !unicode.IsLetter(r) && !unicode.IsDigit(r):
			return false
		case unicode.IsLetter(r):
			letter = true
		}
	}
	return letter
}
