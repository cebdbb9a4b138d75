package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

// BenchmarkQueries measures every read shape of the API over N synthetic
// bundles (OKF_BENCH_N, default 100000; 1000000 works) and reports p50 and
// p99 latencies per shape, as metrics and as a table on stdout. Each shape
// runs OKF_BENCH_ITERS times (default 200) whatever b.N is. With
// OKF_BENCH_EXPLAIN=1 it prints the EXPLAIN ANALYZE of every search first.
//
// The data lives in database okf_bench_<N> on the test cluster (the server of
// OKF_TEST_DATABASE_URL, or the ephemeral cluster of the run) and is reused
// while it holds N rows of the current schema and generator.
// OKF_BENCH_DATABASE_URL names a database to use as it is instead (one
// built before and migrated by hand, to measure a change without a
// rebuild of a million rows).
func BenchmarkQueries(b *testing.B) {
	n := envInt("OKF_BENCH_N", 100000)
	iters := envInt("OKF_BENCH_ITERS", 200)
	ctx := context.Background()
	s, err := store.Open(ctx, store.Config{URL: benchDatabase(b, n)})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()

	var ids []string
	var bigRepo, smallRepo string
	rows, err := s.Pool().Query(ctx, `SELECT id FROM bundles TABLESAMPLE SYSTEM (5) WHERE visibility = 'live' LIMIT 2000`)
	if err == nil {
		ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	if err == nil {
		err = s.Pool().QueryRow(ctx, `SELECT (SELECT repo FROM bundles WHERE repo IS NOT NULL AND visibility = 'live'
			GROUP BY repo ORDER BY count(*) DESC, repo LIMIT 1),
			(SELECT repo FROM bundles WHERE id >= $1 AND repo IS NOT NULL AND visibility = 'live' ORDER BY id LIMIT 1)`, ids[len(ids)/2]).Scan(&bigRepo, &smallRepo)
	}
	if err != nil || len(ids) == 0 {
		b.Fatalf("sample: %v (%d ids)", err, len(ids))
	}
	var exactNames []string
	rows, err = s.Pool().Query(ctx, `SELECT name FROM bundles WHERE id = ANY($1)`, ids[:200])
	if err == nil {
		exactNames, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	if err != nil {
		b.Fatal(err)
	}

	typos := make([]string, len(exactNames))
	for i, name := range exactNames {
		r := []rune(name)
		typos[i] = string(slices.Delete(r, len(r)/2, len(r)/2+1))
	}

	type shape struct {
		name   string
		run    func(i int) error
		params func(i int) store.SearchParams // searches only, for OKF_BENCH_EXPLAIN
	}
	// search is a shape whose i-th run searches with params(i).
	search := func(name string, params func(i int) store.SearchParams) shape {
		ps := func(i int) store.SearchParams {
			p := params(i)
			if p.Limit == 0 {
				p.Limit = 24
			}
			return p
		}
		return shape{name, func(i int) error { _, err := s.Search(ctx, ps(i)); return err }, ps}
	}
	fixed := func(p store.SearchParams) func(int) store.SearchParams {
		return func(int) store.SearchParams { return p }
	}
	common := wordCommon
	medium := func(i int) string { return wordsMedium[i%len(wordsMedium)] }
	rare := func(i int) string { return wordsRare[i%len(wordsRare)] }
	pair := func(i int) string {
		return wordsPairA[i%len(wordsPairA)] + " " + wordsPairB[(i/len(wordsPairA))%len(wordsPairB)]
	}
	shapes := []shape{
		{"card", func(i int) error { _, err := s.GetBundle(ctx, ids[i%len(ids)]); return err }, nil},
		{"stats", func(int) error { _, err := s.Stats(ctx); return err }, nil},
		search("q rare", func(i int) store.SearchParams { return store.SearchParams{Q: rare(i)} }),
		search("q common (30%)", fixed(store.SearchParams{Q: common})),
		search("q medium (3%)", func(i int) store.SearchParams { return store.SearchParams{Q: medium(i)} }),
		search("q two words", func(i int) store.SearchParams { return store.SearchParams{Q: pair(i)} }),
	}
	for _, sort := range []wire.Sort{wire.SortRecent, wire.SortUpdated, wire.SortName, wire.SortStars} {
		shapes = append(shapes,
			search("sort "+string(sort), fixed(store.SearchParams{Sort: sort})),
			search("sort "+string(sort)+" q common", fixed(store.SearchParams{Sort: sort, Q: common})),
			search("sort "+string(sort)+" q medium", func(i int) store.SearchParams { return store.SearchParams{Sort: sort, Q: medium(i)} }))
	}
	rel := wire.SortRelevance
	// deep is the page at offset 960 of p (the default limit, 24) as the
	// API's next link reaches it: with the cursor of the page before, found
	// by following cursors from the first page. It compares with the first
	// page of the same shape.
	deep := func(p store.SearchParams) store.SearchParams {
		p.Limit = 24
		for p.Offset = 0; p.Offset < 960; p.Offset += 24 {
			page, err := s.Search(ctx, p)
			if err != nil || len(page) == 0 {
				b.Fatalf("walk %+v: %v (%d)", p, err, len(page))
			}
			p.After = page[len(page)-1].Cursor
		}
		return p
	}
	deepMedium := make([]store.SearchParams, len(wordsMedium))
	deepRelevance := make([]store.SearchParams, len(wordsMedium))
	for i := range wordsMedium {
		deepMedium[i] = deep(store.SearchParams{Q: medium(i)})
		deepRelevance[i] = deep(store.SearchParams{Q: medium(i), Sort: rel})
	}
	deepStars := deep(store.SearchParams{Sort: wire.SortStars, Q: common})
	deepName := deep(store.SearchParams{Sort: wire.SortName})
	shapes = append(shapes,
		search("next to 960 q medium", func(i int) store.SearchParams { return deepMedium[i%len(deepMedium)] }),
		search("next to 960 relevance medium", func(i int) store.SearchParams { return deepRelevance[i%len(deepRelevance)] }),
		search("next to 960 sort stars q common", fixed(deepStars)),
		search("next to 960 sort name", fixed(deepName)),
		search("relevance exact name", func(i int) store.SearchParams {
			return store.SearchParams{Sort: rel, Q: exactNames[i%len(exactNames)]}
		}),
		search("relevance q common", fixed(store.SearchParams{Sort: rel, Q: common})),
		search("relevance q medium", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: medium(i)} }),
		search("relevance q rare", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: rare(i)} }),
		search("relevance q two words", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: pair(i)} }),
		search("relevance q 'the'", fixed(store.SearchParams{Sort: rel, Q: "the"})),
		search("offset 1000 q common", fixed(store.SearchParams{Q: common, Offset: 1000, Limit: 100})),
		search("offset 1000 q medium", func(i int) store.SearchParams {
			return store.SearchParams{Q: medium(i), Offset: 1000, Limit: 100}
		}),
		search("offset 1000 relevance common", fixed(store.SearchParams{Sort: rel, Q: common, Offset: 1000, Limit: 100})),
		search("filter origin=domain", fixed(store.SearchParams{Origin: "domain"})),
		search("filter repo (largest)", fixed(store.SearchParams{Repo: bigRepo})),
		search("filter repo (random)", fixed(store.SearchParams{Repo: smallRepo})),
		search("filter version=0.2", fixed(store.SearchParams{Versions: []string{"0.2"}})),
		search("filter version=0.3,1.0", fixed(store.SearchParams{Versions: []string{"0.3", "1.0"}})),
		search("filter language=go", fixed(store.SearchParams{Languages: []string{"go"}})),
		search("filter language=ruby,rust", fixed(store.SearchParams{Languages: []string{"ruby", "rust"}})),
		search("filter concept (3% word)", func(i int) store.SearchParams { return store.SearchParams{Concept: medium(i)[:min(6, len(medium(i)))]} }),
		search("filter concept (rare word)", func(i int) store.SearchParams { return store.SearchParams{Concept: rare(i)[:min(5, len(rare(i)))]} }),
		search("filter concepts=21-100", fixed(store.SearchParams{ConceptBands: []string{"21-100"}})),
		search("filter concepts=101+", fixed(store.SearchParams{ConceptBands: []string{"101+"}})),
		search("filter type=runbook", fixed(store.SearchParams{Types: []string{"runbook"}})),
		search("filter license=apache-2.0", fixed(store.SearchParams{Licenses: []string{"apache-2.0"}})),
		search("filter license=mpl-2.0", fixed(store.SearchParams{Licenses: []string{"mpl-2.0"}})),
		search("filters + q common + stars", fixed(store.SearchParams{Q: common, Sort: wire.SortStars,
			Versions: []string{"0.1"}, Languages: []string{"python"}})),
		// What "did you mean" asks when a search finds few: a live name with
		// one letter dropped.
		shape{"suggest typo", func(i int) error { _, err := s.Suggest(ctx, typos[i%len(typos)], store.FoundAll); return err }, nil},
	)
	// What people and agents type (issue 23): questions of common words,
	// words typed partly, other word forms, CJK, pasted URLs, and words no
	// bundle holds together (the partial tier, and a sorted search's
	// fallback to any word).
	questions := []string{"how to set up kubernetes with terraform", "what is the best guide for postgres",
		"how do i write a graphql webhook", "where can i find a pandas guide",
		"how to secure oauth in serverless apps", "which guide covers data pipeline migration"}
	question := func(i int) string { return questions[i%len(questions)] }
	cut := func(n int) func(i int) string {
		return func(i int) string { w := medium(i); return w[:min(n, len(w))] }
	}
	plurals := []string{"guides", "webhooks", "pipelines", "audits", "migrations", "kubernetes clusters"}
	cjk := []string{"知识", "模型研", "设计指", "ナレッジ", "研究", "图谱"}
	// Han words written together, which also look for their two-character
	// chunks, and words spelt the British way, which also look for the
	// American spelling.
	cjkTogether := []string{"知识图谱设计指南", "大模型研究设计", "设计指南知识"}
	british := []string{"organise guides", "colour audits", "modelling pipelines", "analyse webhooks"}
	// A misspelt word beside a word bundles hold: the page asks Suggest to
	// correct the word no bundle holds.
	unheld := func(i int) string { return typos[i%len(typos)] + " " + medium(i) }
	apart := func(i int) string { return rare(i) + " " + rare(i+1) }
	shapes = append(shapes,
		search("relevance question (6 words)", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: question(i)} }),
		search("q question (6 words)", func(i int) store.SearchParams { return store.SearchParams{Q: question(i)} }),
		search("relevance prefix 2 letters", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: cut(2)(i)} }),
		search("q prefix 2 letters", func(i int) store.SearchParams { return store.SearchParams{Q: cut(2)(i)} }),
		search("relevance prefix 4 letters", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: cut(4)(i)} }),
		search("relevance plural", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: plurals[i%len(plurals)]} }),
		search("relevance cjk bigrams", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: cjk[i%len(cjk)]} }),
		search("relevance cjk words together", func(i int) store.SearchParams {
			return store.SearchParams{Sort: rel, Q: cjkTogether[i%len(cjkTogether)]}
		}),
		search("relevance british spelling", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: british[i%len(british)]} }),
		shape{"suggest unheld word", func(i int) error { _, err := s.Suggest(ctx, unheld(i), store.FoundSome); return err }, nil},
		search("relevance pasted url", fixed(store.SearchParams{Sort: rel, Q: "https://github.com/" + smallRepo + ".git"})),
		search("relevance words apart", func(i int) store.SearchParams { return store.SearchParams{Sort: rel, Q: apart(i)} }),
		search("q words apart", func(i int) store.SearchParams { return store.SearchParams{Q: apart(i)} }),
	)
	// What the web page adds to a search (pagecounts.go): the count of
	// its results and the facets of the query.
	count := func(name string, params func(i int) store.SearchParams) shape {
		return shape{"count " + name, func(i int) error { _, err := s.CountMatches(ctx, params(i)); return err }, nil}
	}
	facets := func(name string, params func(i int) store.SearchParams) shape {
		return shape{"count+facets " + name, func(i int) error { _, _, err := s.SearchFacets(ctx, params(i)); return err }, nil}
	}
	bigOwner, _, _ := strings.Cut(bigRepo, "/")
	for _, page := range []struct {
		name string
		p    func(i int) store.SearchParams
	}{
		{"everything", fixed(store.SearchParams{})},
		{"q common (30%)", fixed(store.SearchParams{Q: common})},
		{"q medium (3%)", func(i int) store.SearchParams { return store.SearchParams{Q: medium(i)} }},
		{"q rare", func(i int) store.SearchParams { return store.SearchParams{Q: rare(i)} }},
		{"q two words", func(i int) store.SearchParams { return store.SearchParams{Q: pair(i)} }},
		{"q question (6 words)", func(i int) store.SearchParams { return store.SearchParams{Q: question(i)} }},
		{"language=go", fixed(store.SearchParams{Languages: []string{"go"}})},
		{"q medium + language=python", func(i int) store.SearchParams {
			return store.SearchParams{Q: medium(i), Languages: []string{"python"}}
		}},
	} {
		shapes = append(shapes, count(page.name, page.p), facets(page.name, page.p))
	}
	shapes = append(shapes,
		shape{"owner page (largest repo's owner)", func(int) error { _, _, err := s.OwnerBundles(ctx, bigOwner); return err }, nil},
		shape{"repo page (largest repo)", func(int) error { _, _, err := s.RepoBundles(ctx, bigRepo); return err }, nil})

	type result struct {
		name     string
		p50, p99 float64
	}
	var table []result
	explain := os.Getenv("OKF_BENCH_EXPLAIN") != ""
	for _, sh := range shapes {
		if explain && sh.params != nil {
			plan, err := store.ExplainSearch(ctx, s, sh.params(0))
			if err != nil {
				b.Fatal(err)
			}
			fmt.Printf("\n=== %s\n%s\n", sh.name, plan)
		}
		b.Run(sh.name, func(b *testing.B) {
			for i := range 5 { // warm the caches and the statement cache
				if err := sh.run(i); err != nil {
					b.Fatal(err)
				}
			}
			count := max(iters, b.N)
			lat := make([]float64, 0, count)
			b.ResetTimer()
			for i := range count {
				t0 := time.Now()
				if err := sh.run(i); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
			}
			slices.Sort(lat)
			r := result{sh.name, lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]}
			b.ReportMetric(r.p50, "p50-ms")
			b.ReportMetric(r.p99, "p99-ms")
			table = append(table, r)
		})
	}
	fmt.Printf("\nquery latency over %d bundles, %d runs per shape\n", n, iters)
	fmt.Printf("%-32s %9s %9s\n", "shape", "p50 ms", "p99 ms")
	for _, r := range table {
		fmt.Printf("%-32s %9.2f %9.2f\n", r.name, r.p50, r.p99)
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// benchDatabase returns the URL of okf_bench_<n>, building it when it does
// not hold n rows of the current schema and generator.
func benchDatabase(b *testing.B, n int) string {
	if url := os.Getenv("OKF_BENCH_DATABASE_URL"); url != "" {
		return url
	}
	ctx := context.Background()
	admin := storetest.AdminURL(b)
	name := fmt.Sprintf("okf_bench_%d", n)
	dbURL := withDatabase(b, admin, name)
	want := benchFingerprint(b, n)

	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var comment *string
	err = conn.QueryRow(ctx, `SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = $1`, name).Scan(&comment)
	if err == nil && comment != nil && *comment == want {
		return dbURL
	}
	b.Logf("building %s (%d bundles)", name, n)
	start := time.Now()
	for _, sql := range []string{"DROP DATABASE IF EXISTS " + name + " WITH (FORCE)", "CREATE DATABASE " + name} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			b.Fatal(err)
		}
	}
	if err := store.Migrate(ctx, dbURL); err != nil {
		b.Fatal(err)
	}
	loadBench(b, dbURL, n)
	if _, err := conn.Exec(ctx, fmt.Sprintf("COMMENT ON DATABASE %s IS '%s'", name, want)); err != nil {
		b.Fatal(err)
	}
	b.Logf("built %s in %s", name, time.Since(start).Round(time.Second))
	return dbURL
}

