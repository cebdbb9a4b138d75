package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/okfindex/okf-index/pkg/synthetic"
)

// route is one kind of request of the mix, sent at its own fixed rate.
type route struct {
	stats *routeStats
	rate  float64
	// request builds the k-th request and names the client that sends it.
	request func(k int) (*http.Client, *http.Request)
	// want is the status of a success; check, when set, reads the body of
	// one and says what is wrong with it ("" when nothing).
	want  int
	check func(body []byte) string
}

// routeStats are the figures of one route in one run. Counters and the
// histogram are safe for concurrent use.
type routeStats struct {
	name   string
	search bool // a search shape: counted in the search total and the baseline
	rate   float64
	sent   atomic.Int64
	ok     atomic.Int64
	hist   histogram // every answered request, from its due time

	mu     sync.Mutex
	errors map[string]int64 // status code (and error name), or "net" (no answer), "shed" (client at its in-flight cap), "body"
}

func newRouteStats(name string, search bool, rate float64) *routeStats {
	return &routeStats{name: name, search: search, rate: rate, errors: map[string]int64{}}
}

func (s *routeStats) fail(kind string) {
	s.mu.Lock()
	s.errors[kind]++
	s.mu.Unlock()
}

// errorCount is the number of failed requests.
func (s *routeStats) errorCount() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for _, c := range s.errors {
		n += c
	}
	return n
}

// workload is what the requests are made of: ids and names of the index,
// the next links of deep pages, MCP sessions.
type workload struct {
	base   string // http://127.0.0.1:port of the API
	ids    []string
	names  []string
	deep   []string // next links of relevance pages at offset 960
	mcp    []*mcpSession
	run    string // tells this run's ping hosts from earlier runs'
	client *http.Client
}

// rates are the arrival rates of a run, requests a second.
type rates struct {
	Search, Card, Stats, Ping, MCP float64
}

// searchShapes are the search shapes of the mix and of the baseline, in
// report order; the search rate is split evenly between them. "offset 976"
// is the deepest page a client paging by offset reaches: the list ends at
// 1000 results, so offset=1000 answers an empty page without a query.
var searchShapes = []string{"recent", "exact name", "two words", "common word", "next to 960", "offset 976"}

// lastOffset is the offset of the last page of 24 before the 1000 cap.
const lastOffset = 976

// routes builds the mix: each search shape at Search/len(searchShapes) a
// second, and cards, statistics, pings and MCP calls at their own rates.
func (w *workload) routes(r rates) []*route {
	shapeRate := r.Search / float64(len(searchShapes))
	shape := func(name string, link func(k int) string) *route {
		return &route{stats: newRouteStats("search "+name, true, shapeRate), rate: shapeRate, want: http.StatusOK,
			request: func(k int) (*http.Client, *http.Request) { return w.client, mustRequest("GET", link(k), nil) }}
	}
	relevance := func(q string, extra ...string) string {
		v := url.Values{"q": {q}, "sort": {"relevance"}}
		for i := 0; i+1 < len(extra); i += 2 {
			v.Set(extra[i], extra[i+1])
		}
		return w.base + "/api/bundles?" + v.Encode()
	}
	routes := []*route{
		shape("recent", func(int) string { return w.base + "/api/bundles?sort=recent" }),
		shape("exact name", func(k int) string { return relevance(w.names[k%len(w.names)]) }),
		shape("two words", func(k int) string { return relevance(pairWords(k)) }),
		shape("common word", func(int) string { return relevance(synthetic.WordCommon) }),
		shape("next to 960", func(k int) string { return w.deep[k%len(w.deep)] }),
		shape("offset 976", func(k int) string { return relevance(mediumWord(k), "offset", strconv.Itoa(lastOffset)) }),
		{stats: newRouteStats("card", false, r.Card), rate: r.Card, want: http.StatusOK,
			request: func(k int) (*http.Client, *http.Request) {
				return w.client, mustRequest("GET", w.base+"/api/bundles/"+url.PathEscape(w.ids[k%len(w.ids)]), nil)
			}},
		{stats: newRouteStats("stats", false, r.Stats), rate: r.Stats, want: http.StatusOK,
			request: func(int) (*http.Client, *http.Request) { return w.client, mustRequest("GET", w.base+"/api/stats", nil) }},
		{stats: newRouteStats("ping", false, r.Ping), rate: r.Ping, want: http.StatusAccepted,
			request: func(k int) (*http.Client, *http.Request) {
				// A host of its own for each ping: the daily cap (200 URLs
				// a host) never answers, so every ping takes the write path.
				host := fmt.Sprintf("h%d.%s.load.example.org", k, w.run)
				body := fmt.Sprintf(`{"host":%q,"key":"okf-load-key-0123","urlList":["https://%s/okf/index.md"]}`, host, host)
				req := mustRequest("POST", w.base+"/api/ping", []byte(body))
				req.Header.Set("Content-Type", "application/json")
				return w.client, req
			}},
	}
	if len(w.mcp) > 0 {
		routes = append(routes, &route{stats: newRouteStats("mcp search_bundles", false, r.MCP), rate: r.MCP,
			want: http.StatusOK, check: checkToolResult,
			request: func(k int) (*http.Client, *http.Request) {
				s := w.mcp[k%len(w.mcp)]
				return s.client, s.toolCall(k, "search_bundles", map[string]any{"q": mediumWord(k), "limit": 24})
			}})
	}
	return routes
}

