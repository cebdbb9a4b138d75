package server

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/okfindex/okf-index/pkg/pagecache"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Bounds of what an API process keeps (pkg/pagecache): 24 MiB in all, so
// that with the garbage collector's headroom (the heap grows to twice what
// is live before a collection) the process stays near 100 MB. A page of 24
// cards is 50 to 80 KB, so some 200 to 300 pages, the hot queries of an
// index (the load harness's mix asks about 250 distinct pages); a card is
// 1 to 4 KB, so some 3,000 cards.
const (
	pageCacheBytes = 16 << 20
	cardCacheBytes = 8 << 20
)

// encodedPage is a search page as GET /api/bundles answers it, or a card
// as GET /api/bundles/{id} answers it in JSON: its body and validators,
// computed once for every request that reads it.
type encodedPage struct {
	body []byte // ends with a newline, as marshal writes
	v    validators
}

// answerCaches are the caches of search pages and cards of st, sharing
// one tracker of the index's freshness.
type answerCaches struct {
	tracker *pagecache.Tracker
	pages   *pagecache.Cache[encodedPage]
	cards   *pagecache.Cache[encodedPage]
}

func newAnswerCaches(st *store.Store) *answerCaches {
	t := pagecache.NewTracker(st.BundlesWritten, nil)
	return &answerCaches{tracker: t,
		pages: pagecache.New[encodedPage](t, pageCacheBytes),
		cards: pagecache.New[encodedPage](t, cardCacheBytes)}
}

// cached is the answer under key of c (nil: none), computed by compute on
// a miss and then kept.
func cached(ctx context.Context, c *pagecache.Cache[encodedPage], key string, compute func() (any, time.Time, error)) (encodedPage, error) {
	var ticket pagecache.Ticket
	if c != nil {
		var hit encodedPage
		var ok bool
		if hit, ticket, ok = c.Get(ctx, key); ok {
			return hit, nil
		}
	}
	v, lastModified, err := compute()
	if err != nil {
		return encodedPage{}, err
	}
	body, err := marshal(v)
	if err != nil {
		return encodedPage{}, err
	}
	// marshal's buffer may be twice the body; what is kept is the body.
	ep := encodedPage{body: bytes.Clone(body), v: validatorsOf(body, lastModified)}
	if c != nil {
		c.Put(ticket, key, ep, len(body)+len(key))
	}
	return ep, nil
}

// searchEncoded is the encoded page of a query string of GET /api/bundles,
// from the page cache while no bundle was written since it was computed
// (an answer as fresh as the database's at the request's arrival), else
// computed by search. The REST route and the search_bundles tool answer
// with it.
func (s *Server) searchEncoded(ctx context.Context, rawQuery string) (encodedPage, error) {
	p, err := parseSearch(rawQuery, s.full)
	if err != nil {
		return encodedPage{}, err
	}
	return cached(ctx, s.caches.pages, canonicalQuery(p), func() (any, time.Time, error) {
		page, err := s.searchParsed(ctx, p)
		return page, newestUpdate(page), err
	})
}

// cardEncoded is the JSON card of id, from the card cache like
// searchEncoded's pages. An id that cannot be a bundle id is a 404 without
// a lookup.
func (s *Server) cardEncoded(ctx context.Context, id string) (encodedPage, error) {
	if !idShape.MatchString(id) {
		return encodedPage{}, notFound("No public bundle has that id.")
	}
	return cached(ctx, s.caches.cards, id, func() (any, time.Time, error) {
		card, err := s.bundle(ctx, id)
		return card, card.UpdatedAt.Time, err
	})
}

// toolAnswer is an encoded answer as an MCP tool returns it: the JSON the
// REST route answers.
func toolAnswer(ep encodedPage, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return json.RawMessage(ep.body[:len(ep.body)-1]), nil
}

// newestUpdate is a page's Last-Modified: its newest card's updated_at.
func newestUpdate(page wire.Page) time.Time {
	var newest time.Time
	for _, b := range page.Items {
		if b.UpdatedAt.After(newest) {
			newest = b.UpdatedAt.Time
		}
	}
	return newest
}

// registerMetrics exports the caches' counts on reg:
// okf_page_cache_lookups_total by cache and result (hit, miss, unchecked:
// the freshness check failed and the answer was computed), how many times
// a write emptied them, and what each holds.
func (a *answerCaches) registerMetrics(reg prometheus.Registerer) {
	for cache, c := range map[string]*pagecache.Cache[encodedPage]{"search": a.pages, "card": a.cards} {
		lookups := func(result string, f func(pagecache.Stats) uint64) {
			registerOrExisting(reg, prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name:        "okf_page_cache_lookups_total",
				Help:        "Answers asked of the page caches (search pages, cards), by result: hit, miss, or unchecked (the freshness check failed).",
				ConstLabels: prometheus.Labels{"cache": cache, "result": result},
			}, func() float64 { return float64(f(c.Stats())) }))
		}
		lookups("hit", func(s pagecache.Stats) uint64 { return s.Hits })
		lookups("miss", func(s pagecache.Stats) uint64 { return s.Misses })
		lookups("unchecked", func(s pagecache.Stats) uint64 { return s.Unchecked })
		registerOrExisting(reg, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "okf_page_cache_bytes",
			Help:        "Bytes of encoded answers held by the page caches.",
			ConstLabels: prometheus.Labels{"cache": cache},
		}, func() float64 { return float64(c.Stats().Bytes) }))
	}
	registerOrExisting(reg, prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "okf_page_cache_emptied_total",
		Help: "Freshness checks of the page caches that found bundles written, and emptied them.",
	}, func() float64 { return float64(a.tracker.Emptied()) }))
}
