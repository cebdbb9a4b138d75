package store_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// visibilities reads the visibility of ids ("gone" when deleted or hidden).
func visibilities(t *testing.T, s *store.Store, ids ...string) []string {
	t.Helper()
	out := make([]string, len(ids))
	for i, id := range ids {
		b, err := s.GetBundle(context.Background(), id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			out[i] = "gone"
		case err != nil:
			t.Fatal(err)
		default:
			out[i] = string(b.Visibility)
		}
	}
	return out
}

func TestDuplicatesOneLivePerRoot(t *testing.T) {
	ctx := context.Background()
	root := sha256Hex("the same root bytes")
	copies := func() []store.BundleInput {
		var out []store.BundleInput
		for _, owner := range []string{"first", "second", "third"} {
			in := repoBundle(owner, "kb", "index.md")
			in.RootSHA256 = root
			out = append(out, in)
		}
		return out
	}
	type step struct {
		name string
		do   func(t *testing.T, s *store.Store, c []store.BundleInput)
		want []string // visibilities of the three copies
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"delete the live copy promotes the next", []step{
			{"delete first", func(t *testing.T, s *store.Store, c []store.BundleInput) {
				if err := s.DeleteBundle(ctx, c[0].ID); err != nil {
					t.Fatal(err)
				}
			}, []string{"gone", "live", "low"}},
		}},
		{"hide promotes, re-upsert restores the earliest", []step{
			{"hide first", func(t *testing.T, s *store.Store, c []store.BundleInput) {
				if err := s.HideBundle(ctx, c[0].ID); err != nil {
					t.Fatal(err)
				}
			}, []string{"gone", "live", "low"}},
			{"hide second", func(t *testing.T, s *store.Store, c []store.BundleInput) {
				if _, err := s.HideRepoBundlesExcept(ctx, "second/kb", nil); err != nil {
					t.Fatal(err)
				}
			}, []string{"gone", "gone", "live"}},
			{"first seen again", func(t *testing.T, s *store.Store, c []store.BundleInput) {
				mustUpsert(t, s, c[0])
			}, []string{"live", "gone", "low"}},
		}},
		{"re-sweeps keep the canonical copy", []step{
			{"upsert all again, last first", func(t *testing.T, s *store.Store, c []store.BundleInput) {
				for i := len(c) - 1; i >= 0; i-- {
					mustUpsert(t, s, c[i])
				}
			}, []string{"live", "low", "low"}},
		}},
		{"a copy whose root changes leaves the group", []step{
			{"first changes", func(t *testing.T, s *store.Store, c []store.BundleInput) {
				in := c[0]
				in.RootSHA256 = sha256Hex("new bytes")
				in.Card.Tagline = "edited"
				if res := mustUpsert(t, s, in); res.Visibility != wire.VisibilityLive {
					t.Errorf("changed copy is %s", res.Visibility)
				}
			}, []string{"live", "live", "low"}},
			{"and comes back", func(t *testing.T, s *store.Store, c []store.BundleInput) {
				mustUpsert(t, s, c[0])
			}, []string{"live", "low", "low"}},
		}},
		{"example paths never count as the live copy", []step{
			{"add an earlier example copy", func(t *testing.T, s *store.Store, c []store.BundleInput) {
				// Delete all, then index an example copy first.
				for _, in := range c {
					if err := s.DeleteBundle(ctx, in.ID); err != nil {
						t.Fatal(err)
					}
				}
				ex := repoBundle("zero", "kb", "examples/index.md")
				ex.RootSHA256 = root
				if res := mustUpsert(t, s, ex); res.Visibility != wire.VisibilityLow {
					t.Errorf("example copy is %s", res.Visibility)
				}
				for _, in := range c {
					mustUpsert(t, s, in)
				}
			}, []string{"live", "low", "low"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, clk := newStore(t)
			c := copies()
			for _, in := range c {
				mustUpsert(t, s, in)
				clk.Advance(time.Minute)
			}
			ids := []string{c[0].ID, c[1].ID, c[2].ID}
			if got := visibilities(t, s, ids...); fmt.Sprint(got) != "[live low low]" {
				t.Fatalf("initial: %v", got)
			}
			for _, st := range tt.steps {
				clk.Advance(time.Minute)
				st.do(t, s, c)
				if got := visibilities(t, s, ids...); fmt.Sprint(got) != fmt.Sprint(st.want) {
					t.Errorf("%s: %v, want %v", st.name, got, st.want)
				}
			}
			assertStatsMatchRecount(t, s)
		})
	}
}

func TestHideRepoBundlesExcept(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	a := repoBundle("Acme", "KB", "index.md")
	b := repoBundle("Acme", "KB", "b/index.md")
	c := repoBundle("Acme", "KB", "c/index.md")
	other := repoBundle("Other", "KB", "index.md")
	other.RootSHA256 = c.RootSHA256 // a copy of c elsewhere
	for _, in := range []store.BundleInput{a, b, c, other} {
		mustUpsert(t, s, in)
	}
	if got := visibilities(t, s, a.ID, b.ID, c.ID, other.ID); fmt.Sprint(got) != "[live live live low]" {
		t.Fatalf("initial: %v", got)
	}
	tests := []struct {
		keep []string
		want int
		vis  string
	}{
		{[]string{a.ID}, 2, "[live gone gone live]"},
		{[]string{a.ID}, 0, "[live gone gone live]"},
		{nil, 1, "[gone gone gone live]"},
	}
	for _, tt := range tests {
		n, err := s.HideRepoBundlesExcept(ctx, "acme/kb", tt.keep)
		if err != nil {
			t.Fatal(err)
		}
		got := visibilities(t, s, a.ID, b.ID, c.ID, other.ID)
		if n != tt.want || fmt.Sprint(got) != tt.vis {
			t.Errorf("keep %v: hid %d %v, want %d %s", tt.keep, n, got, tt.want, tt.vis)
		}
	}
	// Seen again: visible again, and c is again the earlier copy.
	mustUpsert(t, s, c)
	if got := visibilities(t, s, c.ID, other.ID); fmt.Sprint(got) != "[live low]" {
		t.Errorf("after re-upsert: %v", got)
	}
	if err := s.HideBundle(ctx, "no-such-id"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("HideBundle(missing) = %v", err)
	}
	assertStatsMatchRecount(t, s)
}

// TestConcurrentWriters runs workers that upsert, hide and delete bundles of
// shared duplicate groups at once, while statistics are recounted; run it
// with -race. Nothing may fail or deadlock, every group must end with exactly
// one live copy among its visible, non-example members, and the kept
// statistics must match a recount.
func TestConcurrentWriters(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	const groups, perGroup, workers, rounds = 4, 5, 8, 40
	var inputs []store.BundleInput
	for g := range groups {
		for i := range perGroup {
			in := repoBundle(fmt.Sprintf("owner%d", i), fmt.Sprintf("repo%d", i%2), fmt.Sprintf("g%d/index.md", g))
			in.RootSHA256 = sha256Hex(fmt.Sprint("group", g))
			inputs = append(inputs, in)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds+5)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for range rounds {
				in := inputs[r.IntN(len(inputs))]
				var err error
				switch r.IntN(10) {
				case 0:
					err = s.DeleteBundle(ctx, in.ID)
				case 1:
					err = s.HideBundle(ctx, in.ID)
				case 2:
					_, err = s.HideRepoBundlesExcept(ctx, *in.Source.Repo, []string{in.ID})
				case 3:
					in.RootSHA256 = sha256Hex(fmt.Sprint("group", r.IntN(groups)))
					in.Card.Tagline = in.RootSHA256
					_, err = s.UpsertBundle(ctx, in)
				default:
					sig := *in.Repo
					sig.Stars = r.IntN(100)
					in.Repo = &sig
					_, err = s.UpsertBundle(ctx, in)
				}
				if err != nil && !errors.Is(err, store.ErrNotFound) {
					errs <- err
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // recounts while the writers write must lose no delta
		defer wg.Done()
		for range 5 {
			if err := s.RecountStats(ctx); err != nil {
				errs <- err
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	rows, err := s.Pool().Query(ctx, `SELECT root_sha256, count(*) FILTER (WHERE visibility = 'live'),
			count(*) FILTER (WHERE visibility <> 'hidden' AND NOT path_low)
		FROM bundles GROUP BY root_sha256`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var root string
		var live, eligible int
		if err := rows.Scan(&root, &live, &eligible); err != nil {
			t.Fatal(err)
		}
		if want := min(eligible, 1); live != want {
			t.Errorf("group %s: %d live of %d eligible", root[:8], live, eligible)
		}
	}
	assertStatsMatchRecount(t, s)
}
