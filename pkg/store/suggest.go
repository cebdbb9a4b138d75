package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

// MaxSuggestions is the most queries Suggest returns.
const MaxSuggestions = 3

// Bounds of Suggest. A query longer than maxSuggestRunes is a phrase, not a
// mistyped name (its words alone are corrected), and shorter than
// minSuggestRunes has no word long enough to correct; neither is looked up. A word of q is compared by trigram
// similarity with the suggestCandidates words of suggest_words most similar
// to it above suggestThreshold (a word of five letters with one letter
// changed, added or dropped shares about half its trigrams; swaps and
// deletions, which share fewer, are looked up exactly), then by edit
// distance. The whole lookup
// stops after suggestTimeout: a suggestion is a nicety, and a lookup that
// would take longer returns ErrSearchTimeout, which the API answers
// without one.
const (
	minSuggestRunes = 3
	maxSuggestRunes = 64
	// A q of up to maxWordsQueryRunes that is no name (longer than
	// maxSuggestRunes, or of more than maxSuggestWords words) may still
	// have its words corrected when no bundle holds them all: its first
	// maxSuggestWords, stop words aside.
	maxWordsQueryRunes = 256
	suggestThreshold   = 0.4
	suggestCandidates  = 16
	suggestTimeout     = 500 * time.Millisecond
	// The bundles read for the candidates: a candidate that is the name
	// of many bundles needs only one of them.
	maxNamedBundles = 256
)

// similarWordsSQL reads, for each word of $1 (an empty one is skipped), the
// $3 most similar words of suggest_words under the threshold the
// transaction sets, and which words of $2 exist, with 0 as their place.
const similarWordsSQL = `
SELECT q.i, s.word FROM unnest($1::text[]) WITH ORDINALITY AS q(w, i)
CROSS JOIN LATERAL (
    SELECT word FROM suggest_words WHERE q.w <> '' AND word % q.w
    ORDER BY similarity(word, q.w) DESC, word LIMIT $3
) AS s
UNION ALL
SELECT 0, word FROM suggest_words WHERE word = ANY($2::text[])`

// namedCandidatesSQL reads which candidates $1 are, as their key, the name,
// repository name or owner/repo of a live bundle, with that name as the
// bundle spells it: one probe of bundles_live_exact for all of them, at
// most $2 bundles.
const namedCandidatesSQL = `
WITH c AS MATERIALIZED (
    SELECT i, okf_name_key(q) AS key FROM unnest($1::text[]) WITH ORDINALITY AS t(q, i)
), found AS (
    SELECT b.name, b.repo, okf_exact_keys(b.name, b.repo, b.id) AS keys FROM bundles AS b
    WHERE b.visibility = 'live' AND okf_exact_keys(b.name, b.repo, b.id) && (SELECT array_agg(key) FROM c)
    LIMIT $2
)
SELECT c.i, CASE c.key
        WHEN okf_name_key(f.name) THEN f.name
        WHEN okf_name_key(split_part(f.repo, '/', 2)) THEN split_part(f.repo, '/', 2)
        WHEN okf_name_key(f.repo) THEN f.repo
    END AS name
FROM c JOIN found AS f ON f.keys @> ARRAY[c.key]
ORDER BY c.i`

// heldWordsSQL reads which of n corrections, $1 to $n, the names or
// taglines of live bundles hold (each the words of one correction, all in
// one bundle), as their places, 1 to n, in order. Each is its own EXISTS
// of a constant, so that each is planned for its words: a common word's
// walks the recency index to its first holder, a rare one's reads the
// head's text index (a parameter per row read all of a common word's
// postings, 23 ms for "guide" at 1M).
func heldWordsSQL(n int) string {
	var rows []string
	for i := 1; i <= n; i++ {
		rows = append(rows, `(`+strconv.Itoa(i)+`, EXISTS (SELECT 1 FROM bundles
    WHERE visibility = 'live' AND search_head @@ plainto_tsquery('okf_simple', $`+strconv.Itoa(i)+`::text)))`)
	}
	return `SELECT i FROM (VALUES ` + strings.Join(rows, `, `) + `) AS c(i, held) WHERE held ORDER BY i`
}

// unheldWordsSQL reads which of n words, $1 to $n, in the language $n+1 no
// live bundle holds as a search reads a word (okf_term: as written or
// stemmed), as their places, 1 to n; a word of typed (the word q ends
// with, being typed) is held too by a name or tagline word it begins. Each
// is its own EXISTS, planned for its word, as in heldWordsSQL.
func unheldWordsSQL(typed []bool) string {
	n := len(typed)
	lang := `$` + strconv.Itoa(n+1) + `::text`
	var rows []string
	for i, prefix := range typed {
		w := `$` + strconv.Itoa(i+1) + `::text`
		holds := `search @@ okf_term(` + w + `, false, ` + lang + `)`
		if prefix {
			holds = `(` + holds + ` OR search_head @@ okf_term(` + w + `, true, ` + lang + `))`
		}
		rows = append(rows, `(`+strconv.Itoa(i+1)+`, EXISTS (SELECT 1 FROM bundles
    WHERE visibility = 'live' AND `+holds+`))`)
	}
	return `SELECT i FROM (VALUES ` + strings.Join(rows, `, `) + `) AS c(i, held) WHERE NOT held ORDER BY i`
}

