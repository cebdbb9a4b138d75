package github

import (
	"context"
	"time"
)

// Clock tells the time and sleeps. The client sleeps only through its Clock,
// so that tests can make waits instant.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done, whichever comes first, and
	// returns ctx.Err() in the second case.
	Sleep(ctx context.Context, d time.Duration) error
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits for d or until ctx is done.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
