package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/okfindex/okf-index/pkg/wire"
)

// What the operator listener reads (pkg/ops): readiness, the connection
// pools' statistics, and the progress counts read on each Prometheus
// scrape. The queries are small aggregates on the write pool (River's tables
// and the sweep's progress live on the primary); callers bound them with a
// short timeout.

// Ping checks that both pools reach their database: readiness.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.write.Ping(ctx); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	if err := s.read.Ping(ctx); err != nil {
		return fmt.Errorf("store: ping read pool: %w", err)
	}
	return nil
}

// PoolStat is a snapshot of one connection pool, so that callers need not
// import pgx.
type PoolStat struct {
	Name string // "write" or "read"

	AcquiredConns, IdleConns, ConstructingConns, TotalConns, MaxConns int32

	AcquireCount, CanceledAcquireCount, EmptyAcquireCount       int64
	NewConnsCount, MaxLifetimeDestroyCount, MaxIdleDestroyCount int64
	AcquireDuration, EmptyAcquireWaitTime                       time.Duration
}

// PoolStats returns the statistics of the write, the read and the lookup
// pool (separate pools even when DATABASE_READ_URL names the primary).
func (s *Store) PoolStats() []PoolStat {
	return []PoolStat{poolStat("write", s.write), poolStat("read", s.read), poolStat("lookup", s.lookup)}
}

func poolStat(name string, p *pgxpool.Pool) PoolStat {
	st := p.Stat()
	return PoolStat{
		Name:                    name,
		AcquiredConns:           st.AcquiredConns(),
		IdleConns:               st.IdleConns(),
		ConstructingConns:       st.ConstructingConns(),
		TotalConns:              st.TotalConns(),
		MaxConns:                st.MaxConns(),
		AcquireCount:            st.AcquireCount(),
		CanceledAcquireCount:    st.CanceledAcquireCount(),
		EmptyAcquireCount:       st.EmptyAcquireCount(),
		NewConnsCount:           st.NewConnsCount(),
		MaxLifetimeDestroyCount: st.MaxLifetimeDestroyCount(),
		MaxIdleDestroyCount:     st.MaxIdleDestroyCount(),
		AcquireDuration:         st.AcquireDuration(),
		EmptyAcquireWaitTime:    st.EmptyAcquireWaitTime(),
	}
}

// JobCount is the number of River jobs of one kind in one state.
type JobCount struct {
	Kind, State string
	N           int64
}

// OpsStats are the progress counts of the queue, the sweep and the pings.
type OpsStats struct {
	Jobs []JobCount // river_job rows by kind and state

	// SweepRound is the newest discovery round (RFC 3339, the UTC start of
	// its period); "" when no round has run.
	SweepRound string
	// Candidates of the sweep: swept since the round began (done), not yet
	// (pending), and gone. Without a round, done means ever swept.
	CandidatesDone, CandidatesPending, CandidatesGone int64
	// Windows are the round's search slices by discoverer: finished and
	// still being paged.
	WindowsDone, WindowsOpen map[string]int64

	Pings        map[wire.PingState]int64 // IndexNow URLs received in the last 24 hours, by estado (pendente, publicado, rejeitado)
	PingsPending int64                    // IndexNow URLs still pendente, however old
}

// OpsStats reads the progress counts.
func (s *Store) OpsStats(ctx context.Context) (OpsStats, error) {
	st := OpsStats{WindowsDone: map[string]int64{}, WindowsOpen: map[string]int64{}, Pings: map[wire.PingState]int64{}}
	rows, err := s.write.Query(ctx, `SELECT kind, state::text, count(*) FROM river_job GROUP BY 1, 2 ORDER BY 1, 2`)
	if err != nil {
		return st, fmt.Errorf("store: ops stats: jobs: %w", err)
	}
	if st.Jobs, err = pgx.CollectRows(rows, pgx.RowToStructByPos[JobCount]); err != nil {
		return st, fmt.Errorf("store: ops stats: jobs: %w", err)
	}

	// The round of the windows is written as the discovery pages; the
	// job's argument names a round whose discovery has not paged yet.
	err = s.write.QueryRow(ctx, `SELECT coalesce(greatest(
		(SELECT max(round) FROM sweep_windows WHERE round <> ''),
		(SELECT max(args->>'round') FROM river_job WHERE kind = 'sweep_discover')), '')`).Scan(&st.SweepRound)
	if err != nil {
		return st, fmt.Errorf("store: ops stats: sweep round: %w", err)
	}
	var since *time.Time
	if t, err := time.Parse(time.RFC3339, st.SweepRound); err == nil {
		since = &t
	}
	err = s.write.QueryRow(ctx, `SELECT
			count(*) FILTER (WHERE NOT gone AND swept_at >= coalesce($1::timestamptz, '-infinity')),
			count(*) FILTER (WHERE NOT gone AND (swept_at IS NULL OR swept_at < coalesce($1::timestamptz, '-infinity'))),
			count(*) FILTER (WHERE gone)
		FROM sweep_candidates`, since).Scan(&st.CandidatesDone, &st.CandidatesPending, &st.CandidatesGone)
	if err != nil {
		return st, fmt.Errorf("store: ops stats: sweep candidates: %w", err)
	}
	rows, err = s.write.Query(ctx, `SELECT discoverer, count(*) FILTER (WHERE done_at IS NOT NULL),
		count(*) FILTER (WHERE done_at IS NULL) FROM sweep_windows WHERE round = $1 GROUP BY 1`, st.SweepRound)
	if err != nil {
		return st, fmt.Errorf("store: ops stats: sweep windows: %w", err)
	}
	var by string
	var done, open int64
	if _, err := pgx.ForEachRow(rows, []any{&by, &done, &open}, func() error {
		st.WindowsDone[by], st.WindowsOpen[by] = done, open
		return nil
	}); err != nil {
		return st, fmt.Errorf("store: ops stats: sweep windows: %w", err)
	}
	if err := countBy(ctx, s, st.Pings,
		`SELECT state, count(*) FROM pings WHERE received_at > now() - interval '24 hours' GROUP BY 1`); err != nil {
		return st, fmt.Errorf("store: ops stats: pings: %w", err)
	}
	if err := s.write.QueryRow(ctx, `SELECT count(*) FROM pings WHERE state = 'pendente'`).Scan(&st.PingsPending); err != nil {
		return st, fmt.Errorf("store: ops stats: pending pings: %w", err)
	}
	return st, nil
}

// countBy fills m from a query of (key, count) rows.
func countBy[K ~string](ctx context.Context, s *Store, m map[K]int64, sql string) error {
	rows, err := s.write.Query(ctx, sql)
	if err != nil {
		return err
	}
	var k K
	var n int64
	_, err = pgx.ForEachRow(rows, []any{&k, &n}, func() error {
		m[k] = n
		return nil
	})
	return err
}

// ReadConns is the most connections the read pool and the lookup pool
// each open: pool_max_conns of the read database's URL, else pgx's
// default (four, or the machine's cores when more). The API admits as
// many reads as these can run (services/api/server/admission.go).
func (s *Store) ReadConns() (read, lookup int) {
	return int(s.read.Config().MaxConns), int(s.lookup.Config().MaxConns)
}
