package server

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// Admission of index reads, one gate for each pool they read: the read
// pool (searches, statistics, the change feeds, ping and owner status,
// the pages built from them) and the lookup pool (cards). A gate lets in
// gateSlotsPerConn reads for each connection of its pool, lets a few more
// wait for a slot up to maxAdmissionWait, and refuses the rest at once
// with 503 unavailable and Retry-After.
//
// Why so few in flight: the reads are CPU-bound in Postgres, and a read
// admitted past what the pool can run waits in the pool's queue, where
// under overload it only adds latency to every answer (with 128 admitted
// and 4 connections, make load's searches waited 5 to 7 s at p99) and
// memory to the process. Why a gate per pool: the searches waiting for
// the read pool held the one bound's slots, and cards, which the lookup
// pool answers in a millisecond, were refused with them (a third of
// make load's cards at 1M).
const (
	gateSlotsPerConn = 2
	minGateSlots     = 4
	// maxAdmissionWait bounds the wait for a slot: a burst is absorbed, a
	// sustained excess is refused within it.
	maxAdmissionWait = 100 * time.Millisecond
	// gateWaitersPerSlot bounds the reads waiting for a slot (their
	// goroutines and buffers).
	gateWaitersPerSlot = 8
)

// gate bounds the reads in flight on one pool.
type gate struct {
	slots      chan struct{}
	waiting    atomic.Int32
	maxWaiting int32
}

// newGate is the gate of a pool of conns connections.
func newGate(conns int) *gate {
	n := max(minGateSlots, gateSlotsPerConn*conns)
	return &gate{slots: make(chan struct{}, n), maxWaiting: int32(gateWaitersPerSlot * n)}
}

// admit takes a slot and returns its release, waiting up to
// maxAdmissionWait for one; or the 503 unavailable of an index read
// refused.
func (g *gate) admit(ctx context.Context) (release func(), err error) {
	release = func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return release, nil
	default:
	}
	if g.waiting.Add(1) > g.maxWaiting {
		g.waiting.Add(-1)
		return nil, overloaded()
	}
	defer g.waiting.Add(-1)
	timer := time.NewTimer(maxAdmissionWait)
	defer timer.Stop()
	select {
	case g.slots <- struct{}{}:
		return release, nil
	case <-timer.C:
		return nil, overloaded()
	case <-ctx.Done():
		return nil, overloaded()
	}
}

// admission holds the gates of the read pool and the lookup pool.
type admission struct {
	reads, lookups *gate
}

// newAdmission is the admission of a store whose read and lookup pools
// have readConns and lookupConns connections.
func newAdmission(readConns, lookupConns int) *admission {
	return &admission{reads: newGate(readConns), lookups: newGate(lookupConns)}
}

// middleware admits a request of a ReadsIndex route through the read
// pool's gate; other routes pass untouched, and so do Cached ones, whose
// handlers admit their misses (package search, cache.go).
func (a *admission) middleware(routes route.ByPath) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			method := c.Request().Method
			if method == http.MethodHead {
				method = http.MethodGet
			}
			if row, ok := routes.Row(method, c.Path()); !ok || !row.ReadsIndex || row.Cached {
				return next(c)
			}
			release, err := a.reads.admit(c.Request().Context())
			if err != nil {
				return err
			}
			defer release()
			return next(c)
		}
	}
}

// overloaded is the 503 of a read refused because its pool's gate is full
// and its wait ran out; the error handler adds Retry-After, as to every
// 503.
func overloaded() error {
	return apierror.New(apierror.Unavailable,
		"The index is answering as many reads as it can at once; retry after Retry-After seconds.")
}

// defaultConns sizes the gates of a server without a store (which reads
// no index).
const defaultConns = 4
