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
// A check also says what was written, when it can: the keys (bundle ids)
// of the rows written, or that anything may have changed. What a cache does
// with a write is its policy: by default it empties (an answer exact as of
// the lookup); a cache of answers keyed by what they show (ByKey: a card
// under its bundle's id) drops only the keys written; a cache whose answers
// may lag a little (StaleFor: search pages) keeps serving an answer written
// over until it is that old, then computes it again.
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
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// CheckFunc reports what was written since the snapshot since and returns
// a snapshot of now: all when anything may have changed (always with since
// "", which asks with none), else the keys written (none: nothing was);
// store.BundlesWritten.
type CheckFunc func(ctx context.Context, since string) (now string, all bool, keys []string, err error)

// change is what the check that made generation gen found written.
type change struct {
	gen  uint64
	all  bool
	keys []string
}

// maxChanges is how many generations' changes a tracker remembers: a cache
// further behind than that empties when it next catches up.
const maxChanges = 256

// Tracker follows the generation of the index: a number that grows each
// time a check finds bundles written.
type Tracker struct {
	check CheckFunc
	now   func() time.Time

	mu      sync.Mutex
	gen     uint64   // bumped by each check that finds a write
	changes []change // what the last maxChanges generations wrote, oldest first
	snap    string   // the snapshot of the last check that succeeded
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

// Option sets a cache's policy on writes (see the package comment).
type Option func(*policy)

type policy struct {
	byKey bool
	stale time.Duration
}

// ByKey makes a cache whose key is the one key a write of which changes its
// value (a card under its bundle's id): a write drops the keys written only,
// and every key when the check cannot say which.
func ByKey() Option { return func(p *policy) { p.byKey = true } }

// StaleFor makes a cache that serves a value written over until d after
// its computation began: a value it serves is never older than d, and one
// with no write since is exact.
func StaleFor(d time.Duration) Option { return func(p *policy) { p.stale = d } }

// Cache is a bounded map from keys to values of type V, valid while the
// index is unchanged as its policy says. Its methods are safe for
// concurrent use.
type Cache[V any] struct {
	tracker  *Tracker
	maxBytes int
	policy   policy

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
	at    int       // index in keys
	gen   uint64    // the generation it was computed in
	since time.Time // when its computation began (its ticket's time)
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

// New makes an empty cache of at most maxBytes of values, fresh as t says
// and as opts set its policy (default: emptied by any write).
func New[V any](t *Tracker, maxBytes int, opts ...Option) *Cache[V] {
	c := &Cache[V]{tracker: t, maxBytes: maxBytes, entries: map[string]*entry[V]{}}
	for _, o := range opts {
		o(&c.policy)
	}
	return c
}

// Ticket says which state of the index a value computed after Get was
// computed from; Put stores the value only if that state is still current
// (for the key, with ByKey; or young enough, with StaleFor).
type Ticket struct {
	gen   uint64
	at    time.Time
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
	now := c.tracker.now()
	if e, ok := c.entries[key]; ok {
		if e.gen == c.gen || c.policy.byKey || now.Sub(e.since) <= c.policy.stale {
			c.stats.Hits++
			return e.value, Ticket{}, true
		}
		c.remove(key, e)
	}
	c.stats.Misses++
	return zero, Ticket{gen: gen, at: now, valid: true}, false
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
	if t.gen < c.gen && !c.keeps(key, t) {
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
	c.entries[key] = &entry[V]{value: v, size: size, at: len(c.keys), gen: t.gen, since: t.at}
	c.keys = append(c.keys, key)
	c.bytes += size
}

// keeps reports whether a value computed with ticket t, older than the
// cache's generation, may still be stored under key: with ByKey when no
// write since t wrote key, with StaleFor while it is young enough.
func (c *Cache[V]) keeps(key string, t Ticket) bool {
	switch {
	case c.policy.byKey:
		changes, ok := c.tracker.changesSince(t.gen, c.gen)
		if !ok {
			return false
		}
		for _, ch := range changes {
			if ch.all || slices.Contains(ch.keys, key) {
				return false
			}
		}
		return true
	case c.policy.stale > 0:
		return c.tracker.now().Sub(t.at) <= c.policy.stale
	}
	return false
}

// advance moves the cache to generation gen when it is newer: writes were
// found since its entries were stored. By default every entry may be stale
// and all are dropped; with ByKey the entries of the keys written are;
// with StaleFor none is (Get drops each when too old).
func (c *Cache[V]) advance(gen uint64) {
	if gen <= c.gen {
		return
	}
	from := c.gen
	c.gen = gen
	switch {
	case c.policy.byKey:
		changes, ok := c.tracker.changesSince(from, gen)
		for _, ch := range changes {
			ok = ok && !ch.all
		}
		if ok {
			for _, ch := range changes {
				for _, k := range ch.keys {
					if e, found := c.entries[k]; found {
						c.remove(k, e)
					}
				}
			}
			return
		}
	case c.policy.stale > 0:
		return
	}
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