// addSuggestWordsSQL adds the words $1 (sorted, distinct) of the names of
// bundles a write left live to suggest_words.
const addSuggestWordsSQL = `
INSERT INTO suggest_words (word) SELECT unnest($1::text[])
ON CONFLICT (word) DO NOTHING`

// Found is what a search of q found, which decides what Suggest may offer
// for it.
type Found int

const (
	// FoundAll: some bundle holds every word of q. Only names near q are
	// offered: a q that finds bundles holds words people use, which a word
	// of a name a letter away ("note" and "notes") would only replace.
	FoundAll Found = iota
	// FoundSome: no bundle holds every word of q, some hold some of them.
	// A q that no name is near also gets corrected the words of it that no
	// live bundle holds ("qiskt" in "qiskt tutorial", where "tutorial"
	// finds bundles that are not what was asked for).
	FoundSome
	// FoundNone: no bundle holds any word of q, so every word of it may be
	// corrected.
	FoundNone
)

// Suggest returns up to MaxSuggestions names or repository names of live
// bundles within a small edit distance of q, closest first, none equal to
// q: what "did you mean" offers when a search with q finds few bundles.
//
// Each word of q (as okf_name_key cuts it) is corrected against the words
// of live names (suggest_words): a long word through the trigram index, a
// short one by every string one edit away, and a word that is two words
// glued ("okforg") by cutting it. Candidates correct one or two words,
// within maxEdits of q in all, and a candidate is offered only when it is,
// as okf_name_key, the name or repository name of a live bundle, the form
// the exact tier of relevance matches, so a search for a suggestion finds
// its bundle first. Hidden and low bundles are never offered. A q outside
// minSuggestRunes..maxSuggestRunes, or of more than maxSuggestWords words,
// is no name.
//
// When no bundle holds every word of q (found is FoundSome or FoundNone),
// a q that no name is near gets its words corrected instead
// (wordCandidates): "qiskt" is "qiskit", a word of the name "Qiskit
// Primer", which a search for it finds. With FoundSome only the words that
// no live bundle holds as the search reads them (unheldWords), stop words
// aside, are corrected.
func (s *Store) Suggest(ctx context.Context, q string, found Found) ([]string, error) {
	qWords := nameWords(q)
	n := utf8.RuneCountInString(q)
	names := n <= maxSuggestRunes && len(qWords) <= maxSuggestWords
	if n < minSuggestRunes || n > maxWordsQueryRunes || !names && found == FoundAll {
		return nil, nil
	}
	if !names {
		// A question or a request as agents write them: no name, but its
		// words may be misspelt.
		qWords = contentWords(qWords)
		qWords = qWords[:min(len(qWords), maxSuggestWords)]
	}
	var out []string
	err := pgx.BeginTxFunc(ctx, s.read, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		// The threshold holds for this transaction only: the read pool's
		// other statements never see it.
		threshold := strconv.FormatFloat(suggestThreshold, 'f', -1, 64)
		timeout := strconv.FormatInt(suggestTimeout.Milliseconds(), 10)
		if _, err := tx.Exec(ctx, `SELECT set_config('pg_trgm.similarity_threshold', $1, true),
			set_config('statement_timeout', $2, true)`, threshold, timeout); err != nil {
			return err
		}
		fixes, err := correctWords(ctx, tx, qWords)
		if err != nil {
			return err
		}
		budget := maxEdits(strings.ToLower(q))
		if names {
			if out, err = nearNames(ctx, tx, candidates(q, qWords, fixes, budget)); err != nil || len(out) > 0 || found == FoundAll {
				return err
			}
		}
		if found == FoundSome {
			if err := keepUnheldWords(ctx, tx, q, qWords, fixes); err != nil {
				return err
			}
		}
		out, err = heldCorrections(ctx, tx, q, qWords, fixes, budget)
		return err
	})
	if stoppedByReadTimeout(ctx, err) {
		return nil, ErrSearchTimeout
	}
	if err != nil {
		return nil, fmt.Errorf("store: suggest: %w", err)
	}
	return out, nil
}

