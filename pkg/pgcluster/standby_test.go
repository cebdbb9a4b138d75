package pgcluster_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/pgcluster"
)

// TestStandbyStreams starts a primary and a hot standby of it: the standby
// is in recovery, refuses writes, and serves a row written on the primary
// after the backup was taken.
func TestStandbyStreams(t *testing.T) {
	ctx := context.Background()
	primary, err := pgcluster.Start(ctx, pgcluster.Options{Dir: tempDir(t), Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer primary.Remove()
	if err := primary.CreateDatabase(ctx, "probe", ""); err != nil {
		t.Fatal(err)
	}
	standby, err := pgcluster.StartStandby(ctx, primary, pgcluster.Options{Dir: tempDir(t), Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer standby.Remove()
	if standby.SocketDir == primary.SocketDir {
		t.Fatal("the standby shares the primary's socket directory")
	}
	pc := connect(t, primary.URL("probe"))
	sc := connect(t, standby.URL("probe"))
	var recovering bool
	if err := sc.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&recovering); err != nil || !recovering {
		t.Fatalf("standby in recovery = %v, %v", recovering, err)
	}
	if _, err := sc.Exec(ctx, `CREATE TABLE nope (x int)`); err == nil {
		t.Fatal("the standby took a write")
	}
	if _, err := pc.Exec(ctx, `CREATE TABLE t (x int); INSERT INTO t VALUES (42)`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var x int
		err := sc.QueryRow(ctx, `SELECT x FROM t`).Scan(&x)
		if err == nil && x == 42 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standby never served the primary's row: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func tempDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "pgcluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func connect(t *testing.T, url string) *pgx.Conn {
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
