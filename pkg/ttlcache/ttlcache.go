// Package ttlcache keeps one computed value for a time to live. When the
// value is missing or stale, the first caller's build runs and every
// caller that arrives meanwhile waits for that same build (singleflight),
// so a burst costs one computation; no lock is held while it runs. The
// build runs on a context detached from the callers' cancellation, so a
// caller that goes away does not fail the others, and each caller stops
// waiting when its own context ends. A failed build is not kept.
package ttlcache

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Cache holds one value of type V. It is safe for concurrent use.
type Cache[V any] struct {
	ttl   time.Duration
	now   func() time.Time
	group singleflight.Group

	mu  sync.Mutex
	at  time.Time // when val was built; zero: none yet
	val V
}

// New is a cache whose value lives ttl by the clock now (time.Now when nil).
func New[V any](ttl time.Duration, now func() time.Time) *Cache[V] {
	if now == nil {
		now = time.Now
	}
	return &Cache[V]{ttl: ttl, now: now}
}

// Get returns the value while it is fresh, else the result of build (one
// build for all the callers waiting). A value built in the future of the
// clock (a clock set back) counts as stale.
func (c *Cache[V]) Get(ctx context.Context, build func(context.Context) (V, error)) (V, error) {
	if v, ok := c.fresh(); ok {
		return v, nil
	}
	ch := c.group.DoChan("", func() (any, error) {
		if v, ok := c.fresh(); ok { // built while this caller was arriving
			return v, nil
		}
		v, err := build(context.WithoutCancel(ctx))
		if err != nil {
			return v, err
		}
		c.mu.Lock()
		c.at, c.val = c.now(), v
		c.mu.Unlock()
		return v, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			var zero V
			return zero, r.Err
		}
		return r.Val.(V), nil
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

func (c *Cache[V]) fresh() (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if c.at.IsZero() || now.Sub(c.at) >= c.ttl || now.Before(c.at) {
		var zero V
		return zero, false
	}
	return c.val, true
}

// Forget drops the value, so the next Get builds.
func (c *Cache[V]) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	var zero V
	c.at, c.val = time.Time{}, zero
}
