package store_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// event is a change as the tests compare it.
type event struct {
	kind   wire.ChangeKind
	id     string
	reason wire.RemovalReason
}

// drainChanges reads every change after the cursor, limit at a time, and
// returns them and the cursor that follows. Positions must follow one
// another unless the feed was compacted (gaps).
func drainChanges(t *testing.T, s *store.Store, after store.ChangeCursor, limit int) ([]store.Change, store.ChangeCursor) {
	return drain(t, s, after, limit, false)
}

func drain(t *testing.T, s *store.Store, after store.ChangeCursor, limit int, gaps bool) ([]store.Change, store.ChangeCursor) {
	t.Helper()
	var out []store.Change
	for {
		page, err := s.Changes(context.Background(), after, limit)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page.Changes {
			if c.Pos != after.Pos+1 && (len(out) > 0 || after.Pos > 0) && !(gaps && c.Pos > after.Pos) {
				t.Fatalf("position %d follows %d: a gap or a repeat", c.Pos, after.Pos)
			}
			after.Pos = c.Pos
		}
		if page.Next.Pos != after.Pos {
			t.Fatalf("next cursor %+v, last event %d", page.Next, after.Pos)
		}
		after = page.Next
		out = append(out, page.Changes...)
		if !page.More {
			return out, after
		}
	}
}

// replay applies changes to a set the way a client of the feed does.
func replay(set map[string]bool, changes []store.Change) {
	for _, c := range changes {
		switch c.Kind {
		case wire.ChangeAdded, wire.ChangeUpdated:
			set[c.BundleID] = true
		case wire.ChangeRemoved:
			delete(set, c.BundleID)
		}
	}
}

