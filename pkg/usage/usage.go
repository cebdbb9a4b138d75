// Package usage counts how the public surfaces are used, by UTC day: site
// visits, page views, API calls (by people, AI agents and other machines),
// discovery documents and MCP requests. A count is an add to an in-memory
// table; Run flushes the table to Postgres every interval in one statement
// (store.AddUsage), so counting never costs a row per request and holds
// under any load. Replicas each flush their own increments, which add up.
// A flush that fails keeps its increments for the next one; what a process
// has not flushed when it dies (at most one interval) is lost.
package usage

import (
	"context"
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
}

type key struct {
	day    string // YYYY-MM-DD, UTC
	metric string
}

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
	return &Counter{store: st, log: log, now: now, pending: map[key]int64{}}
}

// Add counts n uses of metric today.
func (c *Counter) Add(metric string, n int64) {
	k := key{c.now().UTC().Format(time.DateOnly), metric}
	c.mu.Lock()
	c.pending[k] += n
	c.mu.Unlock()
}

// Flush writes the pending counts. On failure they stay pending, added to
// whatever comes in meanwhile.
func (c *Counter) Flush(ctx context.Context) error {
	c.mu.Lock()
	taken := c.pending
	c.pending = map[key]int64{}
	c.mu.Unlock()
	if len(taken) == 0 || c.store == nil {
		return nil
	}
	deltas := make([]store.UsageDelta, 0, len(taken))
	for k, n := range taken {
		day, _ := time.Parse(time.DateOnly, k.day)
		deltas = append(deltas, store.UsageDelta{Day: day, Metric: k.metric, N: n})
	}
	if err := c.store.AddUsage(ctx, deltas); err != nil {
		c.mu.Lock()
		for k, n := range taken {
			c.pending[k] += n
		}
		c.mu.Unlock()
		return err
	}
	return nil
}

// Run flushes every interval until ctx ends, then flushes once more with a
// short deadline of its own.
func (c *Counter) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := c.Flush(ctx); err != nil && ctx.Err() == nil {
				c.log.Warn("usage flush failed; the counts stay pending", "error", err.Error())
			}
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := c.Flush(fctx); err != nil {
				c.log.Error("usage: final flush failed; counts lost", "error", err.Error())
			}
			cancel()
			return
		}
	}
}
