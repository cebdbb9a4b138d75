package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/pgcluster"
)

// startStandby makes a streaming hot standby of the harness's cluster
// (pg_basebackup -R, pgcluster.StartStandby) in a temporary directory,
// which close removes, and points the index's reads at it: the API then
// serves searches, cards and statistics from the standby
// (DATABASE_READ_URL) and writes to the primary, as a deployment with a
// read replica does. Only the harness's own cluster has one: -db names a
// server the harness does not run.
func (idx *index) startStandby(ctx context.Context, out io.Writer) error {
	if idx.cluster == nil {
		return fmt.Errorf("-replica: only with the harness's own cluster, not -db")
	}
	dir, err := os.MkdirTemp("", "okf-load-standby-")
	if err != nil {
		return err
	}
	start := time.Now()
	s, err := pgcluster.StartStandby(ctx, idx.cluster, pgcluster.Options{Dir: filepath.Join(dir, "pg"),
		Preload: []string{"pg_stat_statements", "pg_prewarm"}})
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	idx.standby, idx.standbyDir = s, dir
	idx.readURL = s.URL(idx.name)
	fmt.Fprintf(out, "reads: a streaming hot standby in %s, made in %s\n", dir, time.Since(start).Round(time.Second))
	return nil
}

// standbyPid is the pid of the standby's postmaster, 0 without one.
func (idx *index) standbyPid() int {
	if idx.standby == nil {
		return 0
	}
	return postmasterPidOf(idx.standby.DataDir)
}

// replayLag says how far the standby's replay is behind the primary's
// WAL at the run's end, for the report ("" without a standby).
func (idx *index) replayLag(ctx context.Context) string {
	if idx.standby == nil {
		return ""
	}
	var lsn string
	var behind float64
	err := queryOne(ctx, idx.url, `SELECT pg_current_wal_lsn()::text`, nil, &lsn)
	if err == nil {
		err = queryOne(ctx, idx.readURL, `SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::float8`, []any{lsn}, &behind)
	}
	if err != nil {
		return "reads: a streaming hot standby (its lag unknown: " + err.Error() + ")"
	}
	return fmt.Sprintf("reads: a streaming hot standby, %.0f bytes of WAL behind the primary at the run's end", max(behind, 0))
}

// queryOne scans the one row of sql, run with args on a connection of its
// own to url, into dest.
func queryOne(ctx context.Context, url, sql string, args []any, dest ...any) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return conn.QueryRow(ctx, sql, args...).Scan(dest...)
}

// closeStandby stops the standby and removes its directory.
func (idx *index) closeStandby() error {
	if idx.standby == nil {
		return nil
	}
	err := idx.standby.Remove()
	if rerr := os.RemoveAll(idx.standbyDir); err == nil {
		err = rerr
	}
	idx.standby = nil
	return err
}
