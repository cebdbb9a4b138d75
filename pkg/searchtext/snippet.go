package searchtext

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Field is one card field a snippet may come from.
type Field struct {
	Name string // name, tagline, description or concepts
	Text string
}

// Passage is a short run of a field's text with the words that met the
// query marked: each mark is [start, end) in runes of Text.
type Passage struct {
	Field string
	Text  string
	Marks [][2]int
}

// SnippetRunes bounds a passage's text, ellipses included.
const SnippetRunes = 240

// maxSnippetInput bounds what Snippet reads of a field.
const maxSnippetInput = 16 << 10

// Snippet returns the passage of the first field, in the order given, that
// holds a word of q's terms, with every such word marked; ok is false when
// none does. It says why a bundle matched, as a reader sees it, without
// Postgres's stemmers: a word is marked when it is a term's word, begins
// with the word being typed (Prefix), or shares all but its last letter
// or two with a term's word ("decorator" for "decorators", "notas" for
// "nota"; accents and case never count). A CJK run is marked where the
// term's characters stand together.
func Snippet(q Query, fields []Field) (Passage, bool) {
	m := newMatcher(q)
	if m.empty() {
		return Passage{}, false
	}
	for _, f := range fields {
		text := f.Text
		if len(text) > maxSnippetInput {
			text = strings.ToValidUTF8(text[:maxSnippetInput], "")
		}
		if marks := m.marks(text); len(marks) > 0 {
			return window(f.Name, text, marks), true
		}
	}
	return Passage{}, false
}

// matcher holds q's words as Snippet compares them.
type matcher struct {
	words    []string // folded words of the terms
	prefixes []string // folded words being typed
	runs     []string // CJK runs, as typed
	symbols  []string // the names written with symbols whose words are q's ("c++")
}

func newMatcher(q Query) matcher {
	var m matcher
	for _, t := range q.Terms {
		if t.Phrase && len(t.Words) > 0 && isCJK(firstRune(t.Words[0])) {
			m.runs = append(m.runs, joinBigrams(t.Words))
			continue
		}
		for _, w := range slices.Concat(t.Words, t.Parts, t.Spellings, t.Acronyms, strings.Fields(t.Expansion)) {
			if t.Prefix {
				m.prefixes = append(m.prefixes, fold(w))
			}
			m.words = append(m.words, fold(w))
		}
	}
	for symbol, word := range symbolNames {
		if slices.Contains(m.words, word) {
			m.symbols = append(m.symbols, symbol)
		}
	}
	return m
}

func (m matcher) empty() bool { return len(m.words)+len(m.prefixes)+len(m.runs) == 0 }

// marks are the spans of text that meet q, in order, not overlapping.
func (m matcher) marks(text string) [][2]int {
	var marks [][2]int
	runes := []rune(text)
	for start := 0; start < len(runes); {
		if end := m.symbolEnd(runes, start); end > start {
			marks = append(marks, [2]int{start, end})
			start = end
			continue
		}
		if !inWord(runes[start]) {
			start++
			continue
		}
		end := start
		for end < len(runes) && inWord(runes[end]) && isCJK(runes[end]) == isCJK(runes[start]) {
			end++
		}
		if isCJK(runes[start]) {
			marks = append(marks, m.runMarks(runes[start:end], start)...)
		} else if m.meets(fold(string(runes[start:end]))) {
			marks = append(marks, [2]int{start, end})
		}
		start = end
	}
	return marks
}

// symbolEnd returns where a name written with symbols that q looks for
// (symbolNames: "C++" for cpp) ends when one begins at start, standing
// apart from the words around it; start otherwise.
func (m matcher) symbolEnd(runes []rune, start int) int {
	if len(m.symbols) == 0 || start > 0 && inWord(runes[start-1]) {
		return start
	}
	for _, symbol := range m.symbols {
		end := start + len(symbol)
		if end > len(runes) || unicode.ToLower(runes[start]) != rune(symbol[0]) ||
			!strings.EqualFold(string(runes[start:end]), symbol) {
			continue
		}
		if symbol == "c++" { // a version: C++20
			for end < len(runes) && unicode.IsDigit(runes[end]) {
				end++
			}
		}
		if end == len(runes) || !inWord(runes[end]) {
			return end
		}
	}
	return start
}

// meets reports whether a folded word of the text meets one of q's.
func (m matcher) meets(w string) bool {
	for _, p := range m.prefixes {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	for _, q := range m.words {
		if w == q || sameStem(w, q) {
			return true
		}
	}
	return false
}

// runMarks are the places of q's CJK runs within a CJK run of the text.
func (m matcher) runMarks(run []rune, offset int) [][2]int {
	var marks [][2]int
	for i := 0; i < len(run); {
		hit := 0
		for _, r := range m.runs {
			n := utf8.RuneCountInString(r)
			if n > 0 && i+n <= len(run) && string(run[i:i+n]) == r {
				hit = max(hit, n)
			}
		}
		if hit == 0 {
			i++
			continue
		}
		marks = append(marks, [2]int{offset + i, offset + i + hit})
		i += hit
	}
	return marks
}

// sameStem reports whether two folded words look like forms of one word, as
// a stemmer cutting an ending would leave them: the shorter has at least
// three letters, all of them but perhaps its last begin the longer, and the
// longer is at most four letters longer.
func sameStem(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	short := min(len(ra), len(rb))
	if short < 3 || max(len(ra), len(rb))-short > 4 {
		return false
	}
	common := 0
	for common < short && ra[common] == rb[common] {
		common++
	}
	return common >= 3 && common >= short-1
}

// window cuts text around its first mark to at most SnippetRunes runes,
// at word boundaries, marking a cut with an ellipsis, and moves the marks
// with it (dropping those that fall outside).
func window(field, text string, marks [][2]int) Passage {
	runes := []rune(text)
	from, to := 0, len(runes)
	if to > SnippetRunes {
		from = max(0, marks[0][0]-SnippetRunes/4)
		for from > 0 && from < marks[0][0] && inWord(runes[from-1]) {
			from++ // start at a word's start
		}
		to = min(len(runes), from+SnippetRunes-2)
		for to < len(runes) && to > marks[0][1] && inWord(runes[to]) {
			to-- // end at a word's end
		}
	}
	var b strings.Builder
	shift := -from
	if from > 0 {
		b.WriteString("…")
		shift++
	}
	b.WriteString(string(runes[from:to]))
	if to < len(runes) {
		b.WriteString("…")
	}
	p := Passage{Field: field, Text: b.String(), Marks: [][2]int{}}
	for _, mk := range marks {
		if mk[0] >= from && mk[1] <= to {
			p.Marks = append(p.Marks, [2]int{mk[0] + shift, mk[1] + shift})
		}
	}
	return p
}

// inWord reports whether r belongs to a word of a field's text: a letter,
// a digit or a combining mark.
func inWord(r rune) bool { return isWordRune(r) || isMark(r) }

// joinBigrams is the CJK run whose bigrams are words ("大模", "模型" is
// "大模型"); a single character is itself.
func joinBigrams(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i == 0 {
			b.WriteString(w)
			continue
		}
		_, size := utf8.DecodeRuneInString(w)
		b.WriteString(w[size:])
	}
	return b.String()
}
