package store_test

import (
	"context"
	"testing"
)

// A write leaves the text indexes' GIN pending lists flushed: a search's
// probe of the index does not scan the entries of the writes before it.
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
		if err := s.Pool().QueryRow(ctx, `SELECT pending_pages, pending_tuples FROM pgstatginindex($1::regclass)`, index).
			Scan(&pages, &tuples); err != nil {
			t.Fatal(err)
		}
		if pages != 0 || tuples != 0 {
			t.Errorf("%s after a write: %d pending pages, %d pending tuples", index, pages, tuples)
		}
	}
}
