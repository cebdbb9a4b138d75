package store

import (
	"cmp"
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/okfindex/okf-index/pkg/searchtext"
	"github.com/okfindex/okf-index/pkg/wire"
)

// BenchRow is one synthetic bundle of the query benchmark, loaded as is:
// the benchmark decides visibility and timestamps itself.
type BenchRow struct {
	In         BundleInput
	Visibility wire.Visibility
	IndexedAt  time.Time
	UpdatedAt  time.Time
}

// CopyBenchRows loads rows with COPY, bypassing the duplicate rule (the
// benchmark sets visibility), through the same column derivation as
// UpsertBundle. The statistics triggers run once per COPY.
func CopyBenchRows(ctx context.Context, s *Store, rows []BenchRow) (int64, error) {
	cols := []string{"id", "visibility", "path_low", "name", "tagline", "description",
		"okf_version", "concepts", "concept_list", "type", "index_url", "page_url", "origin",
		"via", "source_url", "host", "repo", "dir", "path", "ident", "repo_stars", "repo_forks",
		"repo_pushed_at", "repo_state", "repo_language", "repo_license", "root_sha256",
		"content_hash", "indexed_at", "updated_at", "lang", "search_extra", "analysis"}
	// lang is a regconfig, which COPY's binary format sends as its oid.
	conn, err := s.write.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	const regconfigOID = 3734
	conn.Conn().TypeMap().RegisterType(&pgtype.Type{Name: "regconfig", OID: regconfigOID, Codec: pgtype.Uint32Codec{}})
	configs := map[string]uint32{}
	rows2, err := conn.Query(ctx, `SELECT cfgname::text, oid::int8 FROM pg_ts_config WHERE cfgname LIKE 'okf\_%'`)
	if err != nil {
		return 0, err
	}
	var name string
	var oid int64
	if _, err := pgx.ForEachRow(rows2, []any{&name, &oid}, func() error { configs[name] = uint32(oid); return nil }); err != nil {
		return 0, err
	}
	i := 0
	src := pgx.CopyFromFunc(func() ([]any, error) {
		if i >= len(rows) {
			return nil, nil
		}
		br := rows[i]
		i++
		r := newBundleRow(br.In).analysed()
		c := r.in.Card
		return []any{r.in.ID, br.Visibility, r.in.Low, c.Name, c.Tagline, c.Description,
			c.OKFVersion, c.Concepts, r.conceptList, c.Type, r.in.IndexURL, r.in.PageURL,
			r.in.Source.Origin, r.in.Source.Via, r.in.Source.URL, r.in.Source.Host, r.repo,
			r.in.Source.Dir, r.in.Source.Path, r.ident, r.sig.Stars, r.sig.Forks, r.sig.PushedAt,
			r.sig.State, r.sig.Language, r.sig.License, r.in.RootSHA256, r.contentHash,
			br.IndexedAt, br.UpdatedAt, configs[r.lang], r.searchExtra, analysisVersion}, nil
	})
	return conn.CopyFrom(ctx, pgx.Identifier{"bundles"}, cols, src)
}

// FillSuggestWords adds the words of every live bundle's names to
// suggest_words, as migration 0020 does for the bundles it finds: what a database loaded
// by CopyBenchRows, which bypasses the writers, needs.
func FillSuggestWords(ctx context.Context, s *Store) error {
	_, err := s.write.Exec(ctx, `SELECT okf_fill_suggest_words()`)
	return err
}

// ExplainSearch returns the EXPLAIN ANALYZE output of the statement of p,
// its terms as Search looks them up (the index's stop words left out).
func ExplainSearch(ctx context.Context, s *Store, p SearchParams) (string, error) {
	sql, args, err := statementAsFound(ctx, s, p)
	if err != nil || sql == "" {
		return "", err
	}
	rows, err := s.read.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS) "+sql, args...)
	if err != nil {
		return "", err
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return strings.Join(lines, "\n"), err
}

