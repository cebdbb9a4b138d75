package server

import (
	"context"
	"encoding/json"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/okfindex/okf-index/pkg/pagecache"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// pageCacheBytes bounds the encoded search pages an API process keeps
// (pkg/pagecache): a page of 24 cards is 50 to 80 KB, so some 300 to 500
// pages, the hot queries of an index (the load harness's mix asks about
// 250 distinct pages).
const pageCacheBytes = 24 << 20

// encodedPage is a search page as GET /api/bundles answers it: its JSON
// and validators, computed once for every request that reads it.
type encodedPage struct {
	body []byte // ends with a newline, as marshal writes
	v    validators
}

// newPageCache is the cache of encoded search pages of st.
func newPageCache(st *store.Store) *pagecache.Cache[encodedPage] {
	return pagecache.New[encodedPage](pagecache.Options{Check: st.BundlesWritten, MaxBytes: pageCacheBytes})
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
	key := canonicalQuery(p)
	var ticket pagecache.Ticket
	if s.pages != nil {
		var hit encodedPage
		var ok bool
		if hit, ticket, ok = s.pages.Get(ctx, key); ok {
			return hit, nil
		}
	}
	page, err := s.searchParsed(ctx, p)
	if err != nil {
		return encodedPage{}, err
	}
	body, err := marshal(page)
	if err != nil {
		return encodedPage{}, err
	}
	ep := encodedPage{body: body, v: validatorsOf(body, newestUpdate(page))}
	if s.pages != nil {
		s.pages.Put(ticket, key, ep, len(body)+len(key))
	}
	return ep, nil
}

// searchTool answers the search_bundles tool with the page GET
// /api/bundles answers, as JSON already encoded.
func (s *Server) searchTool(ctx context.Context, rawQuery string) (any, error) {
	ep, err := s.searchEncoded(ctx, rawQuery)
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

// registerPageCacheMetrics exports the page cache's counts on reg:
// okf_page_cache_lookups_total by result (hit, miss, unchecked: the
// freshness check failed and the page was computed), how many times a
// write emptied it, and what it holds.
func registerPageCacheMetrics(reg prometheus.Registerer, c *pagecache.Cache[encodedPage]) {
	lookups := func(result string, f func(pagecache.Stats) uint64) {
		registerOrExisting(reg, prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name:        "okf_page_cache_lookups_total",
			Help:        "Search pages asked of the page cache, by result: hit, miss, or unchecked (the freshness check failed).",
			ConstLabels: prometheus.Labels{"result": result},
		}, func() float64 { return float64(f(c.Stats())) }))
	}
	lookups("hit", func(s pagecache.Stats) uint64 { return s.Hits })
	lookups("miss", func(s pagecache.Stats) uint64 { return s.Misses })
	lookups("unchecked", func(s pagecache.Stats) uint64 { return s.Unchecked })
	registerOrExisting(reg, prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "okf_page_cache_emptied_total",
		Help: "Freshness checks of the page cache that found bundles written, and emptied it.",
	}, func() float64 { return float64(c.Stats().Emptied) }))
	registerOrExisting(reg, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "okf_page_cache_bytes",
		Help: "Bytes of encoded search pages held by the page cache.",
	}, func() float64 { return float64(c.Stats().Bytes) }))
}
