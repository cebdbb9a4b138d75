package store_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/pagecache"
	"github.com/okfindex/okf-index/pkg/store"
)

// BundlesWritten names the bundles each transaction wrote since the
// snapshot: an insert, an update, a hide; and several in one transaction.
func TestBundlesWrittenNamesTheBundles(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	a, b := repoBundle("acme", "alpha", "index.md"), repoBundle("acme", "beta", "index.md")
	snap, _, _, err := s.BundlesWritten(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	mustUpsert(t, s, a)
	snap2, all, ids, err := s.BundlesWritten(ctx, snap)
	if err != nil || all || !slices.Equal(ids, []string{a.ID}) {
		t.Fatalf("after an insert of a: all %v ids %v (%v), want [a]", all, ids, err)
	}
	if _, err := s.UpsertBundles(ctx, []store.BundleInput{b, func() store.BundleInput { c := a; c.Card.Tagline = "changed"; return c }()}); err != nil {
		t.Fatal(err)
	}
	_, all, ids, err = s.BundlesWritten(ctx, snap2)
	slices.Sort(ids)
	if err != nil || all || !slices.Equal(ids, []string{a.ID, b.ID}) {
		t.Fatalf("after a batch of a and b: all %v ids %v (%v), want both", all, ids, err)
	}
}

// The promise of the API's caches, kept by a cache of cards (ByKey) and a
// cache of pages (StaleFor) on real Postgres under concurrent writers: a
// card looked up after a write of its bundle committed shows that write; a
// page is never older than the staleness bound; and a card whose bundle
// nobody writes is computed once, whatever else is written.
func TestCachesUnderConcurrentWriters(t *testing.T) {
	s, _ := newStore(t)
	const writers, stale = 4, 300 * time.Millisecond
	ids := make([]string, writers)
	ins := make([]store.BundleInput, writers)
	for i := range writers {
		ins[i] = repoBundle("acme", fmt.Sprintf("w%d", i), "index.md")
		ins[i].Card.Tagline = "v0"
		ids[i] = ins[i].ID
		mustUpsert(t, s, ins[i])
	}
	bystander := repoBundle("acme", "bystander", "index.md")
	mustUpsert(t, s, bystander)

	tracker := pagecache.NewTracker(s.BundlesWritten, nil)
	cards := pagecache.New[int](tracker, 1<<20, pagecache.ByKey())
	pages := pagecache.New[int](tracker, 1<<20, pagecache.StaleFor(stale))
	version := func(id string) (int, int, error) {
		b, err := s.GetBundle(context.Background(), id)
		if err != nil {
			return 0, 0, err
		}
		v, err := strconv.Atoi(strings.TrimPrefix(b.Tagline, "v"))
		return v, 8, err
	}
	// committed[i] holds, in order, when each version of bundle i finished
	// committing.
	var mu sync.Mutex
	committed := make([][]time.Time, writers)
	latestBefore := func(i int, t0 time.Time) int {
		mu.Lock()
		defer mu.Unlock()
		v := 0
		for k, at := range committed[i] {
			if at.Before(t0) {
				v = k + 1
			}
		}
		return v
	}
	var bystanderComputed, cardChecks, pageChecks atomic.Int64
	loadBystander := func() error {
		_, err := cards.Load(context.Background(), bystander.ID, func() (int, int, error) {
			bystanderComputed.Add(1)
			return 0, 8, nil
		})
		return err
	}
	if err := loadBystander(); err != nil {
		t.Fatal(err)
	}
	// The run's 3 seconds start here: on a loaded machine the set-up above
	// (a database cloned, five bundles written) can take longer than that.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := 1; ctx.Err() == nil; v++ {
				in := ins[i]
				in.Card.Tagline = "v" + strconv.Itoa(v)
				if _, err := s.UpsertBundles(context.Background(), []store.BundleInput{in}); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				committed[i] = append(committed[i], time.Now())
				mu.Unlock()
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	for r := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
				i := (n + r) % writers
				t0 := time.Now()
				v, err := cards.Load(context.Background(), ids[i], func() (int, int, error) { return version(ids[i]) })
				if err != nil {
					t.Error(err)
					return
				}
				if want := latestBefore(i, t0); v < want {
					t.Errorf("card %d: version %d, but %d was committed before the lookup", i, v, want)
				}
				cardChecks.Add(1)
				p, err := pages.Load(context.Background(), "page", func() (int, int, error) { return version(ids[0]) })
				if err != nil {
					t.Error(err)
					return
				}
				if want := latestBefore(0, t0.Add(-stale)); p < want {
					t.Errorf("page: version %d, but %d was committed more than %s before the lookup", p, want, stale)
				}
				pageChecks.Add(1)
				if err := loadBystander(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	writes := 0
	for _, c := range committed {
		writes += len(c)
	}
	if writes < 4*writers || cardChecks.Load() < 50 {
		t.Fatalf("%d writes, %d card lookups: too few to prove anything", writes, cardChecks.Load())
	}
	if n := bystanderComputed.Load(); n != 1 {
		t.Errorf("the card of a bundle nobody wrote was computed %d times during %d writes of others, want once", n, writes)
	}
	if st := pages.Stats(); st.Hits == 0 {
		t.Errorf("the page was never served from the cache during the writes (%+v)", st)
	}
	t.Logf("%d writes; %d card and %d page lookups; cards %+v, pages %+v", writes, cardChecks.Load(), pageChecks.Load(), cards.Stats(), pages.Stats())
}
