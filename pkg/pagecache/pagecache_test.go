package pagecache

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// db stands for the database's side of a check: a version that each write
// advances. Its snapshots are versions; a write is found when the version
// moved past the snapshot asked with. gate, when set, holds each check
// after it read the version, as a slow round trip would.
type db struct {
	version atomic.Int64
	checks  atomic.Int64
	fail    atomic.Bool
	gate    chan struct{}
	started chan struct{}
}

func (d *db) check(ctx context.Context, since string) (string, bool, []string, error) {
	d.checks.Add(1)
	v := d.version.Load()
	if d.started != nil {
		d.started <- struct{}{}
	}
	if d.gate != nil {
		<-d.gate
	}
	if d.fail.Load() {
		return "", false, nil, errors.New("database down")
	}
	if since == "" {
		return strconv.FormatInt(v, 10), true, nil, nil
	}
	s, _ := strconv.ParseInt(since, 10, 64)
	return strconv.FormatInt(v, 10), v > s, nil, nil
}

// fill looks key up in c and stores v under it with the lookup's ticket,
// as a caller does on a miss.
func fill[V any](c *Cache[V], key string, v V, size int) {
	_, tk, _ := c.Get(context.Background(), key)
	c.Put(tk, key, v, size)
}

func TestHitsUntilAWrite(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	c := New[string](NewTracker(d.check, nil), 1000)
	if _, tk, ok := c.Get(ctx, "q=a"); ok {
		t.Fatal("empty cache: want a miss")
	} else {
		c.Put(tk, "q=a", "page a", 10)
	}
	if v, _, ok := c.Get(ctx, "q=a"); !ok || v != "page a" {
		t.Fatalf("after Put: %q, %v; want the page", v, ok)
	}
	d.version.Add(1)
	if _, _, ok := c.Get(ctx, "q=a"); ok {
		t.Fatal("after a write: want a miss")
	}
	if s := c.Stats(); s.Hits != 1 || s.Misses != 2 || s.Entries != 0 {
		t.Fatalf("stats %+v: want 1 hit, 2 misses, no entry", s)
	}
	if n := c.tracker.Emptied(); n != 2 {
		t.Fatalf("emptied %d times, want twice (the first check, the write)", n)
	}
}

func TestPutWithAStaleTicketStoresNothing(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	c := New[string](NewTracker(d.check, nil), 1000)
	_, tk, _ := c.Get(ctx, "q=a")
	d.version.Add(1) // written while the page was computed
	c.Get(ctx, "q=b")
	c.Put(tk, "q=a", "maybe stale", 10)
	if _, _, ok := c.Get(ctx, "q=a"); ok {
		t.Fatal("a value computed before a write was found must not be stored")
	}
}

// A lookup must not be answered by a check that began before it: that
// check may have missed a write committed just before the lookup.
func TestLookupWaitsForACheckBegunAfterIt(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	c := New[string](NewTracker(d.check, nil), 1000)
	fill(c, "q=a", "page a", 10)

	d.gate, d.started = make(chan struct{}), make(chan struct{}, 4)
	first := make(chan bool)
	go func() { _, _, ok := c.Get(ctx, "q=a"); first <- ok }()
	<-d.started // the first check has read the version
	d.version.Add(1)
	second := make(chan bool)
	go func() { _, _, ok := c.Get(ctx, "q=a"); second <- ok }()
	time.Sleep(20 * time.Millisecond) // let the second lookup queue
	d.gate <- struct{}{}
	if !<-first {
		t.Fatal("the first lookup began before the write: want a hit")
	}
	select {
	case <-d.started:
		d.gate <- struct{}{}
	case ok := <-second:
		t.Fatalf("the second lookup was answered (hit %v) without a check begun after it", ok)
	}
	if <-second {
		t.Fatal("the second lookup began after the write: want a miss")
	}
}

func TestConcurrentLookupsShareChecks(t *testing.T) {
	ctx := context.Background()
	d := &db{gate: make(chan struct{}), started: make(chan struct{}, 100)}
	c := New[string](NewTracker(d.check, nil), 1000)
	go func() { c.Get(ctx, "warm") }()
	<-d.started
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { c.Get(ctx, "q") })
	}
	time.Sleep(20 * time.Millisecond)
	close(d.gate)
	wg.Wait()
	if n := d.checks.Load(); n != 2 {
		t.Fatalf("%d checks for 51 lookups, 50 of them during the first: want 2", n)
	}
}