// liveSet is the set of live bundles, as search sees it.
func liveSet(t *testing.T, s *store.Store) map[string]bool {
	t.Helper()
	rows, err := s.Pool().Query(context.Background(), `SELECT id FROM bundles WHERE visibility = 'live'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out[id] = true
	}
	return out
}

func assertSameSet(t *testing.T, got, want map[string]bool) {
	t.Helper()
	for id := range want {
		if !got[id] {
			t.Errorf("live bundle %s missing from the replayed feed", id)
		}
	}
	for id := range got {
		if !want[id] {
			t.Errorf("replayed feed holds %s, which is not live", id)
		}
	}
}

// TestChangeEvents: which writes are which events, with which reasons.
func TestChangeEvents(t *testing.T) {
	ctx := context.Background()
	s, clk := newStore(t)
	a := repoBundle("acme", "kb", "index.md")
	b := repoBundle("acme", "kb", "docs/index.md")
	ex := repoBundle("acme", "kb", "examples/demo/index.md") // low by path
	dupRoot := sha256Hex("shared root")
	d1, d2 := repoBundle("one", "dup", "index.md"), repoBundle("two", "dup", "index.md")
	d1.RootSHA256, d2.RootSHA256 = dupRoot, dupRoot
	site := siteBundle("https://docs.example.org/okf/index.md")
	gone := repoBundle("old", "gone", "index.md")

	var after store.ChangeCursor
	tests := []struct {
		name string
		do   func() error
		want []event
	}{
		{"new bundles: live ones added, example paths silent", func() error {
			_, err := s.UpsertBundles(ctx, []store.BundleInput{a, b, ex, site, gone})
			return err
		}, []event{{wire.ChangeAdded, a.ID, ""}, {wire.ChangeAdded, b.ID, ""}, {wire.ChangeAdded, site.ID, ""}, {wire.ChangeAdded, gone.ID, ""}}},
		{"same content again: nothing", func() error {
			_, err := s.UpsertBundles(ctx, []store.BundleInput{a, b, ex})
			return err
		}, nil},
		{"repository signals only: nothing", func() error {
			c := a
			sig := *c.Repo
			sig.Stars = 99
			c.Repo = &sig
			_, err := s.UpsertBundle(ctx, c)
			return err
		}, nil},
		{"card changed: updated", func() error {
			clk.Advance(time.Hour)
			c := a
			c.Tagline = "A new tagline"
			_, err := s.UpsertBundle(ctx, c)
			return err
		}, []event{{wire.ChangeUpdated, a.ID, ""}}},
		{"example bundle changed: nothing (not live)", func() error {
			c := ex
			c.Tagline = "changed"
			_, err := s.UpsertBundle(ctx, c)
			return err
		}, nil},
		{"duplicate: the first copy added, the second low and silent", func() error {
			if _, err := s.UpsertBundle(ctx, d1); err != nil {
				return err
			}
			clk.Advance(time.Second)
			_, err := s.UpsertBundle(ctx, d2)
			return err
		}, []event{{wire.ChangeAdded, d1.ID, ""}}},
		{"file gone: removed file_gone, the copy promoted: added", func() error {
			_, err := s.HideRepoBundlesExcept(ctx, "one/dup", nil)
			return err
		}, []event{{wire.ChangeRemoved, d1.ID, wire.RemovedFileGone}, {wire.ChangeAdded, d2.ID, ""}}},
		{"the first copy back: it is older, so the second is made low", func() error {
			_, err := s.UpsertBundle(ctx, d1)
			return err
		}, []event{{wire.ChangeAdded, d1.ID, ""}, {wire.ChangeRemoved, d2.ID, wire.RemovedMadeLow}}},
		{"repository gone: removed repo_gone", func() error {
			_, err := s.HideGoneRepo(ctx, "old/gone")
			return err
		}, []event{{wire.ChangeRemoved, gone.ID, wire.RemovedRepoGone}}},
		{"key file stopped matching: removed key_mismatch", func() error {
			return s.HideBundle(ctx, site.ID)
		}, []event{{wire.ChangeRemoved, site.ID, wire.RemovedKeyMismatch}}},
		{"re-added after hiding: added", func() error {
			_, err := s.UpsertBundle(ctx, site)
			return err
		}, []event{{wire.ChangeAdded, site.ID, ""}}},
		{"hiding a hidden bundle: nothing", func() error {
			if _, err := s.HideGoneRepo(ctx, "old/gone"); err != nil {
				return err
			}
			return nil
		}, nil},
		{"a live row deleted by hand: removed deleted", func() error {
			return s.DeleteBundle(ctx, b.ID)
		}, []event{{wire.ChangeRemoved, b.ID, wire.RemovedDeleted}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.do(); err != nil {
				t.Fatal(err)
			}
			var changes []store.Change
			changes, after = drainChanges(t, s, after, 100)
			var got []event
			for _, c := range changes {
				got = append(got, event{c.Kind, c.BundleID, c.Reason})
				if (c.Kind == wire.ChangeRemoved) != (c.Reason != "") {
					t.Errorf("%+v: a reason exactly for removed", c)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("events %v, want %v", got, tt.want)
			}
		})
	}
	all, _ := drainChanges(t, s, store.ChangeCursor{}, 3)
	set := map[string]bool{}
	replay(set, all)
	assertSameSet(t, set, liveSet(t, s))
}

// TestChangesCursorErrors: a cursor past the newest event, and one older
// than the retained events after a compaction.
func TestChangesCursorErrors(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	at := func(pos, horizon int64) store.ChangeCursor { return store.ChangeCursor{Pos: pos, Horizon: horizon} }
	if p, err := s.Changes(ctx, at(0, 0), 10); err != nil || len(p.Changes) != 0 || p.More || p.Next != at(0, 0) {
		t.Fatalf("empty feed: %+v %v", p, err)
	}
	if _, err := s.Changes(ctx, at(1, 0), 10); !errors.Is(err, store.ErrCursorAhead) {
		t.Fatalf("cursor 1 on an empty feed: %v, want ErrCursorAhead", err)
	}
	var ins []store.BundleInput
	for i := range 6 {
		ins = append(ins, repoBundle("acme", fmt.Sprint("kb", i), "index.md"))
	}
	if _, err := s.UpsertBundles(ctx, ins); err != nil {
		t.Fatal(err)
	}
	for i := range 3 { // three tombstones, positions 7..9
		if _, err := s.HideGoneRepo(ctx, fmt.Sprint("acme/kb", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Changes(ctx, at(9, 0), 10); err != nil {
		t.Fatalf("cursor at the newest event: %v", err)
	}
	for _, c := range []store.ChangeCursor{at(10, 0), at(3, 1)} {
		if _, err := s.Changes(ctx, c, 10); !errors.Is(err, store.ErrCursorAhead) {
			t.Fatalf("cursor %+v: %v, want ErrCursorAhead", c, err)
		}
	}
	// Keep tombstones: only superseded events go (the added of kb0..kb2).
	n, err := s.CompactChanges(ctx, time.Now().Add(-time.Hour))
	if err != nil || n != 3 {
		t.Fatalf("compact, keeping tombstones: %d, %v; want 3", n, err)
	}
	if _, err := s.Changes(ctx, at(2, 0), 10); err != nil {
		t.Fatalf("cursor 2 after dropping superseded events: %v", err)
	}
	// Drop the tombstones: a cursor given before, and before the last of
	// them, has expired; one given after has not.
	if n, err := s.CompactChanges(ctx, time.Now().Add(time.Hour)); err != nil || n != 3 {
		t.Fatalf("compact tombstones: %d, %v; want 3", n, err)
	}
	for _, c := range []store.ChangeCursor{at(1, 0), at(8, 0)} {
		if _, err := s.Changes(ctx, c, 10); !errors.Is(err, store.ErrCursorExpired) {
			t.Errorf("cursor %+v after the horizon moved to 9: %v, want ErrCursorExpired", c, err)
		}
	}
	for _, c := range []store.ChangeCursor{at(9, 0), at(4, 9), at(0, 0)} {
		if _, err := s.Changes(ctx, c, 10); err != nil {
			t.Errorf("cursor %+v: %v", c, err)
		}
	}
	// Positions are never given twice, though the newest events were dropped.
	if _, err := s.HideGoneRepo(ctx, "acme/kb3"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Changes(ctx, at(9, 9), 10)
	if err != nil || len(p.Changes) != 1 || p.Changes[0].Pos != 10 {
		t.Fatalf("after the horizon: %+v, %v; want one event at position 10", p, err)
	}
	all, _ := drain(t, s, store.ChangeCursor{}, 2, true)
	set := map[string]bool{}
	replay(set, all)
	assertSameSet(t, set, liveSet(t, s))
}

// TestChangesFollowConcurrentWriters: writers upsert (batches and single
// bundles, content changes, re-additions), hide (files, repositories, keys)
// and delete bundles of shared duplicate groups, while readers follow the
// feed in small pages. Run with -race. Positions must come one after the
// other, each once, and replaying the whole feed from the start must give
// exactly the live set.
func TestChangesFollowConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	const groups, perGroup, writers, rounds, readers = 4, 6, 6, 60, 3
	var inputs []store.BundleInput
	for g := range groups {
		for i := range perGroup {
			in := repoBundle(fmt.Sprintf("owner%d", i), fmt.Sprintf("repo%d", i%3), fmt.Sprintf("g%d/index.md", g))
			in.RootSHA256 = sha256Hex(fmt.Sprint("group", g))
			inputs = append(inputs, in)
		}
	}
	var wg, rg sync.WaitGroup
	done := make(chan struct{})
	errs := make(chan error, writers*rounds+readers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 11))
			for range rounds {
				in := inputs[r.IntN(len(inputs))]
				var err error
				switch r.IntN(12) {
				case 0:
					err = s.DeleteBundle(ctx, in.ID)
				case 1:
					err = s.HideBundle(ctx, in.ID)
				case 2:
					_, err = s.HideRepoBundlesExcept(ctx, *in.Source.Repo, []string{in.ID})
				case 3:
					_, err = s.HideGoneRepo(ctx, *in.Source.Repo)
				case 4, 5:
					in.RootSHA256 = sha256Hex(fmt.Sprint("group", r.IntN(groups)))
					in.Card.Tagline = in.RootSHA256
					_, err = s.UpsertBundle(ctx, in)
				case 6, 7:
					batch := []store.BundleInput{in, inputs[r.IntN(len(inputs))], inputs[r.IntN(len(inputs))]}
					batch[0].Card.Description = fmt.Sprint("round ", r.IntN(3))
					_, err = s.UpsertBundles(ctx, batch)
				default:
					in.Card.Description = fmt.Sprint("round ", r.IntN(3))
					_, err = s.UpsertBundle(ctx, in)
				}
				if err != nil && !errors.Is(err, store.ErrNotFound) {
					errs <- err
				}
			}
		}()
	}
	followed := make([]map[string]bool, readers)
	cursors := make([]store.ChangeCursor, readers)
	for i := range readers {
		rg.Add(1)
		followed[i] = map[string]bool{}
		go func() {
			defer rg.Done()
			var after store.ChangeCursor
			for {
				select {
				case <-done:
					return
				default:
				}
				page, err := s.Changes(ctx, after, 1+i*2)
				if err != nil {
					errs <- err
					return
				}
				for _, c := range page.Changes {
					if c.Pos != after.Pos+1 {
						errs <- fmt.Errorf("reader %d: position %d after %d", i, c.Pos, after.Pos)
						return
					}
					after.Pos = c.Pos
				}
				after = page.Next
				cursors[i] = after
				replay(followed[i], page.Changes)
			}
		}()
	}
	wg.Wait()
	close(done)
	rg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	live := liveSet(t, s)
	for i := range readers { // what the readers held, brought up to date
		rest, _ := drainChanges(t, s, cursors[i], 5)
		replay(followed[i], rest)
		assertSameSet(t, followed[i], live)
	}
	all, _ := drainChanges(t, s, store.ChangeCursor{}, 7)
	set := map[string]bool{}
	replay(set, all)
	assertSameSet(t, set, live)
	if len(all) < writers*rounds/4 {
		t.Errorf("only %d events for %d writes", len(all), writers*rounds)
	}
	t.Logf("%d events, %d live bundles", len(all), len(live))
}

// A transaction that wrote first but commits last: its event is read after
// the other's, never skipped (an insert-order cursor would have passed it).
func TestChangesOutOfOrderCommit(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	first, second := repoBundle("acme", "first", "index.md"), repoBundle("acme", "second", "index.md")
	if _, err := s.UpsertBundles(ctx, []store.BundleInput{first}); err != nil {
		t.Fatal(err)
	}
	_, cur := drainChanges(t, s, store.ChangeCursor{}, 10)
	slow, err := s.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Rollback(ctx)
	// The slow transaction writes first: its event takes the smaller seq.
	if _, err := slow.Exec(ctx, `UPDATE bundles SET content_hash = 'changed by hand' WHERE id = $1`, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpsertBundle(ctx, second); err != nil {
		t.Fatal(err)
	}
	got, cur := drainChanges(t, s, cur, 10)
	if len(got) != 1 || got[0].BundleID != second.ID || got[0].Kind != wire.ChangeAdded {
		t.Fatalf("while the first writer is open: %+v, want only the second's added", got)
	}
	if err := slow.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ = drainChanges(t, s, cur, 10)
	if len(got) != 1 || got[0].BundleID != first.ID || got[0].Kind != wire.ChangeUpdated {
		t.Fatalf("after the first writer committed: %+v, want its updated", got)
	}
}
