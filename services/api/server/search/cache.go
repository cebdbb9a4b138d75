package search

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/okfindex/okf-index/pkg/pagecache"
	"github.com/okfindex/okf-index/pkg/promreg"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// Bounds of what an API process keeps (pkg/pagecache), in gzipped bytes,
// 28 MiB in all: with the garbage collector's headroom (the heap grows to
// twice what is live before a collection) the caches cost the process
// about twice that. A page of 24 cards is 15 to 20 KB gzipped (70 KB of
// JSON), so some 800 pages, the hot queries of an index (the load
// harness's mix asks about 250 distinct pages, and its set-up 320 more); a
// card is about 1.4 KB, so some 8,000.
const (
	pageCacheBytes = 16 << 20
	cardCacheBytes = 12 << 20
)

// encodedPage is a search page as GET /api/bundles answers it, or a card
// as GET /api/bundles/{id} answers it in JSON: its body, gzipped, and its
// validators, computed once for every request that reads it. Clients that
// take gzip (browsers, Go's and Python's HTTP clients, agents) get the
// stored bytes; the body is a fifth of the JSON's size, which is what
// lets the caches hold an index's hot answers in 28 MiB, and a hit is
// mostly the write of its body. Others get it inflated.
type encodedPage struct {
	gz []byte // gzip of the JSON, which ends with a newline as marshal writes
	v  respond.Validators
	at time.Time // when it was computed: a cached answer is sent with its Age
}

// json is the JSON of p.
func (p encodedPage) json() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(p.gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// encode is the encodedPage of v: its JSON, gzipped at the fastest level
// (an answer is compressed once and sent many times, but a card miss must
// stay cheap), and validators of the JSON.
func encode(v any, lastModified time.Time) (encodedPage, error) {
	body, err := respond.Marshal(v)
	if err != nil {
		return encodedPage{}, err
	}
	// A gzip writer holds about half a megabyte of tables and window: at
	// most gzipSlots compress at once (the work is CPU-bound, so more in
	// parallel gains nothing), or a burst of misses would hold a writer
	// each (128 of them took 60 MB of the API's memory).
	gzipSlots <- struct{}{}
	zb, err := respond.GzipWith(&fastGzipWriters, body)
	<-gzipSlots
	if err != nil {
		return encodedPage{}, err
	}
	// The buffer may have grown past the body; what is kept is the body.
	return encodedPage{gz: bytes.Clone(zb), v: respond.ValidatorsOf(body, lastModified), at: time.Now()}, nil
}

var gzipSlots = make(chan struct{}, 4)

var fastGzipWriters = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return w }}

// writeEncoded answers 200 with p (gzipped when the client takes it) and
// its validators and cache, or 304 when the request's conditions match
// them.
func writeEncoded(c echo.Context, p encodedPage, cache string) error {
	c.Response().Header().Add("Vary", "Accept-Encoding")
	if age := time.Since(p.at); !p.at.IsZero() && age >= time.Second {
		c.Response().Header().Set("Age", strconv.Itoa(int(age.Seconds())))
	}
	if !respond.AcceptsGzip(c.Request().Header.Get("Accept-Encoding")) {
		body, err := p.json()
		if err != nil {
			return err
		}
		return respond.Validated(c, echo.MIMEApplicationJSON, body, p.v, cache)
	}
	if !p.v.NotModified(c.Request()) {
		c.Response().Header().Set("Content-Encoding", "gzip")
	}
	return respond.Validated(c, echo.MIMEApplicationJSON, p.gz, p.v, cache)
}

// answerCaches are the caches of search pages and cards of st, sharing
// one tracker of the index's freshness. A write of a bundle drops its card
// only; a search page written over is served until pageStaleness
// (config.SearchStaleness) after it was computed, with its Age, then
// computed again; 0 drops it at once.
type answerCaches struct {
	tracker *pagecache.Tracker
	pages   *pagecache.Cache[encodedPage]
	cards   *pagecache.Cache[encodedPage]
}

func newAnswerCaches(written pagecache.CheckFunc, pageStaleness time.Duration) *answerCaches {
	t := pagecache.NewTracker(written, nil)
	return &answerCaches{tracker: t,
		pages: pagecache.New[encodedPage](t, pageCacheBytes, pagecache.StaleFor(pageStaleness)),
		cards: pagecache.New[encodedPage](t, cardCacheBytes, pagecache.ByKey())}
}

// pageCache and cardCache are the caches, nil for a server without a
// store (which answers from none).
func (a *answerCaches) pageCache() *pagecache.Cache[encodedPage] {
	if a == nil {
		return nil
	}
	return a.pages
}

func (a *answerCaches) cardCache() *pagecache.Cache[encodedPage] {
	if a == nil {
		return nil
	}
	return a.cards
}

