package pgcluster

import (
	"context"
	"fmt"
	"strconv"
)

// DropDatabase drops database name when it exists, closing its
// connections (the load harness rebuilds an index database this way).
func (c *Cluster) DropDatabase(ctx context.Context, name string) error {
	args := []string{"-h", c.SocketDir, "-p", strconv.Itoa(c.Port), "-U", "postgres", "--if-exists", "--force", name}
	if out, err := c.run(ctx, "dropdb", args...); err != nil {
		return fmt.Errorf("pgcluster: dropdb %s: %w: %s", name, err, out)
	}
	return nil
}
