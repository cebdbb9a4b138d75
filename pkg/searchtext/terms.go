package searchtext

import (
	"strings"
	"unicode"
)

// tokenTerms returns the terms of one unquoted token. Text between CJK runs
// is a compound: one word ("PharmacyDomain", with its Parts), or words that
// must be adjacent ("react-native", "node.js"). Each CJK run is a phrase of
// its bigrams. The words are those the index holds for the same token:
// Postgres's own for '-' and '_' compounds, Expand's camel-split parts for
// '.', '/' and ':' ones, which Postgres keeps whole.
func tokenTerms(token string) []Term {
	return tokenTermsCut(token, false)
}

// queryTokenTerms is tokenTerms of a token of the query as typed, whose CJK
// runs are cut into the words they hold (cjkWords), each a phrase of its
// bigrams followed by its chunks (cjkChunks). A quoted phrase, an excluded
// token and a repository's name are taken as written (tokenTerms).
func queryTokenTerms(token string) []Term {
	return tokenTermsCut(token, true)
}

func tokenTermsCut(token string, cutCJK bool) []Term {
	var terms []Term
	for _, seg := range cjkSegments(token) {
		if seg.cjk {
			words := []string{seg.text}
			if cutCJK {
				words = cjkWords(seg.text)
			}
			for _, w := range words {
				terms = append(terms, newTerm(bigrams(w), true))
				if cutCJK {
					for _, chunk := range cjkChunks(w) {
						t := newTerm(bigrams(chunk), true)
						t.Chunk = true
						terms = append(terms, t)
					}
				}
			}
			continue
		}
		runs, pathJoined := tokenRuns(seg.text)
		switch {
		case len(runs) == 0:
		case len(runs) == 1:
			t := newTerm(runs, false)
			if parts := wordParts(runs[0]); len(parts) > 1 {
				t.Parts = lowerWords(parts)
			}
			terms = append(terms, t)
		case pathJoined:
			var parts []string
			for _, run := range runs {
				parts = append(parts, wordParts(run)...)
			}
			terms = append(terms, newTerm(parts, true))
		default:
			terms = append(terms, newTerm(runs, true))
		}
	}
	return terms
}

// phraseTerm returns the words of text, in order, as one phrase.
func phraseTerm(text string) (Term, bool) {
	var words []string
	for _, token := range strings.FieldsFunc(text, unicode.IsSpace) {
		for _, t := range tokenTerms(token) {
			words = append(words, t.Words...)
		}
		if len(words) >= maxTermWords {
			break
		}
	}
	if len(words) == 0 {
		return Term{}, false
	}
	return newTerm(words, true), true
}

// newTerm returns a term of words, lowercased and bounded.
func newTerm(words []string, phrase bool) Term {
	return Term{Words: lowerWords(words), Phrase: phrase}
}

// lowerWords lowercases words, truncates each to maxWordRunes and keeps at
// most maxTermWords of them.
func lowerWords(words []string) []string {
	words = words[:min(len(words), maxTermWords)]
	out := make([]string, len(words))
	for i, w := range words {
		var b strings.Builder
		n := 0
		for _, r := range w {
			if n == maxWordRunes {
				break
			}
			b.WriteRune(unicode.ToLower(r))
			n++
		}
		out[i] = b.String()
	}
	return out
}

// segment is a stretch of a token that is, or is not, CJK.
type segment struct {
	text string
	cjk  bool
}

// cjkSegments cuts token where CJK characters start and stop.
func cjkSegments(token string) []segment {
	var segs []segment
	start := 0
	for i, r := range token {
		cjk := isCJK(r)
		if i == 0 {
			segs = append(segs, segment{cjk: cjk})
			continue
		}
		if cjk != segs[len(segs)-1].cjk {
			segs[len(segs)-1].text = token[start:i]
			segs = append(segs, segment{cjk: cjk})
			start = i
		}
	}
	if len(segs) > 0 {
		segs[len(segs)-1].text = token[start:]
	}
	return segs
}
