package usage

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"maps"
	"net/netip"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
)

// Unique visitors (the projection's visitantes, contract 2.8). A visitor
// is a distinct pair (client address, browser family) seen on one UTC day
// by a page of the site or POST /api/visit; the address is the TCP peer or
// the trusted proxy header's, an IPv6 client by its /64. Only a keyed hash
// of the pair reaches the database: HMAC-SHA256 under the day's random
// salt, cut to 8 bytes. The salt is one row of usage_days shared by the
// replicas, and is thrown away when the worker closes the day (the day's
// count then becomes the okf_visitor counter and its hashes are deleted),
// so no address is ever stored and a closed day's hashes could not be
// linked back to one. The same person on two days, or with two browsers,
// counts twice; many people behind one address with one browser count
// once.
//
// Counting is an add to an in-memory set, flushed with the counters; the
// set holds at most maxPendingVisitors pairs between flushes (a flood past
// that is not counted rather than held).

// maxPendingVisitors bounds the visitors held between two flushes.
const maxPendingVisitors = 100_000

type visitor struct {
	day    string // YYYY-MM-DD, UTC
	client netip.Prefix
	family string
}

// AddVisitor counts client, with a browser of family, as a visitor today.
func (c *Counter) AddVisitor(client netip.Prefix, family string) {
	v := visitor{c.now().UTC().Format(time.DateOnly), client, family}
	c.mu.Lock()
	if len(c.visitors) < maxPendingVisitors {
		c.visitors[v] = struct{}{}
	}
	c.mu.Unlock()
}

// flushVisitors marks today as measured (once a day per process) when the
// flush counted anything (counted) or holds visitors, and writes the
// pending visitors as hashes under their day's salt. Visitors
// of a day already closed are dropped; on any other failure they stay
// pending.
func (c *Counter) flushVisitors(ctx context.Context, counted bool) error {
	if c.store == nil {
		c.mu.Lock()
		clear(c.visitors)
		c.mu.Unlock()
		return nil
	}
	c.mu.Lock()
	pending := c.visitors
	c.visitors = map[visitor]struct{}{}
	c.mu.Unlock()
	if counted || len(pending) > 0 {
		today := c.now().UTC().Format(time.DateOnly)
		if _, err := c.salt(ctx, today); err != nil && !errors.Is(err, store.ErrDayClosed) {
			c.mu.Lock()
			maps.Copy(c.visitors, pending)
			c.mu.Unlock()
			return err
		}
	}
	byDay := map[string][]visitor{}
	for v := range pending {
		byDay[v.day] = append(byDay[v.day], v)
	}
	var failed error
	for day, vs := range byDay {
		err := c.writeVisitors(ctx, day, vs)
		if err == nil || errors.Is(err, store.ErrDayClosed) {
			continue
		}
		failed = err
		c.mu.Lock()
		for _, v := range vs {
			if len(c.visitors) < maxPendingVisitors {
				c.visitors[v] = struct{}{}
			}
		}
		c.mu.Unlock()
	}
	return failed
}

// writeVisitors hashes one day's visitors and adds them.
func (c *Counter) writeVisitors(ctx context.Context, day string, vs []visitor) error {
	salt, err := c.salt(ctx, day)
	if err != nil {
		return err
	}
	hashes := make([][]byte, 0, len(vs))
	for _, v := range vs {
		hashes = append(hashes, VisitorHash(salt, v.client, v.family))
	}
	d, _ := time.Parse(time.DateOnly, day)
	return c.store.AddVisitors(ctx, d, hashes)
}

// salt returns the visitor salt of a day, asking the store once per day
// and process. Only the last two days are kept in memory.
func (c *Counter) salt(ctx context.Context, day string) ([]byte, error) {
	c.mu.Lock()
	s, ok := c.salts[day]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	d, _ := time.Parse(time.DateOnly, day)
	s, err := c.store.OpenUsageDay(ctx, d)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	for k := range c.salts {
		if k < d.AddDate(0, 0, -1).Format(time.DateOnly) {
			delete(c.salts, k)
		}
	}
	c.salts[day] = s
	c.mu.Unlock()
	return s, nil
}

// VisitorHash is the stored form of a visitor: HMAC-SHA256 of the client
// block and browser family under the day's salt, cut to 8 bytes (a
// collision among a day's visitors is about one in 10^10 for 100,000 of
// them).
func VisitorHash(salt []byte, client netip.Prefix, family string) []byte {
	m := hmac.New(sha256.New, salt)
	m.Write([]byte(client.String()))
	m.Write([]byte{0})
	m.Write([]byte(family))
	return m.Sum(nil)[:8]
}
