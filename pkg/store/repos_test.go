package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

func TestSetRepoSignal(t *testing.T) {
	s, clk := newStore(t)
	ctx := context.Background()
	a := repoBundle("Acme", "KB", "index.md")
	b := repoBundle("Acme", "KB", "sub/index.md")
	other := repoBundle("Other", "KB", "index.md")
	for _, in := range []store.BundleInput{a, b, other} {
		mustUpsert(t, s, in)
	}
	before := mustGet(t, s, a.ID)
	clk.Advance(time.Hour)
	pushed := wire.Timestamp{Time: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	sig := wire.RepoSignal{Stars: 7, Forks: 3, PushedAt: &pushed, State: ptr(source.StateStalled), License: ptr("Apache-2.0")}
	for _, want := range []int{2, 0} { // the second call changes nothing
		n, err := s.SetRepoSignal(ctx, "acme/kb", sig)
		if err != nil || n != want {
			t.Fatalf("SetRepoSignal = %d, %v; want %d", n, err, want)
		}
	}
	for _, id := range []string{a.ID, b.ID} {
		got := mustGet(t, s, id)
		if got.Repo.Stars != 7 || got.Repo.Forks != 3 || !got.Repo.PushedAt.Equal(pushed.Time) ||
			*got.Repo.State != source.StateStalled || got.Repo.Language != nil || *got.Repo.License != "Apache-2.0" {
			t.Errorf("%s: signal %+v", id, got.Repo)
		}
		if !got.UpdatedAt.Equal(before.UpdatedAt.Time) {
			t.Errorf("%s: updated_at moved on a signal change", id)
		}
	}
	if got := mustGet(t, s, other.ID); got.Repo.Stars != 10 {
		t.Errorf("other repository changed: %+v", got.Repo)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.ByLicense) != 2 || st.ByLicense[0] != (wire.Facet{V: "Apache-2.0", N: 2}) {
		t.Errorf("by_license after the refresh: %v", st.ByLicense)
	}
	assertStatsMatchRecount(t, s)
}
