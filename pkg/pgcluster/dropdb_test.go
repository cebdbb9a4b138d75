package pgcluster_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/okfindex/okf-index/pkg/pgcluster"
)

// DropDatabase drops a database even while a client holds it open, and
// dropping one that does not exist is not an error.
func TestDropDatabase(t *testing.T) {
	dir, err := os.MkdirTemp("", "pgcluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Ephemeral: true, Port: 5433})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Remove()
	if err := c.CreateDatabase(ctx, "gone", ""); err != nil {
		t.Fatal(err)
	}
	held, err := pgx.Connect(ctx, c.URL("gone"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close(ctx)
	if err := c.DropDatabase(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if conn, err := pgx.Connect(ctx, c.URL("gone")); err == nil {
		conn.Close(ctx)
		t.Fatal("the dropped database still takes connections")
	}
	if err := c.DropDatabase(ctx, "gone"); err != nil {
		t.Errorf("dropping a missing database: %v", err)
	}
}
