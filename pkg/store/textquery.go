package store

import (
	"slices"
	"strings"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

// textQuery is q as the search statements look it up (search.go): the
// terms searchtext.ParseQuery reads in it, each a text query of the search
// vectors built by the database's own functions (okf_term, okf_phrase:
// migration 0018), so that a word meets its stems in every language, its
// unaccented form and, when it is the word being typed, the name and
// tagline words it begins.
type textQuery struct {
	// all holds every term and none of the excluded: what sorted searches
	// and relevance's first tiers match.
	all string
	// some holds at least one term and none of the excluded: the partial
	// tier of relevance, and sorted searches that all finds nothing for.
	// Equal to all when q has one term.
	some string
	// terms are the text queries of the terms, one each, in q's order:
	// relevance counts how many of them a partial match holds.
	terms []string
	// excludes is set when q excludes words ("-word").
	excludes bool
	// key is what the exact tier compares with names, repositories and ids:
	// the repository a pasted URL names, or q.
	key string
	// dir is the folder of that repository the URL points at, if any.
	dir string
}

// textQuery reads q into its text queries, adding their arguments to b.
// ok is false when q holds no term to look for (only punctuation, or only
// excluded words): such a q finds nothing.
func (b *sqlBuilder) textQuery(q string) (tq textQuery, ok bool) {
	parsed := searchtext.ParseQuery(q)
	terms := wanted(parsed)
	if len(terms) == 0 {
		return textQuery{}, false
	}
	lang := b.arg(searchtext.Language(q))
	for _, t := range terms {
		tq.terms = append(tq.terms, b.term(t, lang))
	}
	excluded := ""
	for _, t := range parsed.Excluded {
		t.Prefix = false
		excluded += ` && !!` + b.term(t, lang)
	}
	tq.excludes = excluded != ""
	tq.all = `(` + strings.Join(tq.terms, ` && `) + excluded + `)`
	tq.some = tq.all
	if len(tq.terms) > 1 {
		tq.some = `((` + strings.Join(tq.terms, ` || `) + `)` + excluded + `)`
	}
	tq.key, tq.dir = parsed.Key, parsed.Dir
	return tq, true
}

// term is the text query of one term: a phrase (its words together and in
// order, as written or stemmed), or a word (as written or stemmed, and
// when it is typed, the start of a name or tagline word), which a glued
// word also matches as the phrase of its parts ("PharmacyDomain" finds
// "Pharmacy Domain"). Words are stemmed in English and in lang, the
// placeholder of the language q is written in (okf_configs, migration
// 0018).
func (b *sqlBuilder) term(t searchtext.Term, lang string) string {
	if t.Phrase {
		return `okf_phrase(` + b.arg(strings.Join(t.Words, " ")) + `, ` + lang + `)`
	}
	prefix := "false"
	if t.Prefix {
		prefix = "true"
	}
	word := `okf_term(` + b.arg(t.Words[0]) + `, ` + prefix + `, ` + lang + `)`
	// A part of digits alone ("web3": web, 3) is in a large share of
	// bundles: the phrase would recheck every bundle holding the other
	// part, and the word as written finds the glued form anyway.
	if len(t.Parts) > 1 && !slices.ContainsFunc(t.Parts, allDigits) {
		return `(` + word + ` || okf_phrase(` + b.arg(strings.Join(t.Parts, " ")) + `, ` + lang + `))`
	}
	return word
}

// allDigits reports whether w is made of ASCII digits only.
func allDigits(w string) bool {
	return strings.Trim(w, "0123456789") == ""
}
