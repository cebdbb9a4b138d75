package pagecache

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"
)

// keyedDB stands for a database whose checks say which keys were written:
// a log of written keys, whose length is the snapshot.
type keyedDB struct {
	mu  sync.Mutex
	log []string // "" is a write of unknown keys
}

func (d *keyedDB) write(keys ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.log = append(d.log, keys...)
}

func (d *keyedDB) check(_ context.Context, since string) (string, bool, []string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := strconv.Itoa(len(d.log))
	if since == "" {
		return now, true, nil, nil
	}
	s, _ := strconv.Atoi(since)
	var keys []string
	for _, k := range d.log[s:] {
		if k == "" {
			return now, true, nil, nil
		}
		keys = append(keys, k)
	}
	return now, false, keys, nil
}

func TestByKeyDropsTheKeysWritten(t *testing.T) {
	ctx := context.Background()
	d := &keyedDB{}
	c := New[string](NewTracker(d.check, nil), 1000, ByKey())
	for _, k := range []string{"a", "b", "c"} {
		fill(c, k, "card "+k, 10)
	}
	d.write("b")
	for k, want := range map[string]bool{"a": true, "b": false, "c": true} {
		if _, _, ok := c.Get(ctx, k); ok != want {
			t.Errorf("%s after a write of b: hit %v, want %v", k, ok, want)
		}
	}
	// A write the check cannot name drops every key.
	fill(c, "b", "card b", 10)
	d.write("")
	for _, k := range []string{"a", "b", "c"} {
		if _, _, ok := c.Get(ctx, k); ok {
			t.Errorf("%s after a write of unknown keys: a hit", k)
		}
	}
}

func TestByKeyStaleTicket(t *testing.T) {
	ctx := context.Background()
	d := &keyedDB{}
	c := New[string](NewTracker(d.check, nil), 1000, ByKey())
	_, ta, _ := c.Get(ctx, "a")
	_, tb, _ := c.Get(ctx, "b")
	d.write("a")                 // written while both were computed
	c.Get(ctx, "x")              // the cache learns of it
	c.Put(ta, "a", "old a", 10)  // computed before a's write: refused
	c.Put(tb, "b", "card b", 10) // b was not written: kept
	if _, _, ok := c.Get(ctx, "a"); ok {
		t.Error("a value of a computed before a's write was stored")
	}
	if v, _, ok := c.Get(ctx, "b"); !ok || v != "card b" {
		t.Errorf("b: %q %v, want the card computed before another key's write", v, ok)
	}
	// Past the tracker's memory of changes, a ticket stores nothing.
	_, tb, _ = c.Get(ctx, "z")
	for i := range maxChanges + 1 {
		d.write("w" + strconv.Itoa(i))
		c.Get(ctx, "x")
	}
	c.Put(tb, "z", "z", 10)
	if _, _, ok := c.Get(ctx, "z"); ok {
		t.Error("a ticket older than the changes remembered stored its value")
	}
}

func TestStaleFor(t *testing.T) {
	ctx := context.Background()
	d := &keyedDB{}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	tick := func(dt time.Duration) { mu.Lock(); now = now.Add(dt); mu.Unlock() }
	c := New[string](NewTracker(d.check, clock), 1000, StaleFor(5*time.Second))
	fill(c, "q=a", "page a", 10)
	tick(10 * time.Second)
	if _, _, ok := c.Get(ctx, "q=a"); !ok {
		t.Fatal("no write since it was computed: an old page is exact, want a hit")
	}
	d.write("x")
	tick(time.Second)
	if _, _, ok := c.Get(ctx, "q=a"); ok {
		t.Fatal("written over and older than 5 s: want a miss")
	}
	fill(c, "q=a", "page a2", 10)
	d.write("y")
	tick(4 * time.Second)
	if v, _, ok := c.Get(ctx, "q=a"); !ok || v != "page a2" {
		t.Fatalf("written over, 4 s old: %q %v, want the page", v, ok)
	}
	tick(2 * time.Second)
	if _, _, ok := c.Get(ctx, "q=a"); ok {
		t.Fatal("written over, 6 s old: want a miss")
	}
}
