package store

// Search over the live bundles, and how each shape stays bounded at a
// million bundles (targets: p99 <= 50 ms per search on two cores; measured by
// BenchmarkQueries in bench_test.go, numbers in its doc comment).
//
// Every query reads only live rows, through partial indexes (WHERE
// visibility = 'live') whose predicate the query repeats literally, and pages
// with LIMIT/OFFSET over a total order (each sort ends in id), with the offset
// capped at MaxOffset so no query reads past MaxOffset+MaxLimit rows of an
// order.
//
//   - Sorts without q: recent, updated, name and stars each walk their own
//     partial B-tree (bundles_live_recent, _updated, _name, _stars) and stop
//     after offset+limit rows; filters are checked on the way.
//   - Filters: a common value (origin, a frequent version, language, band...)
//     is checked while walking the sort index, which stops early; a rare
//     value (a repo, a rare version or type, a concept substring) is read
//     through its own index (B-tree, or pg_trgm GIN for concept) and the few
//     rows are sorted. The planner picks between the two from column
//     statistics, so plans are made per call with the real values
//     (plan_cache_mode=force_custom_plan on the read pool).
//   - q with a sort: websearch_to_tsquery('simple', q) against the weighted
//     tsvector. A common term (in ~30% of bundles) walks the sort index and
//     checks @@ on each row: about (offset+limit)/0.3 rows. A rare term reads
//     its GIN posting list (bundles_live_search) and sorts the matches. The
//     middle ground (a term in ~1-3%) costs most: up to a few tens of
//     thousands of rows at the deepest offsets.
//   - Relevance (only with q; without q it is recent): ts_rank over every
//     match of a common term takes seconds, so ranking is bounded to a window
//     of at most 2*rankWindow candidates: the rankWindow newest matches in the
//     name, origin identifier or tagline (search_head), and the rankWindow
//     newest matches anywhere. The window comes first, ordered by
//     ts_rank_cd (weights A name+identifier, B tagline, C description; the
//     cover density rank, because ts_rank scores every bundle 1e-20 when q
//     excludes a word) then recency; then the other head matches, newest
//     first; then the other matches, newest first. The order is fixed
//     whatever the page, so paging neither repeats nor skips, and a term
//     with fewer than rankWindow matches is ranked entirely. The head part
//     is an index-only scan of bundles_live_recent, which carries
//     search_head (about 0.3 µs a row: a term in 1% of names costs ~4 ms),
//     or a read of its GIN index for rare words; the other part walks the
//     same index checking the full vector on the heap row (3-4 µs a row),
//     or reads the GIN index when that is cheaper. Both stop after
//     rankWindow+offset+limit matches.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/okfindex/okf-index/pkg/source"
)

// Page limits of Search (contract 8).
const (
	DefaultLimit = 24
	MaxLimit     = 100
	// MaxOffset is the last offset that returns bundles: the list ends at
	// 1000, and Search returns nothing past it.
	MaxOffset = 1000
)

// rankWindow is how many newest matches of each kind relevance ranks.
const rankWindow = 100

// sortOrders are the ORDER BY clauses of the sorts, each matching its index.
var sortOrders = map[string]string{
	SortRecent:  `indexed_at DESC, id`,
	SortUpdated: `updated_at DESC, id`,
	SortName:    `lower(name) COLLATE "C", id`,
	SortStars:   `repo_stars DESC NULLS LAST, id`,
}

// Search returns live bundles matching p, at most p.Limit.
//
// Limit is clamped to 1..MaxLimit (0 means DefaultLimit); an offset past
// MaxOffset returns no bundles. Filters are ANDed; values within a list filter
// are ORed. Repo, languages and licenses match case-insensitively; Concept is
// a case-insensitive substring of the description and the listed concepts'
// names and summaries; Origin accepts "github" for code_host.
func (s *Store) Search(ctx context.Context, p SearchParams) ([]Bundle, error) {
	sql, args, err := searchSQL(p)
	if err != nil || sql == "" {
		return []Bundle{}, err
	}
	rows, err := s.read.Query(ctx, sql, args...)
	var out []Bundle
	if err == nil {
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Bundle, error) { return scanBundle(r) })
	}
	if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) && pgErr.Code == "57014" && ctx.Err() == nil {
		return nil, ErrSearchTimeout // query_canceled by statement_timeout
	}
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	if out == nil {
		out = []Bundle{}
	}
	return out, nil
}

// searchSQL is the statement of a search and its arguments; "" when the
// search returns nothing without asking the database.
func searchSQL(p SearchParams) (string, []any, error) {
	limit, offset := p.Limit, p.Offset
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	offset = max(offset, 0)
	if offset > MaxOffset {
		return "", nil, nil
	}
	sort := p.Sort
	if sort == "" {
		sort = SortRecent
	}
	if _, ok := sortOrders[sort]; !ok && sort != SortRelevance {
		return "", nil, fmt.Errorf("store: search: unknown sort %q", p.Sort)
	}
	q := strings.TrimSpace(p.Q)
	if sort == SortRelevance && q == "" {
		sort = SortRecent
	}
	b := &sqlBuilder{}
	if q != "" {
		b.tsq = `websearch_to_tsquery('simple', ` + b.arg(q) + `)`
	}
	filters := b.filters(p)
	if sort == SortRelevance {
		return b.relevance(q, filters, limit, offset), b.args, nil
	}
	where := filters
	if q != "" {
		where += ` AND search @@ ` + b.tsq
	}
	return `SELECT ` + bundleColumns + ` FROM bundles WHERE ` + where +
		` ORDER BY ` + sortOrders[sort] +
		` LIMIT ` + strconv.Itoa(limit) + ` OFFSET ` + strconv.Itoa(offset), b.args, nil
}

