package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// MaxSuggestions is the most queries Suggest returns.
const MaxSuggestions = 3

// Bounds of Suggest. A query longer than maxSuggestRunes is a phrase, not a
// mistyped name, and shorter than minSuggestRunes has no word long enough
// to correct; neither is looked up. A word of q is compared by trigram
// similarity with the suggestCandidates words of suggest_words most similar
// to it above suggestThreshold (a word of five letters with one letter
// changed, added or dropped shares about half its trigrams; swaps and
// deletions, which share fewer, are looked up exactly), then by edit
// distance. The whole lookup
// stops after suggestTimeout: a suggestion is a nicety, and a lookup that
// would take longer returns ErrSearchTimeout, which the API answers
// without one.
const (
	minSuggestRunes   = 3
	maxSuggestRunes   = 64
	suggestThreshold  = 0.4
	suggestCandidates = 16
	suggestTimeout    = 500 * time.Millisecond
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

// addSuggestWordsSQL adds the words $1 (sorted, distinct) of the names of
// bundles a write left live to suggest_words.
const addSuggestWordsSQL = `
INSERT INTO suggest_words (word) SELECT unnest($1::text[])
ON CONFLICT (word) DO NOTHING`

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
// gets none.
//
// With words (the caller's search of q found no bundle at all, so that no
// word of q is a word any bundle holds), a q that no name is near gets
// its words corrected instead (wordCandidates): "qiskt" is "qiskit", a
// word of the name "Qiskit Primer", which a search for it finds. Without
// words such corrections are never offered: a q that finds bundles holds
// words people use, which a word of a name a letter away ("note" and
// "notes") would only replace.
func (s *Store) Suggest(ctx context.Context, q string, words bool) ([]string, error) {
	qWords := nameWords(q)
	if n := utf8.RuneCountInString(q); n < minSuggestRunes || n > maxSuggestRunes || len(qWords) > maxSuggestWords {
		return nil, nil
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
		cands := candidates(q, qWords, fixes, budget)
		if len(cands) == 0 {
			return nil
		}
		texts := make([]string, len(cands))
		for i, c := range cands {
			texts[i] = c.text
		}
		rows, err := tx.Query(ctx, namedCandidatesSQL, texts, maxNamedBundles)
		if err != nil {
			return err
		}
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
		if err != nil || len(out) > 0 || !words {
			return err
		}
		cands, fixed := wordCandidates(q, qWords, fixes, budget)
		if len(cands) == 0 {
			return nil
		}
		// suggest_words keeps the words of names that are hidden since.
		args := make([]any, len(fixed))
		for k, f := range fixed {
			args[k] = f
		}
		rows, err = tx.Query(ctx, heldWordsSQL(len(fixed)), args...)
		if err != nil {
			return err
		}
		_, err = pgx.ForEachRow(rows, []any{&i}, func() error {
			out = append(out, cands[i-1].text)
			return nil
		})
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
