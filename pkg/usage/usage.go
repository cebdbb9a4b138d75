// Package usage counts how the public surfaces are used, by UTC day: site
// visits, page views, API calls (by people, AI agents and other machines),
// discovery documents and MCP requests. A count is an add to an in-memory
// table; Run flushes the table to Postgres every interval in one statement
// (store.AddUsage), so counting never costs a row per request and holds
// under any load. Replicas each flush their own increments, which add up.
//
// Every increment is counted exactly once. A flush carries an id; one whose
// outcome is unknown (a timeout or a dropped connection, perhaps after the
// commit) is retried with the same id, which the store applies at most
// once. A failed flush keeps its batch for the next one, so a database that
// is down, restarting or read-only (a full disk) delays the counts but loses
// none. What a process has not flushed when it dies (at most one interval)
// is lost.
package usage

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
)

// Metric names, as stored in usage_daily (contract 4.4 names okf_visit).
const (
	Visit      = "okf_visit"       // POST /api/visit from a page
	Page       = "okf_page"        // the web page
	Doc        = "okf_doc"         // discovery documents: llms.txt, /okf/*, /.well-known/*, OpenAPI, agent card
	API        = "okf_api"         // every API call
	APIAI      = "okf_api_ai"      // API calls from AI agents
	APIMachine = "okf_api_machine" // API calls from other programs (scripts, crawlers, SDKs)
	MCP        = "okf_mcp"         // MCP requests
	MCPTool    = "okf_mcp_tool"    // MCP tool calls

	// Requests and Requests5xx count the answered requests of the counted
	// surfaces (API, pages, documents, MCP; any status, test traffic
	// aside), and those answered with a 5xx: the projection's reliability.
	Requests    = "okf_requests"
	Requests5xx = "okf_requests_5xx"
	// Visitor is a closed day's distinct visitors (visitors.go).
	Visitor = store.VisitorMetric
	// PaymentView counts openings of the credit page's payment view
	// (POST /api/pagamento/aberto accepted): events, not people.
	PaymentView = "okf_payment_view"
)

// DefaultInterval is how often Run flushes.
const DefaultInterval = time.Second

// Counter is the in-memory table of one process. It is safe for
// concurrent use.
type Counter struct {
	store *store.Store
	log   *slog.Logger
	now   func() time.Time

	mu      sync.Mutex
	pending map[key]int64
	unsent  []*batch // flushes not known to be applied, oldest first

	visitors map[visitor]struct{} // visitors.go: pending distinct visitors
	salts    map[string][]byte    // visitor salts of the last days, by day
}

type key struct {
	day    string // YYYY-MM-DD, UTC
	metric string
}

// batch is one flush: an id and the increments it adds.
type batch struct {
	id     string
	counts map[key]int64
	tried  bool // sent at least once; its outcome may be unknown, so it is never merged
}

// flushTimeout bounds one flush, apart from the caller's cancellation: a
// flush under way is not cut off halfway by shutdown.
const flushTimeout = 10 * time.Second

// New returns a counter that flushes to st. now is the clock (time.Now
// when nil). With a nil st the counts are dropped at each flush (an API
// built without a database, in tests of its HTTP layer alone).
func New(st *store.Store, log *slog.Logger, now func() time.Time) *Counter {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Counter{store: st, log: log, now: now, pending: map[key]int64{},
		visitors: map[visitor]struct{}{}, salts: map[string][]byte{}}
}

// Add counts n uses of metric today.
func (c *Counter) Add(metric string, n int64) {
	k := key{c.now().UTC().Format(time.DateOnly), metric}
	c.mu.Lock()
	c.pending[k] += n
	c.mu.Unlock()
}

// Flush writes the pending counts, after any earlier flush not known to be
// applied. It stops at the first failure; what it could not write stays
// for the next flush.
func (c *Counter) Flush(ctx context.Context) error {
	c.mu.Lock()
	if len(c.pending) > 0 {
		if n := len(c.unsent); n > 0 && !c.unsent[n-1].tried {
			for k, v := range c.pending { // never sent: safe to grow
				c.unsent[n-1].counts[k] += v
			}
		} else {
			c.unsent = append(c.unsent, &batch{id: newFlushID(), counts: c.pending})
		}
		c.pending = map[key]int64{}
	}
	batches := c.unsent
	c.unsent = nil
	c.mu.Unlock()
	counted := len(batches) > 0

	for i, b := range batches {
		if c.store == nil {
			continue
		}
		b.tried = true
		if err := c.store.AddUsage(ctx, b.id, b.deltas()); err != nil {
			c.mu.Lock()
			c.unsent = append(batches[i:], c.unsent...)
			c.mu.Unlock()
			return err
		}
	}
	return c.flushVisitors(ctx, counted)
}

// deltas are the batch's increments for the store.
func (b *batch) deltas() []store.UsageDelta {
	out := make([]store.UsageDelta, 0, len(b.counts))
	for k, n := range b.counts {
		day, _ := time.Parse(time.DateOnly, k.day)
		out = append(out, store.UsageDelta{Day: day, Metric: k.metric, N: n})
	}
	return out
}

// Run flushes every interval until ctx ends, then flushes once more. Each
// flush has its own deadline and is not cut off by ctx.
func (c *Counter) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	flush := func() error {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), flushTimeout)
		defer cancel()
		return c.Flush(fctx)
	}
	for {
		select {
		case <-t.C:
			if err := flush(); err != nil {
				c.log.Warn("usage flush failed; the counts stay pending", flushFailure(err)...)
			}
		case <-ctx.Done():
			if err := flush(); err != nil {
				c.log.Error("usage: final flush failed; counts lost", flushFailure(err)...)
			}
			return
		}
	}
}

// flushFailure are the log attributes of a failed flush: the error, and
// for an unavailable database (down, restarting, read-only) the dependency
// and the class of its failure.
func flushFailure(err error) []any {
	attrs := []any{"error", err.Error()}
	if cause := store.UnavailableCause(err); cause != "" {
		attrs = append(attrs, "dependency", "postgres", "cause", cause)
	}
	return attrs
}

// newFlushID is a random (version 4) UUID.
func newFlushID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
