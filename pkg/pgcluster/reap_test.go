package pgcluster_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/okfindex/okf-index/pkg/pgcluster"
)

// TestReapOrphans: a cluster whose owner process is gone is stopped and
// deleted; one whose owner runs, and one with no owner recorded, are left.
func TestReapOrphans(t *testing.T) {
	parent, err := os.MkdirTemp("", "pgcluster-reap-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })      // last: after every cluster has stopped
	if err := os.Chmod(parent, 0o755); err != nil { // the server's user must reach the clusters
		t.Fatal(err)
	}
	ctx := context.Background()
	start := func(name string) *pgcluster.Cluster {
		c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: filepath.Join(parent, name), Ephemeral: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Remove() })
		return c
	}
	orphan, owned, unclaimed := start("c-orphan"), start("c-owned"), start("c-unclaimed")
	if orphan.Dir != filepath.Join(parent, "c-orphan") {
		t.Skipf("the cluster went to %s; the reap pattern cannot name it", orphan.Dir)
	}
	if err := owned.ClaimOwnership(); err != nil {
		t.Fatal(err)
	}
	// The orphan's owner is a process that has exited.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(orphan.Dir, "owner.pid"), []byte(strconv.Itoa(gone.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}

	n, err := pgcluster.Reap(filepath.Join(parent, "c-*"))
	if err != nil || n != 1 {
		t.Fatalf("Reap = %d, %v; want 1 cluster removed", n, err)
	}
	if _, err := os.Stat(orphan.Dir); !os.IsNotExist(err) {
		t.Errorf("the orphan's directory is still there: %v", err)
	}
	for _, c := range []*pgcluster.Cluster{owned, unclaimed} {
		if err := c.CreateDatabase(ctx, "still_up", ""); err != nil {
			t.Errorf("%s was touched: %v", c.Dir, err)
		}
	}
}
