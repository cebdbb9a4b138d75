package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// A batch follows the rules of single upserts: duplicates written together
// leave the first live, an id given twice is written once, and writing the
// same batch again changes nothing.
func TestUpsertBundlesBatch(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	var ins []store.BundleInput
	for i := range 6 {
		ins = append(ins, repoBundle(fmt.Sprintf("o%d", i), "kb", "index.md"))
	}
	ins[4].RootSHA256 = ins[1].RootSHA256 // a copy of 1, written after it
	ins = append(ins, ins[2])             // 2 again
	res, err := s.UpsertBundles(ctx, ins)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		want := wire.VisibilityLive
		if i == 4 {
			want = wire.VisibilityLow
		}
		if r.ID != ins[i].ID || !r.Created || !r.Changed || r.Visibility != want {
			t.Errorf("result %d: %+v, want created %s", i, r, want)
		}
	}
	var updated []wire.Timestamp
	for _, in := range ins {
		b, err := s.GetBundle(ctx, in.ID)
		if err != nil {
			t.Fatal(err)
		}
		updated = append(updated, b.UpdatedAt)
	}
	res, err = s.UpsertBundles(ctx, ins)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		b, err := s.GetBundle(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Created || r.Changed || b.UpdatedAt != updated[i] {
			t.Errorf("again %d: %+v, updated_at %v then %v", i, r, updated[i], b.UpdatedAt)
		}
	}
	if _, err := s.UpsertBundles(ctx, make([]store.BundleInput, store.MaxBatch+1)); err == nil {
		t.Error("a batch over MaxBatch accepted")
	}
}
