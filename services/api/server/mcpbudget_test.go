package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/mcpserver"
)

// seedLargeCards writes n bundles whose cards are at the card's size cap
// (long concept names and summaries, cut by the store), all holding the
// word "bulky".
func seedLargeCards(t *testing.T, st *store.Store, n int) {
	t.Helper()
	var ins []store.BundleInput
	for i := range n {
		list := wire.ConceptList{}
		for j := range okf.MaxConceptList {
			list = append(list, wire.Concept{
				Name:    fmt.Sprintf("bulky concept %d %s", j, strings.Repeat("long name ", 200)),
				URL:     fmt.Sprintf("https://github.com/big/b%d/blob/main/c%d.md", i, j),
				Summary: strings.Repeat("a summary that goes on ", 400),
			})
		}
		card := wire.Card{Name: fmt.Sprintf("Bulky %d", i), Tagline: "bulky card " + strings.Repeat("x", 300),
			Description: strings.Repeat("bulky description ", 200), OKFVersion: "0.2", Concepts: len(list), ConceptList: list}
		ins = append(ins, repoBundle("big", fmt.Sprintf("b%d", i), "index.md", card, signal(i, "Go", "MIT")))
	}
	upsert(t, st, ins...)
	recount(t, st)
}

// mcpBatchOfSearches is a JSON-RPC batch of MaxBatch search_bundles calls,
// each for a page of 100 cards of "bulky", the n-th batch's distinct from
// the others' (so no answer comes from the page cache).
func mcpBatchOfSearches(n int) []byte {
	calls := make([]string, mcpserver.MaxBatch)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_bundles",`+
			`"arguments":{"q":"bulky","limit":100,"sort":"name","offset":%d}}}`, i+1, (n*len(calls)+i)%3)
	}
	return []byte("[" + strings.Join(calls, ",") + "]")
}

// postMCP posts body to /mcp with a client that checks nothing, and
// returns the status and the body.
func postMCP(t *testing.T, url string, body []byte) (int, []byte, error) {
	var answer bytes.Buffer
	status, err := postMCPTo(t, url, body, &answer)
	return status, answer.Bytes(), err
}

// postMCPTo posts body to /mcp and copies the answer to w.
func postMCPTo(t *testing.T, url string, body []byte, w io.Writer) (int, error) {
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url+"/mcp", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-03-26") // the last version with batches
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(w, resp.Body)
	return resp.StatusCode, err
}

// TestMCPAnswerBudget: the calls of one request answer at most
// mcpserver.MaxAnswer bytes together. A batch of searches for pages of 100
// cards at their cap answers the first calls whole and each call past the
// budget with a JSON-RPC error saying so, and the answer stays within the
// budget.
func TestMCPAnswerBudget(t *testing.T) {
	t.Parallel()
	a := newBudgetAPI(t)
	seedLargeCards(t, a.store, 100)

	status, body, err := postMCP(t, a.url, mcpBatchOfSearches(0))
	if err != nil || status != 200 {
		t.Fatalf("batch: %d %v %.300s", status, err, body)
	}
	var answers []struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &answers); err != nil || len(answers) != mcpserver.MaxBatch {
		t.Fatalf("batch answer of %d bytes: %v, %d answers", len(body), err, len(answers))
	}
	results, refused := 0, 0
	for _, ans := range answers {
		switch {
		case ans.Error != nil && ans.Error.Code == mcpserver.RPCAnswerBudget && strings.Contains(ans.Error.Message, "another request"):
			refused++
		case ans.Error == nil && len(ans.Result) > 1<<20:
			results++
		default:
			t.Errorf("call %d: error %+v, result of %d bytes", ans.ID, ans.Error, len(ans.Result))
		}
	}
	if results == 0 || refused == 0 {
		t.Errorf("%d results and %d calls past the budget; want both", results, refused)
	}
	if len(body) > mcpserver.MaxAnswer+64<<10 {
		t.Errorf("the batch answered %d bytes; the budget is %d", len(body), mcpserver.MaxAnswer)
	}
	t.Logf("a batch of %d searches of 100 large cards: %d answered (%d bytes in all), %d past the budget",
		mcpserver.MaxBatch, results, len(body), refused)
}

// TestMCPBatchAttackMemory sends the batch attack (batches of searches for
// pages of 100 cards at their cap, several at once) and measures the
// process's memory while the API answers them: it stays under 150 MB.
// It does not run in parallel with other tests, whose memory would count.
func TestMCPBatchAttackMemory(t *testing.T) {
	a := newBudgetAPI(t)
	seedLargeCards(t, a.store, 100)
	debug.FreeOSMemory() // what seeding left is not the attack's

	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(samples)
	t.Logf("before: %d MB, live heap %d MB", (samples[0].Value.Uint64()-samples[1].Value.Uint64())>>20, samples[2].Value.Uint64()>>20)
	var peak, peakLive atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			metrics.Read(samples)
			if used := samples[0].Value.Uint64() - samples[1].Value.Uint64(); used > peak.Load() {
				peak.Store(used)
			}
			if live := samples[2].Value.Uint64(); live > peakLive.Load() {
				peakLive.Store(live)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()

	const attackers, rounds = 8, 3
	var wg sync.WaitGroup
	var answered atomic.Int64
	for w := range attackers {
		wg.Go(func() {
			for r := range rounds {
				var n countingWriter // the attacker reads and drops the answer
				status, err := postMCPTo(t, a.url, mcpBatchOfSearches(w*rounds+r), &n)
				if err != nil || status != 200 {
					t.Errorf("attacker %d round %d: %d %v", w, r, status, err)
					return
				}
				answered.Add(int64(n))
			}
		})
	}
	wg.Wait()
	close(stop)
	<-sampled
	const limit = 150 << 20
	t.Logf("%d attackers x %d batches of %d searches: %d MB answered, process memory peak %d MB, live heap peak %d MB",
		attackers, rounds, mcpserver.MaxBatch, answered.Load()>>20, peak.Load()>>20, peakLive.Load()>>20)
	if peak.Load() > limit {
		t.Errorf("process memory peaked at %d MB under the batch attack; the bound is %d MB", peak.Load()>>20, limit>>20)
	}
}

// countingWriter counts the bytes written to it and keeps none.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// newBudgetAPI is the base API for the answer-size tests: its requests may
// take a minute, so a machine loaded by the parallel tests (and -race)
// answers their batches instead of the request timeout's 503.
func newBudgetAPI(t *testing.T) *testAPI {
	t.Helper()
	return newAPIWithOptions(t, storetest.NewStore(t), map[string]string{"PUBLIC_BASE_URL": publicBase + "/",
		"VARIANT": config.VariantBase}, Options{RequestTimeout: time.Minute})
}
