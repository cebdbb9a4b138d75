package store

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

// textQuery is q as the search statements look it up (search.go): the
// terms searchtext.ParseQuery reads in it, each a text query of the search
// vectors built by the database's own functions (okf_term, okf_phrase:
// migration 0018), so that a word meets its stems in English and in the
// query's language and its unaccented form, and the word being typed also
// the name and tagline words it begins.
//
// The typed word's prefix is looked up in search_head only (names,
// identifiers and taglines): a prefix read through the GIN index of the
// whole vector collects the postings of every word it begins, in every
// description ("torlo" began words in a quarter of a million bundles at
// 1M: half a second), where the head's index holds a tenth of them.
type textQuery struct {
	// all holds every term and none of the excluded, the typed word as
	// written: what the whole vector (search) is asked.
	all string
	// some holds at least one term and none of the excluded. Equal to all
	// when q has one term.
	some string
	// allTyped and someTyped are all and some with the typed word also a
	// prefix: what the head vector (search_head) is asked, and what ranks.
	// Equal to all and some when no word is being typed.
	allTyped, someTyped string
	// terms are the text queries of the terms, one each, in q's order, and
	// termsTyped the same with the typed word also a prefix: relevance
	// counts how many of them a partial match holds.
	terms, termsTyped []string
	// weak says, per term, that it is searchtext.Term.Weak.
	weak []bool
	// allButOne holds, for a q of three terms or more, each term left out
	// in turn: the conjunction of the others (and none of the excluded).
	// The partial tier looks these up first: a question or a q with a word
	// too many is best answered by the bundles holding all its other words.
	allButOne []string
	// excluded is the conjunction of the excluded terms' negations ("" when
	// q excludes nothing), which a head match must also pass on the whole
	// vector.
	excluded string
	// key is what the exact tier compares with names, repositories and ids:
	// the repository a pasted URL names, or q.
	key string
	// dir is the folder of that repository the URL points at, if any.
	dir string
}

// textQuery makes the text queries of q, which searchtext.ParseQuery read
// as parsed, adding their arguments to b. ok is false when q holds no term
// to look for (only punctuation, or only excluded words): such a q finds
// nothing.
func (b *sqlBuilder) textQuery(q string, parsed searchtext.Query) (tq textQuery, ok bool) {
	terms := wanted(parsed)
	if len(terms) == 0 {
		return textQuery{}, false
	}
	lang := searchtext.Language(q)
	for i, t := range terms {
		// Two words typed apart may be one glued name ("chrono pin" is
		// chronopin): each also matches the two glued, as written.
		var glued []string
		for _, pair := range [][2]int{{i - 1, i}, {i, i + 1}} {
			if w, ok := gluedWord(terms, pair[0], pair[1]); ok {
				glued = append(glued, w)
			}
		}
		plain, typed := b.term(t, lang, glued)
		tq.terms = append(tq.terms, plain)
		tq.termsTyped = append(tq.termsTyped, typed)
		tq.weak = append(tq.weak, t.Weak)
	}
	var excluded []string
	for _, t := range parsed.Excluded {
		plain, _ := b.term(t, lang, nil)
		excluded = append(excluded, `!!`+plain)
	}
	and := ``
	if len(excluded) > 0 {
		tq.excluded = `(` + strings.Join(excluded, ` && `) + `)`
		and = ` && ` + tq.excluded
	}
	join := func(terms []string, op string) string {
		if len(terms) == 1 {
			return `(` + terms[0] + and + `)`
		}
		return `((` + strings.Join(terms, op) + `)` + and + `)`
	}
	// Every term is in the conjunction and the disjunction, a Han phrase's
	// chunks too, which the phrase holds (so they change neither): each
	// statement then reads every parameter the terms added. The partial
	// tier leaves a chunk out of q only with its phrase: a conjunction
	// holding the phrase holds every term.
	tq.all, tq.some = join(tq.terms, ` && `), join(tq.terms, ` || `)
	if len(tq.terms) >= 3 {
		parents := chunkParents(terms)
		for i := range tq.terms {
			if parents[i] >= 0 {
				continue
			}
			var others []string
			for j, t := range tq.terms {
				if j != i && (parents[j] < 0 || parents[j] == i) {
					others = append(others, t)
				}
			}
			tq.allButOne = append(tq.allButOne, join(others, ` && `))
		}
	}
	tq.allTyped, tq.someTyped = tq.all, tq.some
	if !slices.Equal(tq.terms, tq.termsTyped) {
		tq.allTyped, tq.someTyped = join(tq.termsTyped, ` && `), join(tq.termsTyped, ` || `)
	}
	tq.key, tq.dir = parsed.Key, parsed.Dir
	return tq, true
}

