package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// UsageDelta is an increment of one usage metric on one UTC day.
type UsageDelta struct {
	Day    time.Time // the UTC day; the time of day is ignored
	Metric string
	N      int64
}

// UsageCount is the value of one usage metric on one UTC day.
type UsageCount struct {
	Day    time.Time
	Metric string
	N      int64
}

// addUsageSQL adds every delta in one statement. Rows are locked in (day,
// metric) order, so replicas flushing at once never deadlock.
const addUsageSQL = `
INSERT INTO usage_daily AS u (day, metric, n)
SELECT d.day, d.metric, d.n
FROM unnest($1::date[], $2::text[], $3::bigint[]) AS d (day, metric, n)
ORDER BY d.day, d.metric
ON CONFLICT (day, metric) DO UPDATE SET n = u.n + EXCLUDED.n`

// usageFlushRetention is how long a flush id is remembered: far longer
// than any retry of the same flush.
const usageFlushRetention = "2 days"

// AddUsage adds the deltas to the day counters, exactly once per flush id:
// a retry with an id already applied changes nothing. Deltas of the same
// day and metric are summed first (one statement cannot update a row
// twice). Flush ids past usageFlushRetention are pruned on the way.
func (s *Store) AddUsage(ctx context.Context, flushID string, deltas []UsageDelta) error {
	sum := map[[2]string]int64{}
	for _, d := range deltas {
		if d.N <= 0 {
			continue
		}
		sum[[2]string{d.Day.UTC().Format(time.DateOnly), d.Metric}] += d.N
	}
	if len(sum) == 0 {
		return nil
	}
	keys := make([][2]string, 0, len(sum))
	for k := range sum {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	days, metrics, ns := make([]string, len(keys)), make([]string, len(keys)), make([]int64, len(keys))
	for i, k := range keys {
		days[i], metrics[i], ns[i] = k[0], k[1], sum[k]
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO usage_flushes (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, flushID)
		if err != nil || tag.RowsAffected() == 0 {
			return err // applied before: nothing to add
		}
		if _, err := tx.Exec(ctx, addUsageSQL, days, metrics, ns); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM usage_flushes WHERE flushed_at < now() - $1::interval`, usageFlushRetention)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: add usage: %w", err)
	}
	return nil
}

// Usage returns the counters of the UTC days from first to last, inclusive,
// in day and metric order; a day or metric never counted has no row.
func (s *Store) Usage(ctx context.Context, first, last time.Time) ([]UsageCount, error) {
	rows, err := s.write.Query(ctx, `
SELECT day, metric, n FROM usage_daily
WHERE day BETWEEN $1::date AND $2::date
ORDER BY day, metric`, first.UTC().Format(time.DateOnly), last.UTC().Format(time.DateOnly))
	if err != nil {
		return nil, fmt.Errorf("store: usage: %w", err)
	}
	defer rows.Close()
	var out []UsageCount
	for rows.Next() {
		var c UsageCount
		if err := rows.Scan(&c.Day, &c.Metric, &c.N); err != nil {
			return nil, fmt.Errorf("store: usage: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: usage: %w", err)
	}
	return out, nil
}