// loadBench copies n generated bundles in, with the secondary indexes
// dropped during the load and built after it, then analyzes and vacuums.
func loadBench(b *testing.B, url string, n int) {
	ctx := context.Background()
	s, err := store.Open(ctx, store.Config{URL: url})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	pool := s.Pool()
	rows, err := pool.Query(ctx, `SELECT indexname, indexdef FROM pg_indexes
		WHERE tablename = 'bundles' AND indexname <> 'bundles_pkey'`)
	if err != nil {
		b.Fatal(err)
	}
	type indexDef struct{ Name, Def string }
	defs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[indexDef])
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range defs {
		if _, err := pool.Exec(ctx, "DROP INDEX "+d.Name); err != nil {
			b.Fatal(err)
		}
	}
	g := newBenchGen(n)
	const chunk = 20000
	for done := 0; done < n; done += chunk {
		batch := make([]store.BenchRow, 0, chunk)
		for i := done; i < min(done+chunk, n); i++ {
			batch = append(batch, g.row(i))
		}
		if _, err := store.CopyBenchRows(ctx, s, batch); err != nil {
			b.Fatal(err)
		}
	}
	// Two builders at a time: one per core.
	var wg sync.WaitGroup
	errs := make(chan error, len(defs))
	work := make(chan string)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for def := range work {
				if _, err := pool.Exec(ctx, def); err != nil {
					errs <- fmt.Errorf("%s: %w", def, err)
				}
			}
		}()
	}
	for _, d := range defs {
		work <- d.Def
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	// COPY bypasses the writers, which keep suggest_words: fill it as
	// migration 0019 fills it from the bundles already there.
	if err := store.FillSuggestWords(ctx, s); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) bundles, suggest_words"); err != nil {
		b.Fatal(err)
	}
}