// SearchOldRelevance runs a relevance search (p.Q set, first pages only)
// with the ranking before migration 0012, for the benchmark's old-vs-new
// relevance figures.
func SearchOldRelevance(ctx context.Context, s *Store, p SearchParams) ([]Bundle, error) {
	b := &sqlBuilder{}
	tsq := `websearch_to_tsquery('okf_simple', ` + b.arg(p.Q) + `)`
	sql := b.oldRelevance(p.Q, tsq, b.filters(p), cmp.Or(p.Limit, DefaultLimit), p.Offset)
	rows, err := s.read.Query(ctx, sql, b.args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Bundle, error) { return scanBundle(r) })
}

// oldRelevance is the ranking relevance had before the exact tier and the
// popularity sources (the benchmark measures both): h
// holds the newest head matches, a the newest matches anywhere, numbered in
// recency order. The window w is h and the first rankWindow of a; the rest
// of a follows it. a needs max(rankWindow, offset+limit) rows: the k-th match
// after the window lies at most |w| places further in a, and the page needs
// k <= offset+limit-|w|.
func (b *sqlBuilder) oldRelevance(q, tsq, filters string, limit, offset int) string {
	capN := strconv.Itoa(max(rankWindow, offset+limit))
	win := strconv.Itoa(rankWindow)
	// A head match is a match unless q excludes a word ("-word") that the
	// rest of the bundle holds; only then does h read the full vector, which
	// costs the index-only scan its heap visits.
	head := `search_head @@ ` + tsq
	if strings.Contains(q, "-") {
		head += ` AND search @@ ` + tsq
	}
	return `
WITH a AS MATERIALIZED (
	SELECT id, indexed_at, row_number() OVER (ORDER BY indexed_at DESC, id) AS pos
	FROM (SELECT id, indexed_at FROM bundles
	      WHERE ` + filters + ` AND search @@ ` + tsq + `
	      ORDER BY indexed_at DESC, id LIMIT ` + capN + `) AS s
), h AS MATERIALIZED (
	SELECT id FROM bundles
	WHERE ` + filters + ` AND ` + head + `
	ORDER BY indexed_at DESC, id LIMIT ` + win + `
), w AS (
	SELECT id FROM h
	UNION
	SELECT id FROM a WHERE pos <= ` + win + `
), ordered AS (
	SELECT x.id, 0 AS tier, ts_rank_cd(x.search, ` + tsq + `) AS rank, x.indexed_at
	FROM w JOIN bundles AS x USING (id)
	UNION ALL
	SELECT id, 1, 0, indexed_at FROM a
	WHERE pos > ` + win + ` AND id NOT IN (SELECT id FROM h)
), page AS (
	SELECT id, tier, rank, indexed_at FROM ordered
	ORDER BY tier, rank DESC, indexed_at DESC, id
	LIMIT ` + strconv.Itoa(limit) + ` OFFSET ` + strconv.Itoa(offset) + `
)
SELECT ` + qualified("b", bundleColumns) + `
FROM page JOIN bundles AS b USING (id)
ORDER BY page.tier, page.rank DESC, page.indexed_at DESC, page.id`
}

// DeleteBundle removes a bundle; ErrNotFound when there is none. When it was
// the live copy of duplicates, the next copy becomes live. The service never
// deletes a bundle (it hides one whose source went away, so a re-read can
// restore it); the tests use this to start a duplicate group afresh.
func (s *Store) DeleteBundle(ctx context.Context, id string) error {
	return s.withdraw(ctx, id, "delete", `DELETE FROM bundles WHERE id = $1`, false)
}

// ExactCap is the most bundles a name may have and still make relevance's
// exact tier.
const ExactCap = exactCap

// BundleColumnsOfWriters are the columns of bundles the upsert writes and
// those it leaves to others (bundlecolumns.go).
func BundleColumnsOfWriters() (written, notWritten []string) {
	for _, c := range writtenColumns {
		written = append(written, c.name)
	}
	return written, columnsNotWritten
}

