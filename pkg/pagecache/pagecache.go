// Package pagecache keeps answers computed from the index (pages of search
// results) in memory for as long as no transaction has written bundles
// since they were computed, and no longer: an answer served from it is the
// answer the database would give at the moment the request arrived.
//
// Freshness is asked of the database on every lookup, but not once per
// lookup: lookups that arrive while a check is under way wait for the next
// one, which starts when it ends, so one round trip answers every lookup
// that arrived during the one before (a check that began before a lookup
// arrived could miss a write committed just before it). A check that finds
// a write empties the cache. See store.BundlesWritten for how a write is
// found whatever the order in which writers commit.
//
// A Tracker runs the checks; any number of caches share one (search pages
// and cards ask the same question). Memory is bounded by each cache's
// MaxBytes of stored values; past it a value chosen at random makes room (least recently used would evict everything
// of a working set a little larger than the cache, cycled in order, before
// its next use).
package pagecache

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// CheckFunc reports whether bundles were written since the snapshot since
// ("" for none: then it reports written) and returns a snapshot of now;
// store.BundlesWritten.
type CheckFunc func(ctx context.Context, since string) (now string, written bool, err error)

// Tracker follows the generation of the index: a number that grows each
// time a check finds bundles written.
type Tracker struct {
	check CheckFunc
	now   func() time.Time

	mu      sync.Mutex
	gen     uint64 // bumped by each check that finds a write
	snap    string // the snapshot of the last check that succeeded
	snapAt  time.Time
	running *round // the check under way
	queued  *round // the check that starts when it ends
	emptied uint64 // checks that found a write
	checks  uint64 // checks made
	spacing time.Duration
	started time.Time // when the last check began (the wall clock, not now)

	// Observe, when set before the first lookup, is told how long each
	// check took.
	Observe func(time.Duration)
}

// NewTracker makes a tracker asking check; now is the clock of snapshot
// ages (time.Now when nil).
func NewTracker(check CheckFunc, now func() time.Time) *Tracker {
	if now == nil {
		now = time.Now
	}
	return &Tracker{check: check, now: now, spacing: checkSpacing}
}

// checkSpacing is the least time from the start of one check to the start
// of the next. Under load the checks run back to back, each answering the
// lookups that arrived during the one before; spacing them lets each
// answer more (at 6,000 lookups a second, about three) for at most this
// much more latency, and bounds the checks to 2,000 a second.
const checkSpacing = 500 * time.Microsecond

// maxSnapshotAge is the oldest snapshot a check compares with: older, it
// asks with none and the cache starts over. store.TrimBundleWrites keeps an
// hour of writes, so a snapshot this old still finds every write since.
const maxSnapshotAge = 10 * time.Minute

// checkTimeout bounds one check; the lookups waiting for it miss when it
// fails.
const checkTimeout = 2 * time.Second

// maxShare is the largest share of MaxBytes one value may take.
const maxShare = 8

// Cache is a bounded map from keys to values of type V, valid while the
// index is unchanged. Its methods are safe for concurrent use.
type Cache[V any] struct {
	tracker  *Tracker
	maxBytes int

	mu      sync.Mutex
	gen     uint64 // the generation of the entries
	entries map[string]*entry[V]
	keys    []string // the keys of entries, for eviction at random
	bytes   int
	stats   Stats

	flight singleflight.Group // misses being computed, by generation and key
}

type entry[V any] struct {
	value V
	size  int
	at    int // index in keys
}

// round is one check and the lookups waiting for it.
type round struct {
	done chan struct{}
	gen  uint64
	err  error
}

// Stats are a cache's counts since it was made.
type Stats struct {
	Hits, Misses uint64
	// Unchecked counts lookups answered without the cache because the
	// check failed or the caller gave up waiting.
	Unchecked uint64
	Entries   int
	Bytes     int
}

// New makes an empty cache of at most maxBytes of values, fresh as t says.
func New[V any](t *Tracker, maxBytes int) *Cache[V] {
	return &Cache[V]{tracker: t, maxBytes: maxBytes, entries: map[string]*entry[V]{}}
}

// Ticket says which state of the index a value computed after Get was
// computed from; Put stores the value only if that state is still current.
type Ticket struct {
	gen   uint64
	valid bool
}

// Get returns the value under key when nothing was written since it was
// stored, as a check that began after Get was called found. On a miss it
// returns the ticket to Put the computed value with; the ticket of a
// failed check (or a ctx done while waiting) stores nothing.
func (c *Cache[V]) Get(ctx context.Context, key string) (V, Ticket, bool) {
	var zero V
	gen, err := c.tracker.current(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.stats.Unchecked++
		return zero, Ticket{}, false
	}
	c.advance(gen)
	if e, ok := c.entries[key]; ok && gen == c.gen {
		c.stats.Hits++
		return e.value, Ticket{}, true
	}
	c.stats.Misses++
	return zero, Ticket{gen: gen, valid: true}, false
}