func TestFailedCheck(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	c := New[string](NewTracker(d.check, nil), 1000)
	fill(c, "q=a", "page a", 10)
	d.fail.Store(true)
	_, tk, ok := c.Get(ctx, "q=a")
	if ok {
		t.Fatal("a failed check: want no answer from the cache")
	}
	c.Put(tk, "q=b", "page b", 10)
	d.fail.Store(false)
	if _, _, ok := c.Get(ctx, "q=b"); ok {
		t.Fatal("the ticket of a failed check stored a value")
	}
	if _, _, ok := c.Get(ctx, "q=a"); !ok {
		t.Fatal("nothing written: the stored page is still good after the database is back")
	}
	if s := c.Stats(); s.Unchecked != 1 {
		t.Fatalf("stats %+v: want 1 unchecked", s)
	}
}

func TestCanceledWait(t *testing.T) {
	d := &db{gate: make(chan struct{})}
	defer close(d.gate)
	c := New[string](NewTracker(d.check, nil), 1000)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, tk, ok := c.Get(ctx, "q"); ok || tk.valid {
		t.Fatal("a lookup whose caller gave up: want a miss with a ticket that stores nothing")
	}
}

func TestOldSnapshotStartsOver(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	c := New[string](NewTracker(d.check, func() time.Time { return now }), 1000)
	fill(c, "q=a", "page a", 10)
	now = now.Add(maxSnapshotAge - time.Second)
	if _, _, ok := c.Get(ctx, "q=a"); !ok {
		t.Fatal("a young snapshot: want a hit")
	}
	now = now.Add(maxSnapshotAge + time.Second)
	if _, _, ok := c.Get(ctx, "q=a"); ok {
		t.Fatal("a snapshot older than maxSnapshotAge: want the cache emptied")
	}
}

func TestMemoryBound(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	c := New[int](NewTracker(d.check, nil), 800)
	for i := range 100 {
		fill(c, strconv.Itoa(i), i, 50)
		if s := c.Stats(); s.Bytes > 800 {
			t.Fatalf("after %d puts: %d bytes held, bound 800", i+1, s.Bytes)
		}
	}
	if s := c.Stats(); s.Entries != 16 || s.Bytes != 800 {
		t.Fatalf("stats %+v: want 16 entries of 50 bytes", s)
	}
	fill(c, "big", 1, 101) // over MaxBytes/maxShare
	if _, _, ok := c.Get(ctx, "big"); ok {
		t.Fatal("a value over an eighth of the bound was stored")
	}
	fill(c, "5", 55, 50) // replacing a key keeps the count right
	if s := c.Stats(); s.Entries != 16 || s.Bytes != 800 {
		t.Fatalf("after replacing a key: %+v", s)
	}
}

// Under concurrent writes, every hit is at least as new as the index was
// when its lookup began (read after write), and memory stays bounded.
func TestConcurrentReadAfterWrite(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	c := New[int64](NewTracker(d.check, nil), 40)
	stop := make(chan struct{})
	var writers sync.WaitGroup
	writers.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				d.version.Add(1)
				time.Sleep(50 * time.Microsecond)
			}
		}
	})
	var readers sync.WaitGroup
	var hits atomic.Int64
	for r := range 8 {
		readers.Go(func() {
			for i := range 2000 {
				key := strconv.Itoa((r + i) % 6)
				before := d.version.Load()
				v, tk, ok := c.Get(ctx, key)
				if ok {
					hits.Add(1)
					if v < before {
						t.Errorf("hit of version %d for a lookup begun at %d", v, before)
						return
					}
					continue
				}
				c.Put(tk, key, d.version.Load(), 10)
			}
		})
	}
	readers.Wait()
	close(stop)
	writers.Wait()
	if s := c.Stats(); s.Bytes > 40 {
		t.Fatalf("%d bytes held, bound 40", s.Bytes)
	}
	t.Logf("%d hits of 16000 lookups", hits.Load())
}

