package store_test

import (
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// TestWrittenColumnsCoverTable: every column of bundles that is not
// generated is in the writers' column list or named as left to others, and
// every name of those lists is a column: a new column is one row of
// writtenColumns (or of columnsNotWritten, with its writer), and a renamed
// one fails here rather than in the upsert.
func TestWrittenColumnsCoverTable(t *testing.T) {
	t.Parallel()
	conn, err := pgx.Connect(t.Context(), storetest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	rows, err := conn.Query(t.Context(), `SELECT column_name FROM information_schema.columns
		WHERE table_name = 'bundles' AND is_generated = 'NEVER' ORDER BY ordinal_position`)
	if err != nil {
		t.Fatal(err)
	}
	table, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	written, notWritten := store.BundleColumnsOfWriters()
	listed := slices.Concat(written, notWritten)
	for _, c := range table {
		if !slices.Contains(listed, c) {
			t.Errorf("column bundles.%s is neither written by the upsert (writtenColumns) nor named in columnsNotWritten", c)
		}
	}
	for _, c := range listed {
		if !slices.Contains(table, c) {
			t.Errorf("%s is listed in bundlecolumns.go but is no column of bundles (or a generated one)", c)
		}
	}
}