// Load returns the value under key as Get does, and on a miss computes it
// with compute (which returns the value and its size) and stores it.
// Concurrent misses of one key in one state of the index share one
// computation (a write emptied the cache, and the front page is asked a
// hundred times while it is computed once); a lookup whose check failed
// computes alone and stores nothing. When the computation it shared
// failed because its first caller went away, a lookup computes again.
func (c *Cache[V]) Load(ctx context.Context, key string, compute func() (V, int, error)) (V, error) {
	v, t, ok := c.Get(ctx, key)
	if ok {
		return v, nil
	}
	if !t.valid {
		v, _, err := compute()
		return v, err
	}
	run := func() (any, error) {
		v, size, err := compute()
		if err == nil {
			c.Put(t, key, v, size)
		}
		return v, err
	}
	r, err, shared := c.flight.Do(strconv.FormatUint(t.gen, 10)+"\x00"+key, run)
	if shared && ctx.Err() == nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		r, err = run()
	}
	v, _ = r.(V)
	return v, err
}

// Put stores v of the given size under key, if t is a ticket of the
// current state of the index and v fits.
func (c *Cache[V]) Put(t Ticket, key string, v V, size int) {
	if !t.valid || size > c.maxBytes/maxShare {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.gen < c.gen {
		return // a write was found since: v may be stale
	}
	c.advance(t.gen)
	if old, ok := c.entries[key]; ok {
		c.remove(key, old)
	}
	for c.bytes+size > c.maxBytes && len(c.keys) > 0 {
		k := c.keys[rand.IntN(len(c.keys))]
		c.remove(k, c.entries[k])
	}
	c.entries[key] = &entry[V]{value: v, size: size, at: len(c.keys)}
	c.keys = append(c.keys, key)
	c.bytes += size
}

// advance moves the cache to generation gen when it is newer: a write was
// found since its entries were stored, so every one of them may be stale.
func (c *Cache[V]) advance(gen uint64) {
	if gen <= c.gen {
		return
	}
	c.gen = gen
	clear(c.entries)
	c.keys, c.bytes = c.keys[:0], 0
}

// remove drops e, the entry of key, keeping keys dense.
func (c *Cache[V]) remove(key string, e *entry[V]) {
	last := len(c.keys) - 1
	moved := c.keys[last]
	c.keys[e.at] = moved
	c.entries[moved].at = e.at
	c.keys = c.keys[:last]
	delete(c.entries, key)
	c.bytes -= e.size
}

// Stats returns the cache's counts.
func (c *Cache[V]) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries, s.Bytes = len(c.entries), c.bytes
	return s
}

// Emptied is how many checks found bundles written.
func (t *Tracker) Emptied() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emptied
}

// Checks is how many checks were made.
func (t *Tracker) Checks() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.checks
}

// current returns the generation of the index as a check that began after
// the call found it.
func (t *Tracker) current(ctx context.Context) (uint64, error) {
	t.mu.Lock()
	var r *round
	switch {
	case t.running == nil:
		r = &round{done: make(chan struct{})}
		t.running = r
		go t.run(r)
	case t.queued != nil:
		r = t.queued
	default:
		r = &round{done: make(chan struct{})}
		t.queued = r
	}
	t.mu.Unlock()
	select {
	case <-r.done:
		return r.gen, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// run performs r's check, then the check queued meanwhile, until none is.
func (t *Tracker) run(r *round) {
	for r != nil {
		t.mu.Lock()
		wait := t.spacing - time.Since(t.started)
		t.mu.Unlock()
		if wait > 0 {
			time.Sleep(wait)
		}
		t.mu.Lock()
		t.started = time.Now()
		began := t.started
		t.checks++
		since, snapAt := t.snap, t.now()
		if snapAt.Sub(t.snapAt) > maxSnapshotAge {
			since = ""
		}
		t.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
		now, written, err := t.check(ctx, since)
		cancel()
		if t.Observe != nil {
			t.Observe(time.Since(began))
		}

		t.mu.Lock()
		if err == nil {
			if written {
				t.gen++
				t.emptied++
			}
			t.snap, t.snapAt = now, snapAt
		}
		r.gen, r.err = t.gen, err
		close(r.done)
		r, t.queued = t.queued, nil
		t.running = r
		t.mu.Unlock()
	}
}