// sqlBuilder collects the arguments of a search statement.
type sqlBuilder struct {
	args []any
	tsq  string // the text query of q, when there is one
}

// arg adds v and returns its placeholder.
func (b *sqlBuilder) arg(v any) string {
	b.args = append(b.args, v)
	return "$" + strconv.Itoa(len(b.args))
}

// filters is the WHERE clause of p's filters, q excluded. The visibility
// predicate is written as the partial indexes write it.
func (b *sqlBuilder) filters(p SearchParams) string {
	w := []string{`visibility = 'live'`}
	switch origin := strings.ToLower(strings.TrimSpace(p.Origin)); origin {
	case "":
	case "github":
		w = append(w, `origin = `+b.arg(source.OriginCodeHost))
	default:
		w = append(w, `origin = `+b.arg(origin))
	}
	if repo := strings.ToLower(strings.TrimSpace(p.Repo)); repo != "" {
		w = append(w, `repo = `+b.arg(repo))
	}
	if len(p.Versions) > 0 {
		w = append(w, `okf_version = ANY(`+b.arg(p.Versions)+`)`)
	}
	if len(p.Languages) > 0 {
		w = append(w, `lower(repo_language) = ANY(`+b.arg(lowerAll(p.Languages))+`)`)
	}
	if c := strings.TrimSpace(p.Concept); c != "" {
		w = append(w, `concept_text LIKE `+b.arg("%"+escapeLike(strings.ToLower(c))+"%"))
	}
	if len(p.ConceptBands) > 0 {
		w = append(w, `okf_concepts_band(concepts) = ANY(`+b.arg(p.ConceptBands)+`)`)
	}
	if len(p.Types) > 0 {
		w = append(w, `type = ANY(`+b.arg(p.Types)+`)`)
	}
	if len(p.Licenses) > 0 {
		w = append(w, `lower(repo_license) = ANY(`+b.arg(lowerAll(p.Licenses))+`)`)
	}
	return strings.Join(w, " AND ")
}

// relevance is the ranked search described at the top of this file. h holds
// the newest head matches, a the newest matches anywhere, each numbered in
// recency order; the window w is the first rankWindow of each.
func (b *sqlBuilder) relevance(q, filters string, limit, offset int) string {
	capN := strconv.Itoa(rankWindow + offset + limit)
	win := strconv.Itoa(rankWindow)
	// A head match is a match unless q excludes a word ("-word") that the
	// rest of the bundle holds; only then does h read the full vector, which
	// costs the index-only scan its heap visits.
	head := `search_head @@ ` + b.tsq
	if strings.Contains(q, "-") {
		head += ` AND search @@ ` + b.tsq
	}
	return `
WITH a AS MATERIALIZED (
	SELECT id, indexed_at, head, row_number() OVER (ORDER BY indexed_at DESC, id) AS pos
	FROM (SELECT id, indexed_at, search_head @@ ` + b.tsq + ` AS head FROM bundles
	      WHERE ` + filters + ` AND search @@ ` + b.tsq + `
	      ORDER BY indexed_at DESC, id LIMIT ` + capN + `) AS s
), h AS MATERIALIZED (
	SELECT id, indexed_at, row_number() OVER (ORDER BY indexed_at DESC, id) AS pos
	FROM (SELECT id, indexed_at FROM bundles
	      WHERE ` + filters + ` AND ` + head + `
	      ORDER BY indexed_at DESC, id LIMIT ` + capN + `) AS s
), w AS (
	SELECT id FROM h WHERE pos <= ` + win + `
	UNION
	SELECT id FROM a WHERE pos <= ` + win + `
), ordered AS (
	SELECT x.id, 0 AS tier, ts_rank_cd(x.search, ` + b.tsq + `) AS rank, x.indexed_at
	FROM w JOIN bundles AS x USING (id)
	UNION ALL
	SELECT id, 1, 0, indexed_at FROM h WHERE pos > ` + win + `
	UNION ALL
	SELECT id, 2, 0, indexed_at FROM a WHERE pos > ` + win + ` AND NOT head
), page AS (
	SELECT id, tier, rank, indexed_at FROM ordered
	ORDER BY tier, rank DESC, indexed_at DESC, id
	LIMIT ` + strconv.Itoa(limit) + ` OFFSET ` + strconv.Itoa(offset) + `
)
SELECT ` + qualified("b", bundleColumns) + `
FROM page JOIN bundles AS b USING (id)
ORDER BY page.tier, page.rank DESC, page.indexed_at DESC, page.id`
}

// qualified prefixes each column of a comma-separated list with alias.
func qualified(alias, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = alias + "." + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

func lowerAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strings.ToLower(strings.TrimSpace(v))
	}
	return out
}

// escapeLike escapes the LIKE metacharacters of s (backslash is the escape).
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
