package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// A write has the text indexes' GIN pending lists flushed, after it
// returns: a search's probe of the index does not scan the entries of the
// writes before it for longer than the flush takes.
func TestWriteFlushesPendingLists(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	if _, err := s.Pool().Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pgstattuple`); err != nil {
		t.Fatal(err)
	}
	in := repoBundle("acme", "alpha", "index.md")
	in.Card.Description = "A description with many words to index, whose entries go to the pending lists."
	mustUpsert(t, s, in)
	for _, index := range textIndexes {
		var pages, tuples int64
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			pages, tuples = pendingEntries(t, s.Pool(), index)
			if pages == 0 && tuples == 0 || time.Now().After(deadline) {
				break
			}
		}
		if pages != 0 || tuples != 0 {
			t.Errorf("%s 10 s after a write: %d pending pages, %d pending tuples", index, pages, tuples)
		}
	}
}

// Close waits for the flush a write started (the lists are flushed when it
// returns), and a Store that has closed starts no more.
func TestCloseWaitsForUpkeep(t *testing.T) {
	ctx := context.Background()
	url := storetest.NewDatabase(t)
	s, err := store.Open(ctx, store.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	in := repoBundle("acme", "alpha", "index.md")
	in.Card.Description = "Words whose entries go to the pending lists of both text indexes."
	mustUpsert(t, s, in)
	s.Close()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pgstattuple`); err != nil {
		t.Fatal(err)
	}
	for _, index := range textIndexes {
		if pages, tuples := pendingEntries(t, conn, index); pages != 0 || tuples != 0 {
			t.Errorf("%s when Close returned: %d pending pages, %d pending tuples", index, pages, tuples)
		}
	}
	if _, err := s.UpsertBundle(ctx, repoBundle("acme", "beta", "index.md")); err == nil {
		t.Error("a write after Close succeeded")
	}
}

// textIndexes are the GIN indexes whose pending lists writers flush.
var textIndexes = []string{"bundles_live_search", "bundles_live_search_head"}

// pendingEntries are the pages and entries of index's pending list
// (pgstattuple, which the caller has created).
func pendingEntries(t *testing.T, db interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, index string) (pages, tuples int64) {
	t.Helper()
	if err := db.QueryRow(context.Background(), `SELECT pending_pages, pending_tuples FROM pgstatginindex($1::regclass)`, index).
		Scan(&pages, &tuples); err != nil {
		t.Fatal(err)
	}
	return pages, tuples
}
