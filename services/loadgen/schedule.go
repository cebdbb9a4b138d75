package main

import (
	"context"
	"time"
)

// schedule is an open-loop arrival schedule: request k of a route is due at
// start + k/rate, whatever happened to the requests before it. Latency is
// measured from the due time, not from when the request actually left, so
// a stalled server or a late sender shows as latency instead of as fewer
// requests (no coordinated omission).
type schedule struct {
	start    time.Time
	interval time.Duration // 1/rate
	n        int           // requests in the run
}

// newSchedule is the schedule of rate requests a second for d from start.
// A rate of 0 sends nothing.
func newSchedule(start time.Time, rate float64, d time.Duration) schedule {
	if rate <= 0 {
		return schedule{start: start}
	}
	return schedule{
		start:    start,
		interval: time.Duration(float64(time.Second) / rate),
		n:        int(rate * d.Seconds()),
	}
}

// at is the due time of request k.
func (s schedule) at(k int) time.Time { return s.start.Add(time.Duration(k) * s.interval) }

// run calls fire(k, due) for every request of s, in order, each as soon as
// it is due: it sleeps while the next one is ahead and fires every request
// already due at once when it is behind. fire must not block (it starts
// the request and returns). run returns when all are fired or ctx ends.
func (s schedule) run(ctx context.Context, fire func(k int, due time.Time)) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for k := 0; k < s.n; k++ {
		due := s.at(k)
		if wait := time.Until(due); wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			return
		}
		fire(k, due)
	}
}
