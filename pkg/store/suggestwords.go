package store

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

// The words of "did you mean": how q and names are cut into the words of
// suggest_words (0020_suggest_words.sql), and how the corrections of q's
// words are combined into candidate queries. Pure; Suggest asks the
// database which words exist and which candidates are names.

// Bounds of a word of suggest_words: shorter words are too short to tell a
// typo from another word, longer ones are not words people retype.
const (
	minSuggestWordRunes = 3
	maxSuggestWordRunes = 48
	// A word of at most shortWordRunes runes is corrected by looking up
	// every string one edit away (a few hundred primary key probes): its
	// trigrams are too few for a similarity to find "org" from "ogr".
	// Longer words are corrected through the trigram index.
	shortWordRunes = 4
	// A word of at most maxGluedTypoRunes runes may also be two words
	// glued with a typo in one of them ("okfarg" for "okf org"); each part
	// is then corrected as a short word is.
	maxGluedTypoRunes = 7
	// At most maxSuggestWords words are corrected, at most two of them in
	// one candidate, and at most maxSuggestCandidates candidates are
	// checked against names (one exact tier probe each).
	maxSuggestWords      = 8
	maxSuggestCandidates = 64
)

// isNameSeparator reports whether r separates words in okf_name_key
// (0012_search_rank.sql): spaces and _ . / : -.
func isNameSeparator(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("_./:-", r)
}

// nameWord is a word of q and where it is in q, in bytes.
type nameWord struct {
	text       string // lowercase, as suggest_words holds it
	start, end int
}

// nameWords cuts s into its words as okf_name_key does, lowercased.
func nameWords(s string) []nameWord {
	var out []nameWord
	start := -1
	for i, r := range s + " " {
		switch {
		case isNameSeparator(r) && start >= 0:
			out = append(out, nameWord{strings.ToLower(s[start:i]), start, i})
			start = -1
		case !isNameSeparator(r) && start < 0:
			start = i
		}
	}
	return out
}

// contentWords are words without the stop words, which a search leaves
// out of q (searchtext.ParseQuery) and so never needs corrected.
func contentWords(words []nameWord) []nameWord {
	var out []nameWord
	for _, w := range words {
		if !searchtext.IsStopWord(w.text) {
			out = append(out, w)
		}
	}
	return out
}

// dictionaryWords are the words of names that suggest_words keeps, each once.
func dictionaryWords(names []string) []string {
	var out []string
	for _, name := range names {
		for _, w := range nameWords(name) {
			if n := utf8.RuneCountInString(w.text); n >= minSuggestWordRunes && n <= maxSuggestWordRunes {
				out = append(out, w.text)
			}
		}
	}
	slices.Sort(out) // key order: concurrent writers never wait in a cycle
	return slices.Compact(out)
}

// oneEditAway is every string one insertion, deletion, substitution or
// swap of neighbours from w, with letters from w itself and a-z0-9.
func oneEditAway(w string) []string { return editsOf(w, true) }

// exactVariants are the strings one edit from w that Suggest looks up
// exactly: every one for a short word; for a longer one, whose trigrams
// find most typos, the swaps of neighbours and deletions, which change
// most of the trigrams around them ("fucnia" shares a quarter of
// "fucina"'s).
func exactVariants(w string) []string {
	return editsOf(w, utf8.RuneCountInString(w) <= shortWordRunes)
}

