package pgcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// StartStandby makes a streaming hot standby of primary in opts.Dir and
// starts it: a base backup of primary taken with pg_basebackup -R (which
// writes standby.signal and the primary_conninfo that streams the
// primary's WAL from then on), served read-only as the primary replays
// into it. A standby already running in opts.Dir is reused; a data
// directory there that is not running is taken as the standby's and
// started. The primary must allow replication connections, which initdb's
// defaults do over the Unix socket (wal_level replica, max_wal_senders 10).
func StartStandby(ctx context.Context, primary *Cluster, opts Options) (*Cluster, error) {
	if opts.BinDir == "" {
		opts.BinDir = primary.bin
	}
	c, err := newCluster(opts)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(c.DataDir, "PG_VERSION")); err != nil {
		args := []string{"-D", c.DataDir, "-R", "-X", "stream", "-c", "fast",
			"-h", primary.SocketDir, "-p", strconv.Itoa(primary.Port), "-U", "postgres"}
		if opts.Ephemeral {
			args = append(args, "--no-sync")
		}
		if out, err := c.run(ctx, "pg_basebackup", args...); err != nil {
			return nil, fmt.Errorf("pgcluster: pg_basebackup: %w: %s", err, out)
		}
	}
	return c.start(ctx, opts)
}
