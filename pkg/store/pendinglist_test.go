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
	for _, index := range []string{"bundles_live_search", "bundles_live_search_head"} {
		var pages, tuples int64
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if err := s.Pool().QueryRow(ctx, `SELECT pending_pages, pending_tuples FROM pgstatginindex($1::regclass)`, index).
				Scan(&pages, &tuples); err != nil {
				t.Fatal(err)
			}
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
	for _, index := range []string{"bundles_live_search", "bundles_live_search_head"} {
		var tuples int64
		if err := conn.QueryRow(ctx, `SELECT pending_tuples FROM pgstatginindex($1::regclass)`, index).Scan(&tuples); err != nil {
			t.Fatal(err)
		}
		if tuples != 0 {
			t.Errorf("%s when Close returned: %d pending tuples", index, tuples)
		}
	}
	if _, err := s.UpsertBundle(ctx, repoBundle("acme", "beta", "index.md")); err == nil {
		t.Error("a write after Close succeeded")
	}
}
