package searchtext

import (
	"strings"
	"unicode"
)

// Bounds of Expand: a bundle's text is long, its extra words must not be.
const (
	// MaxExpandInput is how many bytes of text Expand reads.
	MaxExpandInput = 16 << 10
	// MaxExpandOutput is the most bytes Expand returns.
	MaxExpandOutput = 8 << 10
)

// Expand returns the words Postgres's default parser would not make of text
// by itself, space-separated, "" when there are none, so that
// text + " " + Expand(text) indexes them all:
//   - the parts of words split at case and letter/digit boundaries
//     ("PharmacyDomain" -> "Pharmacy Domain", "web3" -> "web 3");
//   - the parts of tokens joined by '.', '/' or ':' ("okf.index" ->
//     "okf index"), each camel-split as well;
//   - each run of Han, Hiragana, Katakana and Hangul characters as
//     overlapping bigrams ("大模型研究" -> "大模 模型 型研 研究"); a run of one
//     or two characters standing alone is already a word of its own.
//
// The words of one token stay together and in order, so a query's parts
// match them as a phrase; a token whose words were already given is not
// repeated. Expand reads at most MaxExpandInput bytes and returns at most
// MaxExpandOutput, cut at a word boundary.
func Expand(text string) string {
	text = prefixBytes(text, MaxExpandInput)
	out := expansion{seen: make(map[string]struct{})}
	for _, token := range strings.FieldsFunc(text, unicode.IsSpace) {
		if !out.add(tokenExpansion(token)) {
			break
		}
	}
	return out.b.String()
}

// tokenExpansion returns the words Expand adds for one token, in order.
func tokenExpansion(token string) []string {
	runs, pathJoined := tokenRuns(token)
	var words []string
	for _, run := range runs {
		parts := wordParts(run)
		if !pathJoined && len(parts) == 1 && !(isCJK(firstRune(run)) && len([]rune(run)) > 2) {
			continue // a plain word or a short CJK word: the parser makes it
		}
		for _, part := range parts {
			if isCJK(firstRune(part)) {
				words = append(words, bigrams(part)...)
			} else {
				words = append(words, part)
			}
		}
	}
	return words
}

// expansion accumulates Expand's output within MaxExpandOutput.
type expansion struct {
	b    strings.Builder
	seen map[string]struct{}
}

// add appends words unless the same words (in any case) were added before,
// and reports whether there is room for more.
func (e *expansion) add(words []string) bool {
	if len(words) == 0 {
		return true
	}
	key := strings.ToLower(strings.Join(words, " "))
	if _, dup := e.seen[key]; dup {
		return true
	}
	e.seen[key] = struct{}{}
	for _, w := range words {
		need := len(w)
		if e.b.Len() > 0 {
			need++
		}
		if e.b.Len()+need > MaxExpandOutput {
			return false
		}
		if e.b.Len() > 0 {
			e.b.WriteByte(' ')
		}
		e.b.WriteString(w)
	}
	return true
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return -1
}
