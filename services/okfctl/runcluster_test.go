package main

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/pgcluster"
)

// okfctl run's private cluster loads pg_prewarm with autoprewarm on, so a
// restart comes back with its shared buffers warm.
func TestRunClusterPrewarms(t *testing.T) {
	t.Parallel()
	c, err := pgcluster.Start(t.Context(), runCluster(t.TempDir(), ""))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	conn, err := pgx.Connect(t.Context(), c.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var libs, autoprewarm string
	if err := conn.QueryRow(t.Context(), `SELECT current_setting('shared_preload_libraries'), current_setting('pg_prewarm.autoprewarm')`).Scan(&libs, &autoprewarm); err != nil {
		t.Fatal(err)
	}
	if libs != "pg_stat_statements,pg_prewarm" || autoprewarm != "on" {
		t.Fatalf("shared_preload_libraries %q, pg_prewarm.autoprewarm %q", libs, autoprewarm)
	}
}
