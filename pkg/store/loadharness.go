package store

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// What the load harness (services/loadgen, make load) needs beyond the
// service's own methods: the naive baseline it measures Search against,
// and a fresh ANALYZE after it builds an index in bulk. The service never
// calls either.

// NaiveQuery is one search as a plain SQL implementation would answer it.
type NaiveQuery struct {
	Q      string // "" lists the newest bundles
	Limit  int    // 0 means DefaultLimit
	Offset int    // counted by OFFSET, however deep
}

// NaiveSearch answers q the way a first implementation would: with a text
// query, ts_rank over every live match, ordered by rank, the page cut with
// OFFSET; without one, the newest live bundles with OFFSET. Nothing bounds
// the work by the page: a common word ranks every bundle holding it. It is
// the baseline of make load (docs/decisions.md, "Load harness"), never
// served. A statement stopped by the read timeout returns ErrSearchTimeout.
func (s *Store) NaiveSearch(ctx context.Context, q NaiveQuery) ([]Bundle, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	page := ` LIMIT ` + strconv.Itoa(limit) + ` OFFSET ` + strconv.Itoa(max(q.Offset, 0))
	sql := `SELECT ` + bundleColumns + ` FROM bundles WHERE visibility = 'live'
		ORDER BY indexed_at DESC, id` + page
	var args []any
	if q.Q != "" {
		sql = `SELECT ` + bundleColumns + ` FROM bundles, websearch_to_tsquery('okf_english', $1) AS tsq
			WHERE visibility = 'live' AND search @@ tsq
			ORDER BY ts_rank(search, tsq) DESC, id` + page
		args = append(args, q.Q)
	}
	rows, err := s.read.Query(ctx, sql, args...)
	var out []Bundle
	if err == nil {
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Bundle, error) { return scanBundle(r) })
	}
	if stoppedByReadTimeout(ctx, err) {
		return nil, ErrSearchTimeout
	}
	if err != nil {
		return nil, fmt.Errorf("store: naive search: %w", err)
	}
	return out, nil
}

// Analyze refreshes the planner's statistics of the bundles table, as
// autovacuum would some time after a bulk build: search plans depend on
// them (search.go), and so do the index's stop words, which this Store
// reads again at its next search (termweight.go).
func (s *Store) Analyze(ctx context.Context) error {
	if _, err := s.write.Exec(ctx, `VACUUM (ANALYZE) bundles`); err != nil {
		return fmt.Errorf("store: analyze bundles: %w", err)
	}
	s.shares.mu.Lock()
	s.shares.shares = nil
	s.shares.mu.Unlock()
	return nil
}
