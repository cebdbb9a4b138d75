package searchtext

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// Bounds of ParseQuery, so a query's cost does not grow with what is typed.
const (
	// MaxTerms bounds Query.Terms and Query.Excluded (each).
	MaxTerms = 12
	// MinPrefix is the fewest characters a last word needs to match as a prefix.
	MinPrefix = 2
	// maxQueryBytes is how much of a query ParseQuery reads.
	maxQueryBytes = 1 << 10
	// maxWordRunes and maxTermWords bound a Term.
	maxWordRunes = 64
	maxTermWords = 16
)

// Query is what a search query asks for.
type Query struct {
	// Terms are what q looks for, in order: words, quoted phrases, compounds
	// and CJK words (a run of CJK characters cut where a particle or a
	// function word stands: "認証の設計" is 認証 and 設計; cjkwords.go). Stop words (of English, and of the language Language(q)
	// detects for q when it is not English) are left out unless q has no
	// other term, in which case they are all kept: "the who" is a band. At
	// most MaxTerms; duplicates (same Words) once, where first typed.
	Terms []Term
	// Excluded are the -word and -"phrase" operands of q: a bundle holding
	// one is left out. Never stop-filtered: whoever excludes a word means it.
	Excluded []Term
	// Repo is the repository q names, lowercase "owner/repo", when the whole
	// of q (trimmed) is one of: owner/repo (with or without ".git" and a
	// trailing slash); github.com/owner/repo or http(s)://(www.)github.com/
	// owner/repo, with or without ".git", a trailing slash, a further path
	// (/tree/main/docs), a query or a fragment; the clone addresses
	// git@github.com:owner/repo and ssh://, git:// or git+https:// ones;
	// raw.githubusercontent.com/owner/repo/<branch>/<path>; any of these in
	// <angle brackets>. "" otherwise. owner is
	// [A-Za-z0-9][A-Za-z0-9-]{0,38}, repo [A-Za-z0-9._-]{1,100}. Any a/b
	// shaped query counts, "ci/cd" too: the exact tier then finds no such
	// repository, and Terms still hold its words for the text tiers.
	Repo string
	// Dir is the folder within Repo that a pasted link points at
	// (.../tree/main/bundles/x is "bundles/x"), "" for the repository's
	// root or when q names no folder: the bundle there comes first.
	Dir string
	// Key is what the exact tier compares with bundles' names, repositories
	// and ids: Repo when set, else q trimmed.
	Key string
}

// Term is one thing a query looks for.
type Term struct {
	// Words are lowercase, letters and digits only (accents kept: Postgres's
	// unaccent removes them), each at most 64 runes (longer words truncated),
	// at most 16 a term.
	Words []string
	// Phrase: Words must be adjacent and in order. True for a quoted phrase,
	// a CJK word (Words are its bigrams, or the single character), and a
	// compound typed without spaces ("react-native", "node.js", "a_b").
	Phrase bool
	// Parts are, for a single unquoted word that Expand would split
	// (camelCase, letters+digits), its lowercase parts, which also match as
	// a phrase: "PharmacyDomain" -> Words [pharmacydomain], Parts [pharmacy
	// domain]. Else nil.
	Parts []string
	// Chunk: the term is a chunk of the CJK phrase before it (cjkChunks:
	// a run of one script, or two Han characters), which every bundle
	// holding that phrase holds.
	Chunk bool
	// Expansion is, for a single unquoted word that is an acronym, what it
	// stands for ("natural language processing" for "nlp": acronyms.go),
	// which it also matches as a phrase. Else "".
	Expansion string
	// Acronyms are, for a single unquoted word of a run of q's words that
	// spells out an acronym ("natural" in "natural language processing"),
	// the acronyms, which it also matches. Else nil.
	Acronyms []string
	// Weak: a single unquoted word that is a stop word of a language other
	// than English and q's own ("im" in "fahrstrassenbildung im
	// relaisstellwerk", whose three words do not tell that they are
	// German; an acronym, "ai", is never weak): kept, since it may be a
	// word of q's (IM, "die"), but it says less of what q asks than its
	// other words (relevance's partial tier counts it half).
	Weak bool
	// Spellings are, for a single unquoted word, its other spellings in
	// English, British for American and American for British ("color" for
	// "colour": spellings.go), which it also matches. Else nil.
	Spellings []string
	// Prefix: the word may be the start of a longer word. Set only on the
	// last term of q, when it is a single unquoted non-CJK word of at least
	// MinPrefix runes and q ends with that word: not with a space, which
	// says the word is finished, nor with punctuation ("terraform?"). A
	// compound being typed ends with such a term too: its last word
	// ("qwen-tt" is the phrase qwen tt, qwen, and tt as a prefix). When
	// that word is a stop word or a duplicate and so left out, no term has
	// Prefix.
	Prefix bool
}

