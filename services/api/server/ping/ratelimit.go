package ping

import (
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// clientLimiter allows each client a rate of requests with a burst, in
// memory: each API process counts its own clients, so behind a load balancer
// a client may make up to replicas times the rate. Clients whose bucket is
// full again are forgotten, so memory follows the clients of the last
// minutes, not all clients ever seen.
type clientLimiter struct {
	limit rate.Limit
	burst int
	now   func() time.Time

	mu         sync.Mutex
	clients    map[netip.Prefix]*rate.Limiter
	lastPruned time.Time
}

func newClientLimiter(perMinute int, now func() time.Time) *clientLimiter {
	return &clientLimiter{
		limit:   rate.Limit(float64(perMinute) / 60),
		burst:   perMinute,
		now:     now,
		clients: map[netip.Prefix]*rate.Limiter{},
	}
}

// allow takes one request of client from its bucket. When the bucket is
// empty it takes nothing and says how long until a request would pass.
func (l *clientLimiter) allow(client netip.Prefix) (ok bool, retryAfter time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastPruned) >= time.Minute {
		l.prune(now)
	}
	lim := l.clients[client]
	if lim == nil {
		lim = rate.NewLimiter(l.limit, l.burst)
		l.clients[client] = lim
	}
	r := lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// prune forgets the clients whose bucket has filled up again: a new
// limiter for them would start the same.
func (l *clientLimiter) prune(now time.Time) {
	for c, lim := range l.clients {
		if lim.TokensAt(now) >= float64(l.burst) {
			delete(l.clients, c)
		}
	}
	l.lastPruned = now
}

// untilNextUTCDay is the wait from now until the next UTC midnight, when
// the daily caps start again.
func untilNextUTCDay(now time.Time) time.Duration {
	now = now.UTC()
	return time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC).Sub(now)
}
