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
// The cost of a lookup is the rows its GIN probes must recheck in the heap,
// and a q made of common short words ("th is") qualifies thousands. So each
// probe rechecks at most suggestScan rows (its LIMIT stops the heap scan;
// for a real typo far fewer qualify, and the closest are among them), the
// most similar suggestCandidates of those are compared as keys and by edit
// distance, and the whole lookup stops after suggestTimeout: a suggestion
// is a nicety, and a lookup that would take longer returns
// ErrSearchTimeout, which the API answers without one.
const (
	minSuggestRunes   = 3
	maxSuggestRunes   = 64
	suggestThreshold  = 0.4
	suggestScan       = 200
	suggestCandidates = 20
	suggestTimeout    = 500 * time.Millisecond
)

// suggestSQL reads the names and repository names (without the owner) of
// live bundles whose trigrams are similar to $1's, each probe one scan of
// its trigram index (0019_suggest.sql) under the threshold the transaction
// sets, stopped after $2 rows; then the $3 most similar distinct strings,
// with their keys (okf_name_key) and $1's, none whose key is $1's. Only
// those $3 pay for okf_name_key.
const suggestSQL = `
SELECT okf_name_key(d.text), d.text, okf_name_key($1)
FROM (
    SELECT btrim(m.text) AS text, max(m.sim) AS sim
    FROM (
        (SELECT name AS text, similarity(name, $1) AS sim FROM bundles
         WHERE visibility = 'live' AND name % $1 LIMIT $2)
        UNION ALL
        (SELECT split_part(repo, '/', 2), similarity(split_part(repo, '/', 2), $1) FROM bundles
         WHERE visibility = 'live' AND repo IS NOT NULL AND split_part(repo, '/', 2) % $1 LIMIT $2)
    ) m
    GROUP BY 1
    ORDER BY 2 DESC, 1
    LIMIT $3
) d
WHERE okf_name_key(d.text) <> okf_name_key($1)
ORDER BY d.sim DESC, d.text`

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
		rows, err := tx.Query(ctx, suggestSQL, q, suggestScan, suggestCandidates)
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