// chunkParents returns, for each of terms, the index of the Han phrase it
// is a chunk of (searchtext.Term.Chunk: the nearest phrase before it,
// which holds its bigram), -1 for the other terms.
func chunkParents(terms []searchtext.Term) []int {
	out := make([]int, len(terms))
	parent := -1
	for i, t := range terms {
		out[i] = -1
		switch {
		case !t.Chunk:
			parent = i
		case parent >= 0 && terms[parent].Phrase && slices.Contains(terms[parent].Words, t.Words[0]):
			out[i] = parent
		}
	}
	return out
}

// holds is the condition that the bundles row of alias ("" or "x.") holds
// the text query plain, or, when a word is being typed, its head holds
// typed and the row none of the excluded terms.
func (tq textQuery) holds(alias, plain, typed string) string {
	if typed == plain {
		return alias + `search @@ ` + plain
	}
	head := alias + `search_head @@ ` + typed
	if tq.excluded != "" {
		head += ` AND ` + alias + `search @@ ` + tq.excluded
	}
	return `(` + alias + `search @@ ` + plain + ` OR ` + head + `)`
}

// where is the WHERE test of a bundle matching tq: some of its terms
// (some), or all of them; one word, perhaps being typed, also meets names
// and taglines by its prefix (search as you type).
func (tq textQuery) where(some bool) string {
	switch {
	case some:
		return `search @@ ` + tq.some
	case len(tq.terms) == 1:
		return tq.holdsAll("")
	}
	return `search @@ ` + tq.all
}

// whereFaceted is where(some) and facets, a condition on the facet lexemes
// that bundles_live_search holds beside the search vector (facetquery.go),
// put beside each test of the search vector so that one scan of that index
// answers both; a head match is tested for facets apart.
func (tq textQuery) whereFaceted(some bool, facets string) string {
	if facets == "" {
		return tq.where(some)
	}
	if some || len(tq.terms) > 1 || tq.allTyped == tq.all {
		return tq.where(some) + ` AND ` + facets
	}
	return `((search @@ ` + tq.all + ` AND ` + facets + `) OR (` + tq.headHolds(tq.allTyped) + ` AND ` + facets + `))`
}

// holdsAll and holdsSome are holds of every term and of some term.
func (tq textQuery) holdsAll(alias string) string  { return tq.holds(alias, tq.all, tq.allTyped) }
func (tq textQuery) holdsSome(alias string) string { return tq.holds(alias, tq.some, tq.someTyped) }

// holdsTerm is holds of the i-th term.
func (tq textQuery) holdsTerm(alias string, i int) string {
	return tq.holds(alias, tq.terms[i], tq.termsTyped[i])
}

// headRead is headHolds(typed) as a source reads it; whole (a source that
// reads every match through the text index and sorts them: few matches)
// also tests the whole vector for typed, which holds the head's lexemes
// (the same name and tagline, stemmed alike, in full where the head keeps
// their first few hundred characters). The recency index carries the
// head, not the whole vector: the planner, which estimates a word from
// the statistics of every row, hidden and low bundles too, would
// otherwise read that index whole for the head matches of a word that
// example bundles hold (1.6 s at 1M for six live matches), where the text
// index hands them over.
func (tq textQuery) headRead(typed string, whole bool) string {
	if !whole {
		return tq.headHolds(typed)
	}
	return tq.headHolds(typed) + ` AND search @@ ` + typed
}