// cached is the answer under key of c (nil: none), computed by compute on
// a miss and then kept; concurrent misses of one key share one computation
// (pagecache.Cache.Load). A miss reads the index: it takes an admission
// slot of the pool it reads (admit: Deps.AdmitRead or AdmitLookup) first,
// as the middleware does for the other index reads; the REST routes and
// the MCP tools alike.
func (s *Service) cached(ctx context.Context, c *pagecache.Cache[encodedPage], key string, admit func(context.Context) (func(), error), compute func() (any, time.Time, error)) (encodedPage, error) {
	miss := func() (encodedPage, int, error) {
		release, err := admit(ctx)
		if err != nil {
			return encodedPage{}, 0, err
		}
		defer release()
		v, lastModified, err := compute()
		if err != nil {
			return encodedPage{}, 0, err
		}
		ep, err := encode(v, lastModified)
		return ep, len(ep.gz) + len(key), err
	}
	if c == nil {
		ep, _, err := miss()
		return ep, err
	}
	return c.Load(ctx, key, miss)
}

// searchEncoded is the encoded page of a query string of GET /api/bundles,
// from the page cache while no bundle was written since it was computed
// (an answer as fresh as the database's at the request's arrival) or, once
// written over, for pageStaleness after; else computed by search. The REST route and the search_bundles tool answer
// with it.
func (s *Service) searchEncoded(ctx context.Context, rawQuery string) (encodedPage, error) {
	p, err := ParseSearch(rawQuery, s.d.Full)
	if err != nil {
		return encodedPage{}, err
	}
	return s.cached(ctx, s.caches.pageCache(), CanonicalQuery(p), s.d.AdmitRead, func() (any, time.Time, error) {
		page, err := s.Page(ctx, p)
		return page, newestUpdate(page), err
	})
}

// cardEncoded is the JSON card of id, from the card cache like
// searchEncoded's pages. An id that cannot be a bundle id is a 404 without
// a lookup.
func (s *Service) cardEncoded(ctx context.Context, id string) (encodedPage, error) {
	if !idShape.MatchString(id) {
		return encodedPage{}, apierror.New(apierror.NotFound, "No public bundle has that id.")
	}
	return s.cached(ctx, s.caches.cardCache(), id, s.d.AdmitLookup, func() (any, time.Time, error) {
		b, err := s.d.Store.GetBundle(ctx, id)
		card := s.Publish(b)
		return card, card.UpdatedAt.Time, err
	})
}

// toolAnswer is an encoded answer as an MCP tool returns it: the JSON the
// REST route answers.
func toolAnswer(ep encodedPage, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	body, err := ep.json()
	if err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSuffix(body, []byte("\n"))), nil
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

// RegisterMetrics exports the caches' counts on reg:
// okf_page_cache_lookups_total by cache and result (hit, miss, unchecked:
// the freshness check failed and the answer was computed), the checks made
// and how many found a write, and what each cache holds.
func (s *Service) RegisterMetrics(reg prometheus.Registerer) {
	a := s.caches
	if a == nil {
		return
	}
	for cache, c := range map[string]*pagecache.Cache[encodedPage]{"search": a.pages, "card": a.cards} {
		lookups := func(result string, f func(pagecache.Stats) uint64) {
			promreg.Register(reg, prometheus.NewCounterFunc(prometheus.CounterOpts{
				Name:        "okf_page_cache_lookups_total",
				Help:        "Answers asked of the page caches (search pages, cards), by result: hit, miss, or unchecked (the freshness check failed).",
				ConstLabels: prometheus.Labels{"cache": cache, "result": result},
			}, func() float64 { return float64(f(c.Stats())) }))
		}
		lookups("hit", func(s pagecache.Stats) uint64 { return s.Hits })
		lookups("miss", func(s pagecache.Stats) uint64 { return s.Misses })
		lookups("unchecked", func(s pagecache.Stats) uint64 { return s.Unchecked })
		promreg.Register(reg, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "okf_page_cache_bytes",
			Help:        "Bytes of encoded answers held by the page caches.",
			ConstLabels: prometheus.Labels{"cache": cache},
		}, func() float64 { return float64(c.Stats().Bytes) }))
	}
	promreg.Register(reg, prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "okf_page_cache_checks_total",
		Help: "Freshness checks of the page caches (each answers every lookup that waited for it).",
	}, func() float64 { return float64(a.tracker.Checks()) }))
	checkSeconds := promreg.Register(reg, prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "okf_page_cache_check_seconds",
		Help:    "Time a freshness check of the page caches took, from its start to its answer.",
		Buckets: []float64{.0002, .0005, .001, .002, .005, .01, .025, .05, .1, .25, 1},
	}))
	a.tracker.Observe = func(d time.Duration) { checkSeconds.Observe(d.Seconds()) }
	promreg.Register(reg, prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "okf_page_cache_emptied_total",
		Help: "Freshness checks of the page caches that found bundles written, and emptied them.",
	}, func() float64 { return float64(a.tracker.Emptied()) }))
}

// CacheStats are the counts of the search page cache and of the card
// cache (zero without caches).
func (s *Service) CacheStats() (pages, cards pagecache.Stats) {
	if s.caches == nil {
		return pagecache.Stats{}, pagecache.Stats{}
	}
	return s.caches.pages.Stats(), s.caches.cards.Stats()
}