// editsOf is every string one deletion or swap of neighbours from w, and
// with letters one insertion or substitution (from w itself and a-z0-9),
// each once, w excluded.
func editsOf(w string, letters bool) []string {
	r := []rune(w)
	var alphabet []rune
	if letters {
		alphabet = []rune("abcdefghijklmnopqrstuvwxyz0123456789")
		for _, c := range r {
			if !slices.Contains(alphabet, c) {
				alphabet = append(alphabet, c)
			}
		}
	}
	seen := map[string]bool{w: true}
	var out []string
	add := func(v []rune) {
		if s := string(v); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := range len(r) + 1 {
		for _, c := range alphabet {
			add(slices.Concat(r[:i], []rune{c}, r[i:])) // insertion
			if i < len(r) {
				add(slices.Concat(r[:i], []rune{c}, r[i+1:])) // substitution
			}
		}
		if i < len(r) {
			add(slices.Concat(r[:i], r[i+1:])) // deletion
		}
		if i+1 < len(r) {
			v := slices.Clone(r)
			v[i], v[i+1] = v[i+1], v[i]
			add(v) // swap
		}
	}
	return out
}

// correction is a way to write one word of q: the text that replaces it
// and its edits from what was typed.
type correction struct {
	text  string
	edits int
}

// wordCorrections are the corrections of w among the dictionary words
// known: those within maxEdits(w) edits (a swap of neighbours is one), and
// w cut in two words that both exist ("okforg": "okf org", one edit; a
// short part may be one edit from its word, "okfarg", two).
// variants are exactVariants(w), which correctWords has already built to
// look them up. Closest first; w itself is not one.
func wordCorrections(w string, variants []string, known map[string]bool, similar []string) []correction {
	limit := maxEdits(w)
	var out []correction
	seen := map[string]bool{w: true}
	consider := func(text string, edits int) {
		if !seen[text] && edits <= limit {
			seen[text] = true
			out = append(out, correction{text, edits})
		}
	}
	for _, s := range similar {
		consider(s, editDistance(w, s, limit))
	}
	for _, v := range variants {
		if known[v] {
			consider(v, 1)
		}
	}
	n := utf8.RuneCountInString(w)
	for _, cut := range cutsInTwo(w) {
		for _, left := range spellings(cut[0], n, known) {
			for _, right := range spellings(cut[1], n, known) {
				consider(left.text+" "+right.text, 1+left.edits+right.edits)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b correction) int { return a.edits - b.edits })
	return out
}

// cutsInTwo are the ways to cut w in two at a rune, each part non-empty.
func cutsInTwo(w string) [][2]string {
	var out [][2]string
	for i := range w {
		if i > 0 {
			out = append(out, [2]string{w[:i], w[i:]})
		}
	}
	return out
}

// gluedTypoVariants are the strings Suggest looks up, once it knows which
// parts of words exist as typed, for the words that may be two words
// glued with a typo in a short part ("okfarg" for "okf org"): every
// string one edit from a short part whose other part is known. Such a
// word has at most maxGluedTypoRunes runes and so maxEdits of 2, and the
// glue is one: the other part must be exact. Each short part alone has a
// few hundred such strings, three words of a name a few thousand primary
// key probes; only the cuts that can be corrected are looked up.
func gluedTypoVariants(words []nameWord, known map[string]bool) []string {
	var out []string
	for _, w := range words {
		if n := utf8.RuneCountInString(w.text); n < minSuggestWordRunes || n > maxGluedTypoRunes {
			continue
		}
		for _, cut := range cutsInTwo(w.text) {
			for i, part := range cut {
				n := utf8.RuneCountInString(part)
				if known[cut[1-i]] && n >= minSuggestWordRunes && n <= shortWordRunes {
					out = append(out, oneEditAway(part)...)
				}
			}
		}
	}
	return out
}

// spellings are the known words that part of a word of glued runes cut
// in two may be: itself, and when both are short, those one edit away.
func spellings(part string, glued int, known map[string]bool) []correction {
	var out []correction
	if known[part] {
		out = append(out, correction{part, 0})
	}
	if n := utf8.RuneCountInString(part); n >= minSuggestWordRunes && n <= shortWordRunes && glued <= maxGluedTypoRunes {
		for _, v := range oneEditAway(part) {
			if known[v] {
				out = append(out, correction{v, 1})
			}
		}
	}
	return out
}

// candidate is q with one or two of its words corrected.
type candidate struct {
	text  string
	edits int
}

// candidates combines the corrections of q's words (fixes[i] for words[i])
// into at most maxSuggestCandidates queries within budget edits, fewest
// edits first: each word corrected alone, then each pair of words.
func candidates(q string, words []nameWord, fixes [][]correction, budget int) []candidate {
	rewrite := func(with map[int]string) string { return rewrite(q, words, with) }
	var out []candidate
	for i := range words {
		for _, f := range fixes[i] {
			if f.edits <= budget {
				out = append(out, candidate{rewrite(map[int]string{i: f.text}), f.edits})
			}
		}
	}
	for i := range words {
		for j := i + 1; j < len(words); j++ {
			for _, fi := range fixes[i] {
				for _, fj := range fixes[j] {
					if fi.edits+fj.edits <= budget {
						out = append(out, candidate{rewrite(map[int]string{i: fi.text, j: fj.text}), fi.edits + fj.edits})
					}
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b candidate) int { return a.edits - b.edits })
	return out[:min(len(out), maxSuggestCandidates)]
}

// wordCandidates are the corrections of q that Suggest offers when no name
// is near q and no bundle holds every word of q (its words; fixes holds
// corrections of only the words Suggest may correct): for a q of one
// word, that word's corrections (closest first, at most MaxSuggestions);
// for more, q with every word that has a correction replaced by its
// closest, when that is within budget edits in all, so that "qiskt primr"
// is "qiskit primer", not "qiskit primr". Each correction is a word (or
// two glued words) of a name, which fixed holds for each candidate (the
// corrections alone, space-separated): Suggest offers a candidate only when
// a live bundle's name or tagline holds them.
func wordCandidates(q string, words []nameWord, fixes [][]correction, budget int) (out []candidate, fixed []string) {
	if len(words) == 1 {
		for _, f := range fixes[0] {
			if f.edits <= budget && len(out) < MaxSuggestions {
				out = append(out, candidate{rewrite(q, words, map[int]string{0: f.text}), f.edits})
				fixed = append(fixed, f.text)
			}
		}
		return out, fixed
	}
	with, edits := map[int]string{}, 0
	var texts []string
	for i := range words {
		if len(fixes[i]) > 0 {
			with[i] = fixes[i][0].text
			edits += fixes[i][0].edits
			texts = append(texts, fixes[i][0].text)
		}
	}
	if len(with) == 0 || edits > budget {
		return nil, nil
	}
	return []candidate{{rewrite(q, words, with), edits}}, []string{strings.Join(texts, " ")}
}

// rewrite is q with the words of the places in with (indexes of words)
// replaced by their texts.
func rewrite(q string, words []nameWord, with map[int]string) string {
	var b strings.Builder
	last := 0
	for i, w := range words {
		if text, ok := with[i]; ok {
			b.WriteString(q[last:w.start])
			b.WriteString(text)
			last = w.end
		}
	}
	b.WriteString(q[last:])
	return b.String()
}

// maxEdits is the edit distance a correction may be from key: one for a
// short word, one more every five characters, at most three.
func maxEdits(key string) int {
	return min(3, 1+utf8.RuneCountInString(key)/5)
}

// editDistance is the optimal string alignment distance between a and b
// in runes (insertions, deletions, substitutions and swaps of neighbours,
// one edit each), or limit+1 once it must exceed limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	rows := [3][]int{make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		before, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		rows = [3][]int{prev, cur, before}
	}
	return min(rows[1][len(rb)], limit+1)
}