// headHolds is the condition that a row's head vector holds typed and, when
// q excludes words, that its whole vector holds none of them (only then is
// the whole vector read, which costs an index-only scan its heap visits).
func (tq textQuery) headHolds(typed string) string {
	if tq.excluded != "" {
		return `search_head @@ ` + typed + ` AND search @@ ` + tq.excluded
	}
	return `search_head @@ ` + typed
}

// term is the text query of one term: a phrase (its words together and in
// order, as written or stemmed), or a word (as written or stemmed), which a
// glued word also matches as the phrase of its parts ("PharmacyDomain"
// finds "Pharmacy Domain"); typed is the same with the word being typed
// also the start of a name or tagline word (plain when t is not typed).
// Words are stemmed in English and in lang, the configuration q is written
// in (okf_configs, migration 0018). A word also matches each of glued as
// written (searchtext.Simple), its other spellings (searchtext.Term.Spellings)
// as written or stemmed, the acronyms of the run of q's words it is part of
// (Term.Acronyms) as written, and, an acronym, what it stands for
// (Term.Expansion) as a phrase. With b.widePrefix, the word being typed also
// begins any word of the whole vector, in plain and typed alike.
func (b *sqlBuilder) term(t searchtext.Term, lang string, glued []string) (plain, typed string) {
	if t.Phrase {
		plain = b.call(termCall{fn: "okf_phrase", text: strings.Join(t.Words, " "), lang: lang})
		return plain, plain
	}
	w := t.Words[0]
	parts := ``
	// A part of digits alone ("web3": web, 3) is in a large share of
	// bundles: the phrase would recheck every bundle holding the other
	// part, and the word as written finds the glued form anyway.
	if len(t.Parts) > 1 && !slices.ContainsFunc(t.Parts, allDigits) {
		parts = ` || ` + b.call(termCall{fn: "okf_phrase", text: strings.Join(t.Parts, " "), lang: lang})
	}
	for _, a := range t.Acronyms {
		parts += ` || ` + b.call(termCall{fn: "okf_term", text: a, opt: "false", lang: searchtext.Simple})
	}
	if t.Expansion != "" {
		parts += ` || ` + b.call(termCall{fn: "okf_phrase", text: t.Expansion, lang: lang})
	}
	for _, s := range t.Spellings {
		parts += ` || ` + b.call(termCall{fn: "okf_term", text: s, opt: "false", lang: lang})
	}
	for _, g := range glued {
		parts += ` || ` + b.call(termCall{fn: "okf_term", text: g, opt: "false", lang: searchtext.Simple})
	}
	if t.Prefix && b.widePrefix {
		// The start of any word, as written or stemmed in English, of any
		// weight (okf_prefix, migration 0018).
		parts += ` || ` + b.call(termCall{fn: "okf_prefix", text: w})
	}
	word := termCall{fn: "okf_term", text: w, opt: "false", lang: lang}
	if !t.Prefix {
		plain = `(` + b.call(word) + parts + `)`
		return plain, plain
	}
	begun := word
	begun.opt = "true"
	plain, typed = b.callPair(word, begun)
	return `(` + plain + parts + `)`, `(` + typed + parts + `)`
}

// gluedWord is the word that terms i and j (neighbours in q) make glued,
// when both are single unquoted words that together make at most
// maxGluedRunes: "card pack" gives "cardpack" (a typed last word is glued
// as it stands).
func gluedWord(terms []searchtext.Term, i, j int) (string, bool) {
	if i < 0 || j >= len(terms) {
		return "", false
	}
	a, b := terms[i], terms[j]
	if a.Phrase || b.Phrase || len(a.Words) != 1 || len(b.Words) != 1 {
		return "", false
	}
	w := a.Words[0] + b.Words[0]
	if utf8.RuneCountInString(w) > maxGluedRunes {
		return "", false
	}
	return w, true
}

// maxGluedRunes bounds a glued word: names glued of two words are short.
const maxGluedRunes = 32

// allDigits reports whether w is made of ASCII digits only.
func allDigits(w string) bool {
	return strings.Trim(w, "0123456789") == ""
}
