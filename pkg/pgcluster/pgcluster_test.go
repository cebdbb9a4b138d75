package pgcluster_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/okfindex/okf-index/pkg/pgcluster"
)

func TestStartConnectStop(t *testing.T) {
	dir, err := os.MkdirTemp("", "pgcluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Remove()
	if err := c.CreateDatabase(ctx, "probe", ""); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, c.URL("probe"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var one int
	if err := conn.QueryRow(ctx, "select 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("select 1 = %d, %v", one, err)
	}
	// Starting again on a running cluster reuses it.
	c2, err := pgcluster.Start(ctx, pgcluster.Options{Dir: c.Dir, Ephemeral: true})
	if err != nil {
		t.Fatalf("restart on running cluster: %v", err)
	}
	if c2.URL("probe") != c.URL("probe") {
		t.Fatalf("reused cluster has another URL: %s vs %s", c2.URL("probe"), c.URL("probe"))
	}
}