// nearNames returns the candidates that are, as okf_name_key, the name or
// repository name of a live bundle (namedCandidatesSQL), as the bundle
// spells it, each once, at most MaxSuggestions.
func nearNames(ctx context.Context, tx pgx.Tx, cands []candidate) ([]string, error) {
	if len(cands) == 0 {
		return nil, nil
	}
	texts := make([]string, len(cands))
	for i, c := range cands {
		texts[i] = c.text
	}
	rows, err := tx.Query(ctx, namedCandidatesSQL, texts, maxNamedBundles)
	if err != nil {
		return nil, err
	}
	var out []string
	var i int
	var name *string
	seen := map[string]bool{}
	_, err = pgx.ForEachRow(rows, []any{&i, &name}, func() error {
		if name == nil { // the bundle's id, not a name
			return nil
		}
		key := strings.ToLower(*name)
		if !seen[key] && len(out) < MaxSuggestions { // "Acme Widgets" and "acme-widgets": one
			seen[key] = true
			out = append(out, *name)
		}
		return nil
	})
	return out, err
}

// heldCorrections returns q with its words corrected (wordCandidates) where
// a live bundle's name or tagline holds the corrections (heldWordsSQL:
// suggest_words keeps the words of names that are hidden since).
func heldCorrections(ctx context.Context, tx pgx.Tx, q string, words []nameWord, fixes [][]correction, budget int) ([]string, error) {
	cands, fixed := wordCandidates(q, words, fixes, budget)
	if len(cands) == 0 {
		return nil, nil
	}
	args := make([]any, len(fixed))
	for k, f := range fixed {
		args[k] = f
	}
	rows, err := tx.Query(ctx, heldWordsSQL(len(fixed)), args...)
	if err != nil {
		return nil, err
	}
	var out []string
	var i int
	_, err = pgx.ForEachRow(rows, []any{&i}, func() error {
		out = append(out, cands[i-1].text)
		return nil
	})
	return out, err
}

// keepUnheldWords leaves in fixes the corrections of the words of q that no
// live bundle holds (unheldWordsSQL), stop words aside: a word a bundle
// holds is a word people use, even when no bundle holds it beside the
// rest of q. The word q ends with is being typed, and is held by a name
// it begins too.
func keepUnheldWords(ctx context.Context, tx pgx.Tx, q string, words []nameWord, fixes [][]correction) error {
	var places []int
	var typed []bool
	var args []any
	for i, w := range words {
		if len(fixes[i]) == 0 {
			continue
		}
		if searchtext.IsStopWord(w.text) {
			fixes[i] = nil
			continue
		}
		places = append(places, i)
		typed = append(typed, w.end == len(q))
		args = append(args, w.text)
	}
	if len(places) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, unheldWordsSQL(typed), append(args, searchtext.Language(q))...)
	if err != nil {
		return err
	}
	unheld := map[int]bool{}
	var k int
	if _, err := pgx.ForEachRow(rows, []any{&k}, func() error {
		unheld[places[k-1]] = true
		return nil
	}); err != nil {
		return err
	}
	for _, i := range places {
		if !unheld[i] {
			fixes[i] = nil
		}
	}
	return nil
}

// correctWords reads from suggest_words what correcting each of words
// needs (see wordCorrections) and returns their corrections, in words'
// order.
func correctWords(ctx context.Context, tx pgx.Tx, words []nameWord) ([][]correction, error) {
	bySimilarity := make([]string, len(words))
	variants := make([][]string, len(words))
	var exact []string
	for i, w := range words {
		n := utf8.RuneCountInString(w.text)
		if n < minSuggestWordRunes {
			continue
		}
		if n > shortWordRunes {
			bySimilarity[i] = w.text
		}
		variants[i] = exactVariants(w.text)
		exact = append(exact, variants[i]...)
		for _, cut := range cutsInTwo(w.text) {
			exact = append(exact, cut[0], cut[1])
		}
	}
	similar := make([][]string, len(words))
	known := map[string]bool{}
	if err := lookUpWords(ctx, tx, bySimilarity, exact, similar, known); err != nil {
		return nil, err
	}
	// Then the strings one edit from a part of a glued word, for the cuts
	// whose other part the first lookup found (gluedTypoVariants).
	if more := gluedTypoVariants(words, known); len(more) > 0 {
		if err := lookUpWords(ctx, tx, nil, more, similar, known); err != nil {
			return nil, err
		}
	}
	fixes := make([][]correction, len(words))
	for i, w := range words {
		if utf8.RuneCountInString(w.text) >= minSuggestWordRunes {
			fixes[i] = wordCorrections(w.text, variants[i], known, similar[i])
		}
	}
	return fixes, nil
}

// lookUpWords adds to similar[i] the words of suggest_words most similar
// to bySimilarity[i] (an empty one is skipped), and to known which of
// exact exist.
func lookUpWords(ctx context.Context, tx pgx.Tx, bySimilarity, exact []string, similar [][]string, known map[string]bool) error {
	rows, err := tx.Query(ctx, similarWordsSQL, bySimilarity, exact, suggestCandidates)
	if err != nil {
		return err
	}
	var i int
	var word string
	_, err = pgx.ForEachRow(rows, []any{&i, &word}, func() error {
		if i == 0 {
			known[word] = true
		} else {
			similar[i-1] = append(similar[i-1], word)
		}
		return nil
	})
	return err
}
