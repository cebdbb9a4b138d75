package store

// How common each term of q is among the bundles, and what follows from
// it: a term that a large share of bundles hold is a stop word of the
// index.
//
// The shares are sampled from the live bundles' search vectors (ts_stat
// over a few thousand of them: each lexeme that several of them hold,
// with the share of them holding it), in the background, at most once
// every sharesTTL, and kept in memory; until the first sample, they are
// the planner's statistics (pg_stats.most_common_elems of bundles.search:
// its 10,000 most common lexemes over every row). The facet values' shares
// are the planner's statistics (bundles_facets_stats). A
// term's lexemes (as written and stemmed: okf_lexemes, migration 0018) are
// asked of the database once per word and language and kept too.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

const (
	// commonShare: a term held by more than this share of bundles says
	// nothing about which bundle is meant ("bundle", "knowledge" and
	// "okf" in an index of OKF bundles). When q has rarer terms, such a
	// term is left out of it, as a stop word is: "what is the best bundle
	// for mikrotik" asks for mikrotik, not for every bundle that says
	// "bundle" and mentions mikrotik once. Half, not less: a word of a
	// third of bundles (the synthetic index's "guide") still tells some
	// apart, and leaving it out made the partial tier's newest head
	// matches of the other words a walk of ~16,000 rows at 1M.
	commonShare = 0.5
	// minIndexBundles: an index of fewer bundles (as ANALYZE last counted
	// them) has no stop words of its own: among a few dozen bundles, a word
	// half of them hold still tells them apart.
	minIndexBundles = 500
	// sharesTTL is how long the shares read are used; sharesRetry how soon
	// they are read again when the table had no statistics yet.
	sharesTTL   = 5 * time.Minute
	sharesRetry = 10 * time.Second
	// sharesReadTimeout bounds a background read of the shares.
	sharesReadTimeout = 10 * time.Second
	// maxCachedWords bounds the lexemes kept per word (emptied when full).
	maxCachedWords = 20000
)

// lexemeShares are the shares of rows holding the search vector's most
// common lexemes (the embedded lexemeSample), and those of their names,
// identifiers and taglines (head).
type lexemeShares struct {
	lexemeSample
	// head are the shares of the live bundles whose name, identifier or
	// tagline (the weights A and B, what search_head holds) holds each
	// lexeme, sampled with the whole vector's; empty for the planner's
	// statistics.
	head lexemeSample
	// rows is the live bundles the shares stand for (the table's rows as
	// ANALYZE last counted them, for the planner's statistics).
	rows float64
	// live: the shares were sampled from the live bundles (sampleShares),
	// not read from the planner's statistics of every row.
	live bool
	// facets are the shares of rows holding each listed facet lexeme
	// (okf_facets, from the statistics bundles_facets_stats).
	facets map[string]float64
	read   time.Time
}

// termShares is what weigh keeps: the shares and the lexemes of the words
// met.
type termShares struct {
	mu      sync.Mutex
	shares  *lexemeShares
	reading bool
	lexemes map[string][]string // lang + " " + word
}

