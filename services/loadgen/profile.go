package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/synthetic"
)

// The realistic profile (PROFILE=real, the default of make load): traffic
// that looks like the world's rather than a hot set. Searches are drawn
// Zipf (s = zipfS) from realQueries distinct queries built from the
// index's own vocabulary, in the shares of queryKinds; cards Zipf over
// every id of the index; bundle writes through the sweep's batched path
// (store.UpsertBundles) at -writes a second. Each kind of query is a route
// of its own, so the report gives each its latency; the page caches' hit
// shares and Postgres's time per statement (pg_stat_statements) say what
// the misses cost.

// realQueries is how many distinct queries the profile draws from.
const realQueries = 100000

// zipfS is the Zipf exponent of queries and cards: the k-th most asked
// query is asked about k^-1.05 as often as the first.
const zipfS = 1.05

// queryKind is one kind of search and its share of the distinct queries
// (and so, the ranks being shuffled, of the traffic).
type queryKind struct {
	name  string
	share float64
}

// queryKinds are the kinds of the profile, their shares summing to 1:
// a word; two words; a bundle's exact name; a repository as owner/repo;
// one filter of the API's with one sort, with or without a word; and a
// page deep in a list (offset 48 to 960).
var queryKinds = []queryKind{
	{"one word", 0.20},
	{"two words", 0.30},
	{"exact name", 0.09},
	{"owner/repo", 0.05},
	{"filter x sort", 0.26},
	{"deep page", 0.10},
}

// vocabulary is what the queries are made of, sampled from the index's own
// rows: words in the order of their frequency, names, repositories.
type vocabulary struct {
	words, names, repos []string
}

