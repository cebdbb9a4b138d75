package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
)

// written asks BundlesWritten since snap and fails the test on error.
func written(t *testing.T, s *store.Store, snap string) (string, bool) {
	t.Helper()
	now, all, ids, err := s.BundlesWritten(context.Background(), snap)
	if err != nil {
		t.Fatal(err)
	}
	return now, all || len(ids) > 0
}

func TestBundlesWritten(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	a, b := repoBundle("acme", "alpha", "index.md"), repoBundle("acme", "beta", "index.md")

	snap, w := written(t, s, "")
	if !w || snap == "" {
		t.Fatalf("with no snapshot: written %v, snapshot %q; want written and a snapshot", w, snap)
	}
	if snap, w = written(t, s, snap); w {
		t.Fatal("nothing written yet: want not written")
	}
	if _, err := s.UpsertBundle(ctx, a); err != nil {
		t.Fatal(err)
	}
	if snap, w = written(t, s, snap); !w {
		t.Fatal("after an insert: want written")
	}
	if snap, w = written(t, s, snap); w {
		t.Fatal("asked again with the snapshot after the insert: want not written")
	}
	if _, err := s.UpsertBundle(ctx, a); err != nil { // unchanged: no row is written
		t.Fatal(err)
	}
	if snap, w = written(t, s, snap); w {
		t.Fatal("an upsert of unchanged content writes nothing: want not written")
	}

	// A writer that started before the snapshot and commits after it is
	// seen, though a later writer committed first (commit order is not
	// the order of transaction ids).
	slow, err := s.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Rollback(ctx)
	if _, err := slow.Exec(ctx, `UPDATE bundles SET content_hash = 'changed by hand' WHERE id = $1`, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpsertBundle(ctx, b); err != nil {
		t.Fatal(err)
	}
	if snap, w = written(t, s, snap); !w {
		t.Fatal("after the second writer committed: want written")
	}
	if snap, w = written(t, s, snap); w {
		t.Fatal("the first writer is still open: want not written")
	}
	if err := slow.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if snap, w = written(t, s, snap); !w {
		t.Fatal("after the first writer committed: want written")
	}

	// A rolled back write is not a write; a delete is.
	tx, err := s.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE bundles SET name = 'rolled back' WHERE id = $1`, b.ID); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if snap, w = written(t, s, snap); w {
		t.Fatal("after a rollback: want not written")
	}
	if err := s.DeleteBundle(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if _, w = written(t, s, snap); !w {
		t.Fatal("after a delete: want written")
	}
}

func TestTrimBundleWrites(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	if _, err := s.UpsertBundle(ctx, repoBundle("acme", "alpha", "index.md")); err != nil {
		t.Fatal(err)
	}
	// Rows are stamped by the database's clock, not the test clock.
	n, err := s.TrimBundleWrites(ctx, time.Now())
	if err != nil || n != 0 {
		t.Fatalf("trim of a fresh row: %d, %v; want 0", n, err)
	}
	n, err = s.TrimBundleWrites(ctx, time.Now().Add(store.BundleWritesKept+time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("trim past the kept hour: %d, %v; want 1", n, err)
	}
}