// weigh returns q without the terms the index finds too common to tell
// bundles apart (held by more than commonShare of bundles), unless every
// term is. A q naming a repository, of one term, or excluding words (what
// it excludes is asked of the terms it keeps) is returned as it is. When
// the shares or the lexemes cannot be read, q is returned as it is: this
// is a refinement, never a reason to fail a search.
func (s *Store) weigh(ctx context.Context, q searchtext.Query) searchtext.Query {
	if q.Repo != "" || len(q.Terms) < 2 || len(q.Excluded) > 0 {
		return q
	}
	shares, lexemes, err := s.termLexemes(ctx, q)
	if shares == nil || err != nil {
		return q
	}
	termShare := func(t searchtext.Term) float64 {
		// A phrase is as rare as its rarest word; a word as common as its
		// commonest lexeme.
		least := 1.0
		for _, w := range t.Words {
			most := shares.floor
			for _, l := range lexemes[w] {
				most = max(most, shares.share[l])
			}
			least = min(least, most)
		}
		return least
	}
	var kept []searchtext.Term
	for _, t := range q.Terms {
		if termShare(t) <= commonShare {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return q
	}
	q.Terms = kept
	return q
}

// lexemeShares returns the shares. The first call reads the planner's
// statistics (tens of milliseconds at a million bundles: its 10,000
// lexemes); the live bundles' shares are then sampled in the background
// (sampleShares: about half a second at a million bundles), and again once
// older than sharesTTL (sharesRetry when none were listed), the searches
// meanwhile using what there is. nil when they could not be read.
func (s *Store) lexemeShares(ctx context.Context) *lexemeShares {
	w := &s.shares
	w.mu.Lock()
	cur := w.shares
	if cur == nil {
		w.mu.Unlock()
		next, err := s.readLexemeShares(ctx)
		if err != nil {
			return nil
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.shares == nil {
			w.shares = next
		}
		return w.shares
	}
	defer w.mu.Unlock()
	stale := !cur.live || time.Since(cur.read) > sharesTTL || len(cur.share) == 0 && time.Since(cur.read) > sharesRetry
	if stale && !w.reading {
		w.reading = true
		go s.keepSample()
	}
	return cur
}

// keepSample samples the shares (sampleShares) and keeps them, for a
// caller that set shares.reading: one sample at a time, whoever asks (Open,
// or a search finding the shares old). A sample that finds none is kept
// only over shares read before (a new Store on a table not analysed yet
// leaves the first search to read them).
func (s *Store) keepSample() {
	ctx, cancel := context.WithTimeout(context.Background(), sharesReadTimeout)
	defer cancel()
	next, err := s.sampleShares(ctx)
	w := &s.shares
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reading = false
	if err == nil && (len(next.share) > 0 || w.shares != nil) {
		w.shares = next
	}
}

// readLexemeShares reads the planner's statistics of bundles.search (none
// for an index of fewer than minIndexBundles). For a tsvector,
// most_common_elem_freqs lists one share per lexeme, then the least and the
// greatest of them.
func (s *Store) readLexemeShares(ctx context.Context) (*lexemeShares, error) {
	var elems []string
	var freqs []float32
	var rows float64
	err := s.read.QueryRow(ctx, `SELECT coalesce(most_common_elems::text::text[], '{}'),
		coalesce(most_common_elem_freqs, '{}'), t.reltuples
	FROM pg_stats, (SELECT reltuples FROM pg_class WHERE oid = 'bundles'::regclass) AS t
	WHERE schemaname = current_schema() AND tablename = 'bundles' AND attname = 'search'
		AND t.reltuples >= $1`, minIndexBundles).
		Scan(&elems, &freqs, &rows)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("store: lexeme shares: %w", err)
	}
	out := &lexemeShares{lexemeSample: lexemeSample{share: make(map[string]float64, len(elems))}, rows: rows, read: time.Now()}
	least := 1.0
	for i, e := range elems {
		if i >= len(freqs) {
			break
		}
		out.share[e] = float64(freqs[i])
		least = min(least, float64(freqs[i]))
	}
	if len(out.share) > 0 {
		out.floor = least / 2
	}
	if out.facets, err = s.readFacetShares(ctx); err != nil {
		return nil, err
	}
	return out, nil
}

// The live bundles' shares are sampled (sampleShares) because the
// planner's statistics are of every row, hidden and low bundles too: the
// words of example and fixture bundles (kept out of search, as `low`)
// are common there and rare among the live ones. Their statistics put
// "examples" in 3% of bundles at 1M, which six live bundles hold; a search
// for it walked the whole recency index for matches (past the read
// timeout), where a read of the six through the text index is cheap.
const (
	// sharesSample is how many rows the sample reads.
	sharesSample = 5000
	// sharesMinDocs is the fewest sampled bundles that list a lexeme: a
	// lexeme fewer hold is taken at the floor.
	sharesMinDocs = 3
)

// sampleShares samples the shares of the live bundles holding each
// lexeme of the search vector (ts_stat over about sharesSample rows; every
// row of a smaller index), those sharesMinDocs or more of the sampled
// bundles hold; rows is the live bundles the sample stands for. None for
// an index of fewer than minIndexBundles rows (as ANALYZE last counted
// them).
func (s *Store) sampleShares(ctx context.Context) (*lexemeShares, error) {
	var tableRows float64
	if err := s.read.QueryRow(ctx, `SELECT reltuples FROM pg_class WHERE oid = 'bundles'::regclass`).Scan(&tableRows); err != nil {
		return nil, fmt.Errorf("store: sample lexeme shares: %w", err)
	}
	out := &lexemeShares{lexemeSample: lexemeSample{share: map[string]float64{}}, read: time.Now(), live: true}
	var err error
	if out.facets, err = s.readFacetShares(ctx); err != nil {
		return nil, err
	}
	if tableRows < minIndexBundles {
		return out, nil
	}
	// A fixed seed: the same rows while the table stays as it is, so that
	// the shares move with the index, not with the draw.
	pct := min(100, 100*sharesSample/tableRows)
	sample := `FROM bundles TABLESAMPLE SYSTEM (` + strconv.FormatFloat(pct, 'f', 6, 64) + `) REPEATABLE (23)
		WHERE visibility = 'live'`
	var sampled int64
	var lexemes []string
	var docs []int32
	err = s.read.QueryRow(ctx, `SELECT (SELECT count(*) `+sample+`),
		coalesce(array_agg(word), '{}'), coalesce(array_agg(ndoc), '{}')
	FROM ts_stat($1) WHERE ndoc >= $2`, `SELECT search `+sample, sharesMinDocs).Scan(&sampled, &lexemes, &docs)
	if err != nil {
		return nil, fmt.Errorf("store: sample lexeme shares: %w", err)
	}
	// The same rows' names, identifiers and taglines.
	var headLexemes []string
	var headDocs []int32
	err = s.read.QueryRow(ctx, `SELECT coalesce(array_agg(word), '{}'), coalesce(array_agg(ndoc), '{}')
	FROM ts_stat($1, 'ab') WHERE ndoc >= $2`, `SELECT search `+sample, sharesMinDocs).Scan(&headLexemes, &headDocs)
	if err != nil {
		return nil, fmt.Errorf("store: sample head lexeme shares: %w", err)
	}
	if sampled == 0 {
		return out, nil
	}
	out.rows = float64(sampled) * 100 / pct
	out.lexemeSample = sampledLexemes(lexemes, docs, sampled)
	out.head = sampledLexemes(headLexemes, headDocs, sampled)
	return out, nil
}

// lexemeSample is the shares of rows holding each listed lexeme.
type lexemeSample struct {
	share map[string]float64
	// floor is the share taken for a lexeme not listed: half the least
	// listed one (as the planner takes it), 0 when nothing is listed.
	floor float64
	// sorted are the listed lexemes in order, for the shares of a prefix
	// (nil for the planner's statistics).
	sorted []string
}

// sampledLexemes is the lexemeSample of rows of which each of lexemes is held by
// docs, of n sampled.
func sampledLexemes(lexemes []string, docs []int32, n int64) lexemeSample {
	l := lexemeSample{share: make(map[string]float64, len(lexemes))}
	least := 1.0
	for i, lexeme := range lexemes[:min(len(lexemes), len(docs))] {
		share := float64(docs[i]) / float64(n)
		l.share[lexeme] = share
		least = min(least, share)
	}
	if len(l.share) > 0 {
		l.floor = least / 2
	}
	l.sorted = slices.Sorted(maps.Keys(l.share))
	return l
}

// of is the share of rows holding lexeme, the floor when it is not listed.
func (l lexemeSample) of(lexeme string) float64 {
	if share, ok := l.share[lexeme]; ok {
		return share
	}
	return l.floor
}

// begun is the share of rows holding a listed lexeme that begins with
// prefix, at most 1 (the lexemes summed: a row holding two counts twice).
func (l lexemeSample) begun(prefix string) float64 {
	sum := 0.0
	i, _ := slices.BinarySearch(l.sorted, prefix)
	for _, lexeme := range l.sorted[i:] {
		if !strings.HasPrefix(lexeme, prefix) {
			break
		}
		sum += l.share[lexeme]
	}
	return min(sum, 1)
}

// termShare is the share of rows holding t, whose words' lexemes are
// lexemes: its rarest word's, each word as any of its lexemes, the
// lexemes taken as independent.
func (l lexemeSample) termShare(t searchtext.Term, lexemes map[string][]string) float64 {
	rarest := 1.0
	for _, w := range t.Words {
		none := 1.0
		for _, lexeme := range lexemes[w] {
			none *= 1 - l.of(lexeme)
		}
		rarest = min(rarest, 1-none)
	}
	return rarest
}

// typed is the share of rows holding a listed lexeme that t, the word
// being typed, begins, whose lexemes (as written first) are lexemes; 0 for
// another term.
func (l lexemeSample) typed(t searchtext.Term, lexemes map[string][]string) float64 {
	if !t.Prefix || t.Phrase || len(lexemes[t.Words[0]]) == 0 {
		return 0
	}
	return l.begun(lexemes[t.Words[0]][0])
}

// typedShare is typed by the sampled shares; 0 for the planner's
// statistics, which list too few lexemes to tell.
func (l *lexemeShares) typedShare(t searchtext.Term, lexemes map[string][]string) float64 {
	if !l.live {
		return 0
	}
	return l.typed(t, lexemes)
}

// readFacetShares reads the facet values' shares: none until ANALYZE has
// read the statistics.
func (s *Store) readFacetShares(ctx context.Context) (map[string]float64, error) {
	var values []string
	var valueFreqs []float32
	err := s.read.QueryRow(ctx, `SELECT coalesce(most_common_elems::text::text[], '{}'),
		coalesce(most_common_elem_freqs, '{}')
	FROM pg_stats_ext_exprs WHERE schemaname = current_schema() AND statistics_name = 'bundles_facets_stats'`).
		Scan(&values, &valueFreqs)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("store: facet shares: %w", err)
	}
	facets := make(map[string]float64, len(values))
	for i, v := range values[:min(len(values), len(valueFreqs))] {
		facets[v] = float64(valueFreqs[i])
	}
	return facets, nil
}