// benchFingerprint names the schema and generator a benchmark database was
// built with.
func benchFingerprint(b *testing.B, n int) string {
	ms, err := store.Migrations()
	if err != nil {
		b.Fatal(err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "gen %d n %d load 2\n", benchGenVersion, n)
	for _, m := range ms {
		h.Write([]byte(m.SQL))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func withDatabase(b *testing.B, adminURL, name string) string {
	u, err := url.Parse(adminURL)
	if err != nil {
		b.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// BenchmarkRelevance writes the judged relevance set (judged_test.go: the
// real corpus and 100 decoys per real bundle) into the benchmark's database
// of OKF_BENCH_N bundles and prints exact-name@1, recall@5, MRR and nDCG@10
// of the old and the new ranking, overall and per kind of query, and the
// share of typos that Suggest answers.
func BenchmarkRelevance(b *testing.B) {
	n := envInt("OKF_BENCH_N", 100000)
	s, err := store.Open(context.Background(), store.Config{URL: benchDatabase(b, n)})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	qs := seedJudged(b, s, 100)
	typos := judgedTypos(b, qs)
	fmt.Printf("\nrelevance over %d bundles, %d judged queries\n", n, len(qs))
	for _, name := range []string{"old", "new"} {
		f := judge(b, qs, relevanceSearches(s)[name])
		fmt.Printf("%-4s %s\n%s", name, f, f.kindTable("     "))
		b.ReportMetric(f.exactAt1, name+"-exact@1")
		b.ReportMetric(f.recall5, name+"-recall@5")
		b.ReportMetric(f.mrr, name+"-MRR")
		b.ReportMetric(f.ndcg10, name+"-nDCG@10")
	}
	fmt.Printf("suggest: %.0f%% of %d typos offer the name they misspell\n", 100*suggestHits(b, s, typos), len(typos))
}

// BenchmarkUpsert measures UpsertBundle on a fresh database: new bundles,
// unchanged re-sweeps (no write), and content changes, OKF_BENCH_ITERS each.
func BenchmarkUpsert(b *testing.B) {
	iters := envInt("OKF_BENCH_ITERS", 200)
	ctx := context.Background()
	s := storetest.NewStore(b)
	g := newBenchGen(iters)
	inputs := make([]store.BundleInput, iters)
	for i := range inputs {
		inputs[i] = g.row(i).In
	}
	fmt.Printf("\nupsert latency, %d bundles per kind\n%-32s %9s %9s\n", iters, "kind", "p50 ms", "p99 ms")
	for _, kind := range []string{"new", "unchanged", "changed"} {
		b.Run(kind, func(b *testing.B) {
			lat := make([]float64, 0, iters)
			for i, in := range inputs {
				if kind == "changed" {
					in.Card.Tagline = fmt.Sprint("edit ", i)
				}
				t0 := time.Now()
				if _, err := s.UpsertBundle(ctx, in); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
			}
			slices.Sort(lat)
			p50, p99 := lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
			b.ReportMetric(p50, "p50-ms")
			b.ReportMetric(p99, "p99-ms")
			fmt.Printf("%-32s %9.2f %9.2f\n", kind, p50, p99)
		})
	}
}