// failure names an unexpected answer by its status and, when the body is
// the API's JSON error, its error name: "503/unavailable".
func failure(status int, body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" && len(e.Error) <= 40 {
		return strconv.Itoa(status) + "/" + e.Error
	}
	return strconv.Itoa(status)
}

func mediumWord(k int) string { return synthetic.WordsMedium[k%len(synthetic.WordsMedium)] }

// pairWords are two words each common, found together in ~0.5% of bundles.
func pairWords(k int) string {
	a, b := synthetic.WordsPairA, synthetic.WordsPairB
	return a[k%len(a)] + " " + b[(k/len(a))%len(b)]
}

func mustRequest(method, u string, body []byte) *http.Request {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		panic(err) // the URLs are ours
	}
	// Asked for by name, gzip is not inflated by the transport: the
	// harness measures the API, and inflating answers is each client's
	// work on its own machine, not the API's (on this one it took a fifth
	// of the harness's CPU).
	req.Header.Set("Accept-Encoding", "gzip")
	return req
}

// maxInFlight bounds the requests the harness has open at once: past it a
// due request is not sent but counted as "shed", so that a server that
// stops answering cannot make the harness hold unbounded goroutines.
const maxInFlight = 4096

// requestTimeout bounds one request; a request that takes longer counts
// as "net".
const requestTimeout = 10 * time.Second

// drive sends every route's requests at its rate for d (open loop: see
// schedule), then waits for the answers still due. Figures go to each
// route's stats.
func drive(ctx context.Context, routes []*route, d time.Duration) {
	start := time.Now().Add(20 * time.Millisecond)
	inFlight := make(chan struct{}, maxInFlight)
	var sent, senders sync.WaitGroup
	for _, rt := range routes {
		senders.Add(1)
		go func() {
			defer senders.Done()
			newSchedule(start, rt.rate, d).run(ctx, func(k int, due time.Time) {
				rt.stats.sent.Add(1)
				select {
				case inFlight <- struct{}{}:
				default:
					rt.stats.fail("shed")
					return
				}
				sent.Add(1)
				go func() {
					defer func() { <-inFlight; sent.Done() }()
					send(ctx, rt, k, due)
				}()
			})
		}()
	}
	senders.Wait()
	sent.Wait()
}

// send makes request k of rt and records its latency from due.
func send(ctx context.Context, rt *route, k int, due time.Time) {
	client, req := rt.request(k)
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		rt.stats.fail("net")
		return
	}
	// An expected answer that needs no check is read to its end and
	// dropped: keeping it would cost the harness, which shares the
	// machine with the API, an allocation of the whole body a request.
	var body []byte
	if resp.StatusCode == rt.want && rt.check == nil {
		_, err = io.Copy(io.Discard, resp.Body)
	} else {
		body, err = io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	}
	resp.Body.Close()
	rt.stats.hist.Record(time.Since(due))
	switch {
	case err != nil:
		rt.stats.fail("net")
	case resp.StatusCode != rt.want:
		rt.stats.fail(failure(resp.StatusCode, body))
	case rt.check != nil && rt.check(body) != "":
		rt.stats.fail("body")
	default:
		rt.stats.ok.Add(1)
	}
}
