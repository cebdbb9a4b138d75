package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sync/semaphore"
)

// Answer budgets. Each result is bounded already (a card, a page of at
// most 100 cards), but MaxBatch of them are not small, and the SDK holds a
// batch's results until the last call is done, and runs its calls at
// once: a batch of searches for 100 large cards each answers tens of
// megabytes, and its memory is held before any of it is written (figures in
// docs/decisions.md). So a call runs only once its largest
// possible answer (route.Tool.AnswerBound) is held from two budgets: its
// request's (MaxAnswer, the answers of one POST /mcp together) and the
// server's (MaxAnswersInFlight, the answers of every request being served).
// What a call's result does not use is given back when it is done; the
// rest is held until its request has been answered.
const (
	// MaxAnswer bounds what one POST /mcp answers. One result of the
	// largest kind (a page of 100 cards at their cap) fits in it, twice.
	MaxAnswer = 8 << 20
	// MaxAnswersInFlight bounds the answers the MCP server holds at once,
	// over all requests. Each byte of a result is held about three times
	// before it is written (the result, the SDK's encoding, the batch's
	// array) and the collector lets the heap grow to twice what is live, so
	// this is what keeps the process within its memory bound under any
	// number of callers; a search holds its bound only while it runs.
	MaxAnswersInFlight = 8 << 20
	// SmallAnswer is the bound of a tool whose route has none: an index,
	// counts, a price list.
	SmallAnswer = 64 << 10
	// answerWait is how long a call waits for the server's budget before
	// it is answered RPCBusy.
	answerWait = 5 * time.Second
)

// The JSON-RPC errors of the budgets, from the range the specification
// leaves to servers. The call was not made; the client makes it again.
const (
	// RPCAnswerBudget: this request's answers used its budget. The call
	// goes in another request.
	RPCAnswerBudget = -32001
	// RPCBusy: the server held its whole budget for answerWait. The call
	// is retried a little later.
	RPCBusy = -32002
)

// answerBudget is what the calls of one request hold of its budget and of
// the server's.
type answerBudget struct {
	pool *semaphore.Weighted // the server's budget
	mu   sync.Mutex
	used int64 // bytes answered, and held by calls being made
	held int64 // bytes held from pool, given back when the request ends
}

type answerBudgetKey struct{}

// withAnswerBudget gives r's calls a budget of MaxAnswer bytes from pool;
// done gives back what they still hold, once the request is answered.
func withAnswerBudget(r *http.Request, pool *semaphore.Weighted) (_ *http.Request, done func()) {
	b := &answerBudget{pool: pool}
	return r.WithContext(context.WithValue(r.Context(), answerBudgetKey{}, b)), b.release
}

// budgetOf is the budget of the request ctx belongs to, or nil.
func budgetOf(ctx context.Context) *answerBudget {
	b, _ := ctx.Value(answerBudgetKey{}).(*answerBudget)
	return b
}

// hold takes n bytes from the request's budget and the server's, waiting
// at most answerWait for the server's; the error is the JSON-RPC error to
// answer instead of making the call.
func (b *answerBudget) hold(ctx context.Context, n int64) error {
	b.mu.Lock()
	if b.used+n > MaxAnswer {
		b.mu.Unlock()
		return &jsonrpc.Error{Code: RPCAnswerBudget, Message: fmt.Sprintf(
			"the answers of one request are at most %d MiB, and the calls before this one hold them: make this call in another request",
			MaxAnswer>>20)}
	}
	b.used += n
	b.mu.Unlock()
	wait, cancel := context.WithTimeout(ctx, answerWait)
	defer cancel()
	if err := b.pool.Acquire(wait, min(n, MaxAnswersInFlight)); err != nil {
		b.mu.Lock()
		b.used -= n
		b.mu.Unlock()
		return &jsonrpc.Error{Code: RPCBusy, Message: fmt.Sprintf(
			"the server is answering as much as it can at once and could not make this call within %s: make it again shortly",
			answerWait)}
	}
	b.mu.Lock()
	b.held += min(n, MaxAnswersInFlight)
	b.mu.Unlock()
	return nil
}

// settle records that a call which held n bytes answered size: what it
// did not use goes back to both budgets.
func (b *answerBudget) settle(n, size int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used += size - n
	if back := min(n-size, b.held); back > 0 {
		b.held -= back
		b.pool.Release(back)
	}
}

// release gives back what the request's calls still hold of the server's
// budget.
func (b *answerBudget) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.held > 0 {
		b.pool.Release(b.held)
		b.held = 0
	}
}

// resultSize is the bytes a result's answer carries: its text blocks and
// its structured content.
func resultSize(res *mcp.CallToolResult) int64 {
	var n int64
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			n += int64(len(t.Text))
		}
	}
	if raw, ok := res.StructuredContent.(json.RawMessage); ok {
		n += int64(len(raw))
	}
	return n
}