// SetMaxSampleBuckets lets s sample a search's facets from up to n buckets
// (maxSampleBuckets otherwise).
func SetMaxSampleBuckets(s *Store, n int) { s.sampleBucketsMax = n }

// SearchIDsWalking runs the statement of a search of p as Search would
// without reading narrow matches in the text indexes (narrowMatches), and
// returns the ids of its page.
func SearchIDsWalking(ctx context.Context, s *Store, p SearchParams) ([]string, error) {
	q := s.weigh(ctx, searchtext.ParseQuery(p.Q))
	sql, args, err := searchSQL(p, q, termMatch{}, s.foldTerms(ctx, p.Q, q))
	if err != nil || sql == "" {
		return nil, err
	}
	rows, err := s.read.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var tier int
		var stars *int
		b, err := scanBundle(r, &tier, &stars)
		return b.ID, err
	})
}

// CardPlans runs GetBundle's statement for id twice on one connection of
// the lookup pool and returns how many times that connection planned it
// generically and per call (pg_prepared_statements).
func CardPlans(ctx context.Context, s *Store, id string) (generic, custom int64, err error) {
	conn, err := s.lookup.Acquire(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer conn.Release()
	for range 2 {
		var imported bool
		if _, err := scanBundle(conn.QueryRow(ctx, cardSQL, id), &imported); err != nil {
			return 0, 0, err
		}
	}
	err = conn.QueryRow(ctx, `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1`, cardSQL).
		Scan(&generic, &custom)
	return generic, custom, err
}

// SetFolding lets s fold q's text query calls into parameters (the
// default) or leave them in its statements.
func SetFolding(s *Store, on bool) { s.unfolded = !on }

// SearchStatement is the statement of a search of p as Search makes it
// first (narrowMatches and deepMatches not asked).
func SearchStatement(ctx context.Context, s *Store, p SearchParams) (string, error) {
	q := s.weigh(ctx, searchtext.ParseQuery(p.Q))
	sql, _, err := searchSQL(p, q, termMatch{}, s.foldTerms(ctx, p.Q, q))
	return sql, err
}

// SampleShares samples s's shares of the live bundles now (sampleShares),
// which its searches use from then on.
func SampleShares(ctx context.Context, s *Store) error {
	next, err := s.sampleShares(ctx)
	if err != nil {
		return err
	}
	s.shares.mu.Lock()
	defer s.shares.mu.Unlock()
	s.shares.shares = next
	return nil
}

// LexemeShare is the share of bundles s takes to hold lexeme, and whether
// its shares are the live bundles' (sampled).
func LexemeShare(ctx context.Context, s *Store, lexeme string) (share float64, live bool) {
	shares := s.lexemeShares(ctx)
	if shares == nil {
		return 0, false
	}
	return shares.share[lexeme], shares.live
}

// FewMatches reports whether s reads a search for q without filters
// through the text index, its matches few (fewMatches).
func FewMatches(ctx context.Context, s *Store, q string) bool {
	return s.fewMatches(ctx, searchtext.ParseQuery(q), false)
}

// SearchStatementAsFound is the statement of a search of p as Search makes
// it first, its reads of q's matches decided as Search decides them
// (matchOf).
func SearchStatementAsFound(ctx context.Context, s *Store, p SearchParams) (string, error) {
	sql, _, err := statementAsFound(ctx, s, p)
	return sql, err
}

// statementAsFound is the statement of the first search of p and its
// arguments, as Search plans it.
func statementAsFound(ctx context.Context, s *Store, p SearchParams) (string, []any, error) {
	q := s.weigh(ctx, searchtext.ParseQuery(p.Q))
	return searchSQL(p, q, s.matchOf(ctx, p, q, false), s.foldTerms(ctx, p.Q, q))
}