// Caches that share a tracker share its checks, and each drops what a
// write made stale.
func TestCachesShareATracker(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	tr := NewTracker(d.check, nil)
	pages, cards := New[string](tr, 1000), New[string](tr, 1000)
	fill(pages, "q=a", "page", 10)
	fill(cards, "id", "card", 10)
	if _, _, ok := pages.Get(ctx, "q=a"); !ok {
		t.Fatal("page: want a hit")
	}
	d.version.Add(1)
	if _, _, ok := cards.Get(ctx, "id"); ok {
		t.Fatal("card after a write: want a miss")
	}
	if _, _, ok := pages.Get(ctx, "q=a"); ok {
		t.Fatal("page after a write found through the other cache: want a miss")
	}
	if s := pages.Stats(); s.Entries != 0 {
		t.Fatalf("pages %+v: the stale page is still held", s)
	}
	if n := d.checks.Load(); n != 5 {
		t.Fatalf("%d checks for 5 lookups one after another: want 5", n)
	}
}

// However many lookups arrive, checks start at most once per spacing.
func TestCheckSpacing(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	tr := NewTracker(d.check, nil)
	tr.spacing = 5 * time.Millisecond
	c := New[string](tr, 1000)
	start := time.Now()
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			for time.Since(start) < 100*time.Millisecond {
				c.Get(ctx, "q")
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if n, most := tr.Checks(), uint64(elapsed/tr.spacing)+2; n > most {
		t.Fatalf("%d checks in %s, spacing %s: want at most %d", n, elapsed, tr.spacing, most)
	}
	if s := c.Stats(); s.Misses+s.Hits < 100 {
		t.Fatalf("%+v: want many lookups answered by few checks", s)
	}
}

// Concurrent misses of one key share one computation; after a write, a
// miss computes again; a failed check computes without storing.
func TestLoadSharesAMiss(t *testing.T) {
	ctx := context.Background()
	d := &db{}
	c := New[int64](NewTracker(d.check, nil), 1000)
	var computed atomic.Int64
	release := make(chan struct{})
	compute := func() (int64, int, error) {
		computed.Add(1)
		<-release
		return d.version.Load(), 10, nil
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if v, err := c.Load(ctx, "front", compute); err != nil || v != 0 {
				t.Errorf("Load: %d, %v", v, err)
			}
		})
	}
	time.Sleep(50 * time.Millisecond) // let them all miss and wait
	close(release)
	wg.Wait()
	if n := computed.Load(); n != 1 {
		t.Fatalf("%d computations for 20 concurrent misses of one key: want 1", n)
	}
	if v, err := c.Load(ctx, "front", compute); err != nil || v != 0 || computed.Load() != 1 {
		t.Fatalf("after the shared miss: %d, %v, %d computations; want a hit", v, err, computed.Load())
	}
	d.version.Add(1)
	if v, err := c.Load(ctx, "front", compute); err != nil || v != 1 || computed.Load() != 2 {
		t.Fatalf("after a write: %d, %v, %d computations; want the new value computed", v, err, computed.Load())
	}
	d.fail.Store(true)
	if v, err := c.Load(ctx, "other", compute); err != nil || v != 1 || computed.Load() != 3 {
		t.Fatalf("with the check failing: %d, %v, %d computations; want a computation", v, err, computed.Load())
	}
	d.fail.Store(false)
	if _, err := c.Load(ctx, "other", compute); err != nil || computed.Load() != 4 {
		t.Fatalf("a value computed without a check was stored (%d computations)", computed.Load())
	}
	if _, err := c.Load(ctx, "front", compute); err != nil || computed.Load() != 4 {
		t.Fatalf("nothing written since: want the stored front page (%d computations)", computed.Load())
	}
}

// A miss whose shared computation failed because its first caller went
// away computes again for the callers still waiting.
func TestLoadAfterTheFirstCallerLeft(t *testing.T) {
	d := &db{}
	c := New[string](NewTracker(d.check, nil), 1000)
	first, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	firstDone := make(chan error)
	go func() {
		_, err := c.Load(first, "k", func() (string, int, error) {
			close(started)
			<-first.Done()
			return "", 0, first.Err()
		})
		firstDone <- err
	}()
	<-started
	second := make(chan string)
	go func() {
		v, err := c.Load(context.Background(), "k", func() (string, int, error) { return "fresh", 5, nil })
		if err != nil {
			t.Errorf("second caller: %v", err)
		}
		second <- v
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-firstDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("first caller: %v, want canceled", err)
	}
	if v := <-second; v != "fresh" {
		t.Fatalf("second caller got %q, want its own computation", v)
	}
}