// sampleVocabulary reads the first rows of the generator of an index of n
// bundles (the generator is deterministic; nothing is read from the
// database).
func sampleVocabulary(n, rows int) vocabulary {
	g := synthetic.New(n)
	count := map[string]int{}
	var v vocabulary
	seenName, seenRepo := map[string]bool{}, map[string]bool{}
	for i := range min(n, rows) {
		r := g.Row(i)
		c := r.In.Card
		if name := strings.TrimSpace(c.Name); name != "" && !seenName[name] {
			seenName[name] = true
			v.names = append(v.names, name)
		}
		if c.Source.Repo != nil && !seenRepo[*c.Source.Repo] {
			seenRepo[*c.Source.Repo] = true
			v.repos = append(v.repos, *c.Source.Repo)
		}
		desc := c.Description
		if len(desc) > 300 {
			desc = desc[:300]
		}
		for _, w := range strings.Fields(strings.ToLower(c.Name + " " + c.Tagline + " " + desc)) {
			w = strings.Trim(w, ".,:;#!?()")
			if len(w) >= 3 && len(w) <= 20 && isASCIIWord(w) {
				count[w]++
			}
		}
	}
	for w := range count {
		v.words = append(v.words, w)
	}
	slices.SortFunc(v.words, func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	return v
}

func isASCIIWord(w string) bool {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// filterValues are the values of each filter the profile asks (the base
// variant's filters; the full variant's are measured by the store's
// BenchmarkFilterSort).
var filterValues = map[string][]string{
	"origin":   {"domain", "code_host"},
	"version":  {"0.1", "0.2", "0.3", "0.10", "1.0"},
	"language": {"go", "python", "typescript", "javascript", "rust", "java", "ruby", "html"},
}

var sorts = []string{"recent", "updated", "name", "stars", "relevance"}

// realQuery is one distinct query: its kind and its query string.
type realQuery struct {
	kind, raw string
}

// buildQueries makes count distinct queries from v in queryKinds' shares,
// in a seeded random order of rank (the first is the most asked).
func buildQueries(v vocabulary, count int) []realQuery {
	rnd := rand.New(rand.NewPCG(27, 1))
	// word picks a word Zipf-like over the vocabulary: common words are
	// typed more often, but every word is typed by someone.
	wz := rand.NewZipf(rnd, 1.1, 4, uint64(len(v.words)-1))
	word := func() string { return v.words[wz.Uint64()] }
	seen := map[string]bool{}
	var out []realQuery
	for _, k := range queryKinds {
		want := int(k.share * float64(count))
		for made, tries := 0, 0; made < want && tries < want*20; tries++ {
			q := url.Values{}
			switch k.name {
			case "one word":
				q.Set("q", word())
				q.Set("sort", "relevance")
			case "two words":
				q.Set("q", word()+" "+word())
				q.Set("sort", "relevance")
			case "exact name":
				q.Set("q", v.names[rnd.IntN(len(v.names))])
				q.Set("sort", "relevance")
			case "owner/repo":
				q.Set("q", v.repos[rnd.IntN(len(v.repos))])
				q.Set("sort", "relevance")
			case "filter x sort":
				filterQuery(q, rnd, v, word)
			case "deep page":
				if rnd.IntN(2) == 0 {
					q.Set("q", word())
					q.Set("sort", "relevance")
				} else {
					filterQuery(q, rnd, v, word)
				}
				q.Set("offset", strconv.Itoa(48*(1+rnd.IntN(20))))
			}
			raw := q.Encode()
			if seen[raw] {
				continue
			}
			seen[raw] = true
			out = append(out, realQuery{k.name, raw})
			made++
		}
	}
	rnd.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// filterQuery sets one filter and one sort on q, with a word half the time
// (relevance always has one).
func filterQuery(q url.Values, rnd *rand.Rand, v vocabulary, word func() string) {
	switch f := rnd.IntN(4); f {
	case 3:
		q.Set("repo", v.repos[rnd.IntN(len(v.repos))])
	default:
		name := []string{"origin", "version", "language"}[f]
		vals := filterValues[name]
		q.Set(name, vals[rnd.IntN(len(vals))])
	}
	sort := sorts[rnd.IntN(len(sorts))]
	q.Set("sort", sort)
	if sort == "relevance" || rnd.IntN(2) == 0 {
		q.Set("q", word())
	}
}

// realWorkload is what the realistic profile's requests are made of.
type realWorkload struct {
	*workload
	queries []realQuery
	byKind  map[string][]int // indexes into queries, by kind
	allIDs  []string         // every live or low id, in a seeded random order
	rank    func() int       // a Zipf rank of the queries
	idRank  func() int       // a Zipf rank of the ids
}

// newRealWorkload builds the query universe and reads the ids of the index.
func newRealWorkload(ctx context.Context, w *workload, dbURL string, n int) (*realWorkload, error) {
	v := sampleVocabulary(n, 12000)
	rw := &realWorkload{workload: w, queries: buildQueries(v, realQueries), byKind: map[string][]int{}}
	for i, q := range rw.queries {
		rw.byKind[q.kind] = append(rw.byKind[q.kind], i)
	}
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	rows, err := conn.Query(ctx, `SELECT id FROM bundles WHERE visibility <> 'hidden'`)
	if err != nil {
		return nil, err
	}
	if rw.allIDs, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return nil, err
	}
	if len(rw.allIDs) == 0 {
		return nil, fmt.Errorf("the index has no bundles")
	}
	rnd := rand.New(rand.NewPCG(27, 2))
	rnd.Shuffle(len(rw.allIDs), func(i, j int) { rw.allIDs[i], rw.allIDs[j] = rw.allIDs[j], rw.allIDs[i] })
	rw.rank = zipfRanks(len(rw.queries), 3)
	rw.idRank = zipfRanks(len(rw.allIDs), 4)
	return rw, nil
}

// zipfRanks returns a goroutine-safe draw of ranks 0..n-1, Zipf with zipfS:
// a table of draws made once (the generator is not safe for concurrent
// use), read round robin.
func zipfRanks(n int, seed uint64) func() int {
	rnd := rand.New(rand.NewPCG(27, seed))
	z := rand.NewZipf(rnd, zipfS, 1, uint64(n-1))
	draws := make([]int32, 1<<20)
	for i := range draws {
		draws[i] = int32(z.Uint64())
	}
	var next atomic.Uint64
	return func() int { return int(draws[next.Add(1)%uint64(len(draws))]) }
}

// routes are the realistic profile's: a route per kind of query at its
// share of r.Search, each request a Zipf draw of all the queries (a draw
// of another kind is redrawn among that kind's own queries by its rank),
// cards Zipf over every id, and statistics, pings and MCP as the hot mix.
func (rw *realWorkload) routes(r rates) []*route {
	var routes []*route
	for _, k := range queryKinds {
		idx := rw.byKind[k.name]
		if len(idx) == 0 {
			continue
		}
		rate := r.Search * k.share
		kindRank := zipfRanks(len(idx), uint64(10+len(routes)))
		routes = append(routes, &route{stats: newRouteStats("search "+k.name, true, rate), rate: rate, want: http.StatusOK,
			request: func(int) (*http.Client, *http.Request) {
				q := rw.queries[idx[kindRank()]]
				return rw.client, mustRequest("GET", rw.base+"/api/bundles?"+q.raw, nil)
			}})
	}
	routes = append(routes, &route{stats: newRouteStats("card", false, r.Card), rate: r.Card, want: http.StatusOK,
		request: func(int) (*http.Client, *http.Request) {
			return rw.client, mustRequest("GET", rw.base+"/api/bundles/"+url.PathEscape(rw.allIDs[rw.idRank()]), nil)
		}})
	for _, rt := range rw.workload.routes(r) {
		if !rt.stats.search && rt.stats.name != "card" {
			routes = append(routes, rt)
		}
	}
	return routes
}

// naiveOf is the naive baseline's query for a request of the profile: its
// words and offset (the naive search has no filters or sorts: a filtered
// query is asked as its words alone, or as the newest bundles).
func naiveOf(raw string) store.NaiveQuery {
	q, _ := url.ParseQuery(raw)
	off, _ := strconv.Atoi(q.Get("offset"))
	return store.NaiveQuery{Q: q.Get("q"), Offset: off}
}

// writer writes bundles through the sweep's batched path at rate a second:
// every second a batch of rate bundles of the sample (store.UpsertBundles,
// as the sweep writes a repository's roots), each with a tagline of its
// own so every write changes its row. It runs until ctx ends and returns
// how many bundles it wrote and the batches that failed.
type writer struct {
	st      *store.Store
	ins     []store.BundleInput
	rate    int
	written atomic.Int64
	failed  atomic.Int64
	seq     atomic.Int64
}

func newWriter(st *store.Store, n, rate int) *writer {
	g := synthetic.New(n)
	var ins []store.BundleInput
	for i := range min(n, 20000) {
		if r := g.Row(i); r.Visibility != "hidden" && !r.In.Low {
			ins = append(ins, r.In)
		}
	}
	return &writer{st: st, ins: ins, rate: rate}
}

func (w *writer) run(ctx context.Context) {
	if w.rate <= 0 || len(w.ins) == 0 {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	rnd := rand.New(rand.NewPCG(27, 5))
	for {
		batch := make([]store.BundleInput, 0, w.rate)
		picked := map[int]bool{}
		for len(picked) < min(w.rate, len(w.ins)) {
			i := rnd.IntN(len(w.ins))
			if picked[i] {
				continue
			}
			picked[i] = true
			in := w.ins[i]
			in.Card.Tagline = fmt.Sprintf("%s (load write %d)", in.Card.Tagline, w.seq.Add(1))
			batch = append(batch, in)
		}
		if _, err := w.st.UpsertBundles(ctx, batch); err != nil {
			if ctx.Err() != nil {
				return
			}
			w.failed.Add(1)
		} else {
			w.written.Add(int64(len(batch)))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// kindShares says the shares of queryKinds.
func kindShares() string {
	var parts []string
	for _, k := range queryKinds {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", k.name, 100*k.share))
	}
	return strings.Join(parts, ", ")
}
