package ttlcache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/clocktest"
)

func TestFreshStaleAndFailed(t *testing.T) {
	t.Parallel()
	clk := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c := New[int](time.Minute, clk.Now)
	builds := 0
	build := func(context.Context) (int, error) { builds++; return builds, nil }
	for _, step := range []struct {
		advance time.Duration
		want    int
	}{
		{0, 1},                // none yet: built
		{30 * time.Second, 1}, // fresh
		{30 * time.Second, 2}, // a minute old: stale, built again
		{-time.Hour, 3},       // the clock set back: stale
	} {
		clk.Advance(step.advance)
		if got, err := c.Get(t.Context(), build); err != nil || got != step.want {
			t.Fatalf("after %s: %d, %v; want %d", step.advance, got, err, step.want)
		}
	}
	boom := errors.New("boom")
	clk.Advance(2 * time.Minute)
	if _, err := c.Get(t.Context(), func(context.Context) (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Fatalf("failed build: %v", err)
	}
	// The failure was not kept: the next call builds.
	if got, _ := c.Get(t.Context(), build); got != 4 {
		t.Fatalf("after a failure: %d, want 4", got)
	}
	// Forget drops a fresh value.
	c.Forget()
	if got, _ := c.Get(t.Context(), build); got != 5 {
		t.Fatalf("after Forget: %d, want 5", got)
	}
}

// A burst of callers of a stale value shares one build.
func TestBurstBuildsOnce(t *testing.T) {
	t.Parallel()
	c := New[int](time.Minute, nil)
	var builds atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			v, err := c.Get(t.Context(), func(context.Context) (int, error) {
				builds.Add(1)
				<-release
				return 7, nil
			})
			if err != nil || v != 7 {
				t.Errorf("got %d, %v", v, err)
			}
		})
	}
	time.Sleep(50 * time.Millisecond) // let the callers arrive
	close(release)
	wg.Wait()
	if n := builds.Load(); n != 1 {
		t.Fatalf("%d builds for one burst, want 1", n)
	}
}

// A caller whose context ends stops waiting; the build goes on for the
// others, on a context that the leaving caller's cancellation does not end.
func TestCallerContext(t *testing.T) {
	t.Parallel()
	c := New[int](time.Minute, nil)
	release := make(chan struct{})
	buildCtx := make(chan context.Context, 1)
	build := func(ctx context.Context) (int, error) {
		buildCtx <- ctx
		<-release
		return 9, nil
	}
	ctx, cancel := context.WithCancel(t.Context())
	left := make(chan error, 1)
	go func() {
		_, err := c.Get(ctx, build)
		left <- err
	}()
	bctx := <-buildCtx
	stayed := make(chan int, 1)
	go func() {
		v, _ := c.Get(t.Context(), build)
		stayed <- v
	}()
	cancel()
	if err := <-left; !errors.Is(err, context.Canceled) {
		t.Fatalf("the canceled caller: %v, want context.Canceled", err)
	}
	if bctx.Err() != nil {
		t.Fatal("the build's context ended with the caller that started it")
	}
	close(release)
	if v := <-stayed; v != 9 {
		t.Fatalf("the caller that stayed: %d, want 9", v)
	}
}
