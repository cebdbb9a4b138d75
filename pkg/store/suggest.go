package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// MaxSuggestions is the most queries Suggest returns.
const MaxSuggestions = 3

// Bounds of Suggest. A query longer than maxSuggestRunes is a phrase, not a
// mistyped name, and shorter than minSuggestRunes shares too few trigrams
// with anything to tell a typo from chance; neither is looked up.
// suggestThreshold is the trigram similarity a candidate needs (pg_trgm's
// default, 0.3, lets in names that share one word with q; 0.4 still finds one
// letter changed in a six-letter word, "okfarg" for "okforg").
//
// The cost of a lookup is the rows its GIN probe must recheck, and a q made
// of common short words ("th is") qualifies thousands: they are rows of
// suggest_names, a few tens of bytes each, which stay in memory. The most
// similar suggestCandidates are compared by edit distance, and the whole
// lookup stops after suggestTimeout: a suggestion is a nicety, and a lookup
// that would take longer returns ErrSearchTimeout, which the API answers
// without one.
const (
	minSuggestRunes   = 3
	maxSuggestRunes   = 64
	suggestThreshold  = 0.4
	suggestCandidates = 20
	suggestTimeout    = 500 * time.Millisecond
)

// suggestSQL reads the $2 keys of suggest_names (0019_suggest.sql) most
// similar to $1's under the threshold the transaction sets, with their names
// and $1's key, none equal to $1's and each still held by a live bundle
// (one probe of bundles_live_exact each).
const suggestSQL = `
SELECT n.key, n.name, okf_name_key($1)
FROM (
    SELECT key, name, similarity(key, okf_name_key($1)) AS sim FROM suggest_names
    WHERE key % okf_name_key($1)
    ORDER BY sim DESC, key
    LIMIT $2
) AS n
WHERE n.key <> okf_name_key($1) AND EXISTS (SELECT 1 FROM bundles AS b
    WHERE b.visibility = 'live' AND okf_exact_keys(b.name, b.repo, b.id) @> ARRAY[n.key])
ORDER BY n.sim DESC, n.key`

// addSuggestNamesSQL adds the names $1 (and repository names) of bundles
// a write left live to suggest_names, in key order (so that concurrent
// writers adding the same new names wait for each other, never in a cycle).
const addSuggestNamesSQL = `
INSERT INTO suggest_names (key, name)
SELECT DISTINCT ON (key) key, name FROM (
    SELECT okf_name_key(name) AS key, name FROM unnest($1::text[]) AS name
) AS names
WHERE key <> '' AND length(key) <= 64
ORDER BY key, name
ON CONFLICT (key) DO NOTHING`

// Suggest returns up to MaxSuggestions names or repository names of live
// bundles within a small edit distance of q (trigram similarity), closest
// first, none equal to q: what "did you mean" offers when a search with q
// finds few bundles.
//
// Names are compared as okf_name_key (case and separators do not count),
// the form the exact tier of relevance matches, so a search for a
// suggestion finds its bundle first. Candidates come from pg_trgm's GIN
// indexes at suggestThreshold, bounded as the constants above say; among
// them a suggestion is at most maxEdits(q) edits from q, closest first, then
// most similar. Hidden and low bundles are never offered. A q outside
// minSuggestRunes..maxSuggestRunes gets none.
func (s *Store) Suggest(ctx context.Context, q string) ([]string, error) {
	if n := utf8.RuneCountInString(q); n < minSuggestRunes || n > maxSuggestRunes {
		return nil, nil
	}
	type candidate struct {
		key, text string
		edits     int
	}
	var found []candidate
	err := pgx.BeginTxFunc(ctx, s.read, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		// The threshold holds for this transaction only: the read pool's
		// other statements never see it.
		threshold := strconv.FormatFloat(suggestThreshold, 'f', -1, 64)
		timeout := strconv.FormatInt(suggestTimeout.Milliseconds(), 10)
		if _, err := tx.Exec(ctx, `SELECT set_config('pg_trgm.similarity_threshold', $1, true),
			set_config('statement_timeout', $2, true)`, threshold, timeout); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, suggestSQL, q, suggestCandidates)
		if err != nil {
			return err
		}
		var key, text, qKey string
		seen := map[string]bool{}
		_, err = pgx.ForEachRow(rows, []any{&key, &text, &qKey}, func() error {
			limit := maxEdits(qKey)
			if e := editDistance(key, qKey, limit); e <= limit && !seen[key] {
				seen[key] = true // "Acme Widgets" and "acme-widgets": one suggestion
				found = append(found, candidate{key, text, e})
			}
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
	// Stable: equal distances keep the query's order, most similar first.
	slices.SortStableFunc(found, func(a, b candidate) int { return a.edits - b.edits })
	var out []string
	for _, c := range found[:min(len(found), MaxSuggestions)] {
		out = append(out, c.text)
	}
	return out, nil
}

// maxEdits is the edit distance a suggestion may be from key: one for a
// short word, one more every five characters, at most three.
func maxEdits(key string) int {
	return min(3, 1+utf8.RuneCountInString(key)/5)
}

// editDistance is the Levenshtein distance between a and b in runes, or
// limit+1 once it must exceed limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit+1)
}
