package pagecache

import (
	"context"
	"slices"
	"time"
)

// The tracker's counts and its rounds of freshness checks.

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

// changesSince returns the changes of the generations after from up to
// to; ok is false when the tracker no longer remembers them all.
func (t *Tracker) changesSince(from, to uint64) (changes []change, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i := slices.IndexFunc(t.changes, func(ch change) bool { return ch.gen > from })
	if i < 0 || t.changes[i].gen != from+1 {
		return nil, from >= to
	}
	for _, ch := range t.changes[i:] {
		if ch.gen > to {
			break
		}
		changes = append(changes, ch)
	}
	return changes, true
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
		now, all, keys, err := t.check(ctx, since)
		cancel()
		if t.Observe != nil {
			t.Observe(time.Since(began))
		}

		t.mu.Lock()
		if err == nil {
			if all || len(keys) > 0 {
				t.gen++
				t.emptied++
				t.changes = append(t.changes, change{gen: t.gen, all: all, keys: keys})
				if len(t.changes) > maxChanges {
					t.changes = slices.Delete(t.changes, 0, len(t.changes)-maxChanges)
				}
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
