package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Postgres's time per query shape over a run, from pg_stat_statements when
// the server loads it (the harness's own cluster does; a database named by
// -db needs shared_preload_libraries=pg_stat_statements): the statements
// are reset before the run and read after it, grouped by the shape of
// search they are (shapeOf).

// resetStatements empties pg_stat_statements of dbURL's server; false when
// it is not available.
func resetStatements(ctx context.Context, dbURL string) bool {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return false
	}
	defer conn.Close(context.WithoutCancel(ctx))
	// A standby cannot create the extension (it is read-only): the
	// primary's, replayed, serves it there.
	_, cerr := conn.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_stat_statements`)
	_, err = conn.Exec(ctx, `SELECT pg_stat_statements_reset()`)
	return err == nil && (cerr == nil || conn.PgConn().ParameterStatus("in_hot_standby") == "on")
}

// shapeStat is the statements of one shape.
type shapeStat struct {
	shape           string
	calls           int64
	execMs, planMs  float64
	rows, blocksHit int64
	blocksRead      int64
}

// readStatements returns the statements of the database since the reset,
// by shape, dearest first.
func readStatements(ctx context.Context, dbURL string) ([]shapeStat, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	rows, err := conn.Query(ctx, `SELECT query, calls, total_exec_time, total_plan_time, rows, shared_blks_hit, shared_blks_read
		FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`)
	if err != nil {
		return nil, err
	}
	by := map[string]*shapeStat{}
	for rows.Next() {
		var q string
		var s shapeStat
		if err := rows.Scan(&q, &s.calls, &s.execMs, &s.planMs, &s.rows, &s.blocksHit, &s.blocksRead); err != nil {
			return nil, err
		}
		name := shapeOf(q)
		t := by[name]
		if t == nil {
			t = &shapeStat{shape: name}
			by[name] = t
		}
		t.calls += s.calls
		t.execMs += s.execMs
		t.planMs += s.planMs
		t.rows += s.rows
		t.blocksHit += s.blocksHit
		t.blocksRead += s.blocksRead
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []shapeStat
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b shapeStat) int {
		switch {
		case a.execMs+a.planMs > b.execMs+b.planMs:
			return -1
		case a.execMs+a.planMs < b.execMs+b.planMs:
			return 1
		}
		return strings.Compare(a.shape, b.shape)
	})
	return out, nil
}

var (
	orderBy  = regexp.MustCompile(`ORDER BY (\w+)`)
	spaces   = regexp.MustCompile(`\s+`)
	filterOf = []struct{ col, name string }{
		{"origin = ", "origin"}, {"repo = ", "repo"}, {"okf_version = ANY", "version"},
		{"lower(repo_language) = ANY", "language"}, {"type = ANY", "type"},
		{"lower(repo_license) = ANY", "license"}, {"okf_concepts_band", "band"},
	}
)

// shapeOf names the kind of a statement: a search by its sort, filters and
// whether it has q; a card; the caches' freshness check; a write; else its
// first words.
func shapeOf(q string) string {
	switch {
	case strings.Contains(q, "FROM bundles WHERE id = $1 AND visibility <>"):
		return "card"
	case strings.Contains(q, "pg_current_snapshot()"):
		return "freshness check"
	case strings.Contains(q, "okf_fill") || strings.HasPrefix(strings.TrimSpace(q), "INSERT") ||
		strings.Contains(q, "INSERT INTO bundles"):
		return "write"
	}
	if !strings.Contains(q, "FROM bundles") {
		s := spaces.ReplaceAllString(strings.TrimSpace(q), " ")
		return "other: " + s[:min(len(s), 48)]
	}
	var filters []string
	for _, f := range filterOf {
		if strings.Contains(q, f.col) {
			filters = append(filters, f.name)
		}
	}
	kind := "sorted"
	if strings.Contains(q, "WITH e0 AS") {
		kind = "relevance"
	} else if m := orderBy.FindStringSubmatch(q); m != nil {
		kind = "sorted " + map[string]string{"indexed_at": "recent", "updated_at": "updated", "lower": "name", "repo_stars": "stars"}[m[1]]
	}
	if !strings.Contains(q, "WITH e0 AS") && strings.Contains(q, "search @@") {
		kind += " +q"
	}
	if len(filters) > 0 {
		kind += " [" + strings.Join(filters, ",") + "]"
	}
	return kind
}

// writeStatements prints the shapes of stats, at most limit, with their
// share of Postgres's time.
func writeStatements(w io.Writer, stats []shapeStat, limit int) {
	var total float64
	for _, s := range stats {
		total += s.execMs + s.planMs
	}
	if total == 0 {
		return
	}
	fmt.Fprintf(w, "\nPostgres time by statement shape (pg_stat_statements over the run; %.1f s in all):\n", total/1000)
	fmt.Fprintf(w, "%-34s %9s %10s %9s %7s %11s %10s\n", "shape", "calls", "exec ms/q", "plan ms/q", "share", "blocks hit/q", "read/q")
	for i, s := range stats {
		if i == limit {
			break
		}
		c := float64(max(s.calls, 1))
		fmt.Fprintf(w, "%-34s %9d %10.2f %9.2f %6.1f%% %11.0f %10.1f\n", s.shape, s.calls, s.execMs/c, s.planMs/c,
			100*(s.execMs+s.planMs)/total, float64(s.blocksHit)/c, float64(s.blocksRead)/c)
	}
}