// ParseQuery reads a search query q as people and agents type it, in the
// manner of Postgres's websearch_to_tsquery: words, "quoted phrases", -word
// and -"phrase"; "or" is just a (stop) word; an unbalanced quote closes at
// the end; a lone "-" is nothing. For a Repo q, Terms are the words of owner
// and repo, none left out. The words are read from q with its half-width
// and full-width forms folded (foldWidth), as bundle text writes them, and
// names written with symbols as words ("c++" as cpp: symbolNames); Key
// keeps q as typed. ParseQuery reads at most 1 KiB of q.
func ParseQuery(q string) Query {
	q = prefixBytes(q, maxQueryBytes)
	query := Query{Key: strings.TrimSpace(q)}
	q = withSymbolNames(foldWidth(q))
	if repo, owner, name, dir := repoDirOf(query.Key); repo != "" {
		query.Repo, query.Key, query.Dir = repo, repo, dir
		query.Terms = firstTerms(dedupe(append(tokenTerms(owner), tokenTerms(name)...)))
		return query
	}
	var terms []Term
	for _, op := range operands(q) {
		if op.excluded {
			if t, ok := op.term(); ok {
				query.Excluded = append(query.Excluded, t)
			}
			continue
		}
		terms = append(terms, op.terms()...)
	}
	query.Terms = withWeakWords(withAcronyms(withSpellings(firstTerms(dropStopWords(dedupe(terms), Language(q))))))
	query.Excluded = withSpellings(firstTerms(dedupe(query.Excluded)))
	return query
}

// dropStopWords leaves out the single unquoted words that are stop words of
// English or of lang, unless nothing else would be left.
func dropStopWords(terms []Term, lang string) []Term {
	kept := make([]Term, 0, len(terms))
	for _, t := range terms {
		if t.Phrase || len(t.Words) != 1 ||
			!(isStopWord(English, t.Words[0]) || isStopWord(lang, t.Words[0])) {
			kept = append(kept, t)
		}
	}
	if !slices.ContainsFunc(kept, isStrong) {
		return terms // stop words alone: all of them count ("the who")
	}
	return kept
}

// isStrong reports whether t is no stop word of any language (IsStopWord),
// or is an acronym ("ai" is Italian's): a word a query's weak words
// (Term.Weak) stand beside.
func isStrong(t Term) bool {
	return t.Phrase || len(t.Words) != 1 || !IsStopWord(t.Words[0]) || acronyms[t.Words[0]] != ""
}

// withWeakWords sets Weak on the terms that are not strong (isStrong), when
// some term is: the stop words of other languages that dropStopWords kept.
func withWeakWords(terms []Term) []Term {
	if !slices.ContainsFunc(terms, isStrong) {
		return terms
	}
	for i, t := range terms {
		terms[i].Weak = !isStrong(t)
	}
	return terms
}

// dedupe keeps the first of terms with the same Words.
func dedupe(terms []Term) []Term {
	seen := make(map[string]bool, len(terms))
	out := terms[:0:0]
	for _, t := range terms {
		key := strings.Join(t.Words, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, t)
	}
	return out
}

// firstTerms cuts terms to MaxTerms, and nil when there are none.
func firstTerms(terms []Term) []Term {
	if len(terms) == 0 {
		return nil
	}
	return terms[:min(len(terms), MaxTerms)]
}

// foldWidth returns q with the characters of Unicode's Halfwidth and
// Fullwidth Forms folded to their usual width, composed: half-width
// katakana typed on a phone or an old keyboard ("ﾅﾚｯｼﾞ") is the katakana
// bundles write ("ナレッジ"), full-width Latin ("ＡＰＩ") is ASCII. q without
// such characters, nearly every q, is returned as it is.
func foldWidth(q string) string {
	if !strings.ContainsFunc(q, func(r rune) bool { return 0xFF00 <= r && r <= 0xFFEF }) {
		return q
	}
	return norm.NFC.String(width.Fold.String(q))
}