// wordLexemes returns the lexemes (okf_lexemes in lang) of every word of
// terms, asking the database for the words not met before.
func (s *Store) wordLexemes(ctx context.Context, lang string, terms []searchtext.Term) (map[string][]string, error) {
	w := &s.shares
	out := map[string][]string{}
	var missing []string
	w.mu.Lock()
	for _, t := range terms {
		for _, word := range t.Words {
			if l, ok := w.lexemes[lang+" "+word]; ok {
				out[word] = l
			} else if _, asked := out[word]; !asked {
				out[word] = nil
				missing = append(missing, word)
			}
		}
	}
	w.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	rows, err := s.read.Query(ctx, `SELECT w, okf_lexemes(w, $1) FROM unnest($2::text[]) AS w`, lang, missing)
	if err != nil {
		return nil, fmt.Errorf("store: lexemes: %w", err)
	}
	defer rows.Close()
	got := map[string][]string{}
	for rows.Next() {
		var word string
		var l []string
		if err := rows.Scan(&word, &l); err != nil {
			return nil, fmt.Errorf("store: lexemes: %w", err)
		}
		got[word] = l
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: lexemes: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.lexemes == nil || len(w.lexemes) > maxCachedWords {
		w.lexemes = map[string][]string{}
	}
	for word, l := range got {
		w.lexemes[lang+" "+word] = l
		out[word] = l
	}
	return out, nil
}

// rareShare: when q's terms together are held by less than this share of
// bundles (as the statistics list their lexemes), a sorted search for any
// of them, and relevance's partial tier, read every match and sort it
// (sortedMatches, partialTier): at a million
// bundles, at most ~10,000 rows. Above it, the sort index's walk finds a
// page within a few thousand rows, and the planner walks it.
const rareShare = 0.01

// rareTerms reports whether q's terms are rare: their shares add up to
// less than rareShare, or the index has no statistics yet (a small index,
// where reading every match costs little). A lexeme the statistics do not
// list counts 0: it is rarer than the least listed. The word being typed
// counts the sampled lexemes it begins too.
func (s *Store) rareTerms(ctx context.Context, q searchtext.Query) bool {
	shares, lexemes, err := s.termLexemes(ctx, q)
	if err != nil {
		return false
	}
	if shares == nil {
		return true
	}
	total := 0.0
	for _, t := range q.Terms {
		for _, w := range t.Words {
			for _, l := range lexemes[w] {
				total += shares.share[l]
			}
		}
		// The word being typed begins other words too ("tokenbel-wi":
		// "wi" begins "wiki", "with", ...), whose shares the sample knows.
		total += shares.typedShare(t, lexemes)
	}
	return total < rareShare
}

// termLexemes returns the statistics' shares and the lexemes of q's words;
// nil shares (and no lexemes asked) when the index has no statistics, yet
// or for too few bundles.
func (s *Store) termLexemes(ctx context.Context, q searchtext.Query) (*lexemeShares, map[string][]string, error) {
	shares := s.lexemeShares(ctx)
	if shares == nil || len(shares.share) == 0 {
		return nil, nil, nil
	}
	lexemes, err := s.wordLexemes(ctx, searchtext.Language(q.Key), q.Terms)
	return shares, lexemes, err
}
