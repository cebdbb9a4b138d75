package store_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// BenchmarkFilterSort measures every filter combined with every sort over
// the benchmark's database of OKF_BENCH_N bundles (as BenchmarkQueries
// builds it) and prints each pair's p50 and p99, the first page, uncached:
// a common and a rare value of each filter (origin, version, language,
// type, license, concepts band, repository) against recent, updated, name
// and stars without q, the same four with a word in 3% of bundles, and
// relevance of that word and of a word in 30%. OKF_BENCH_PAIR_ITERS runs
// each pair (default 40); OKF_BENCH_EXPLAIN=1 prints the plan of every
// pair whose p99 passes 50 ms.
func BenchmarkFilterSort(b *testing.B) {
	n := envInt("OKF_BENCH_N", 100000)
	iters := envInt("OKF_BENCH_PAIR_ITERS", 40)
	ctx := context.Background()
	s, err := store.Open(ctx, store.Config{URL: benchDatabase(b, n)})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var bigRepo, smallRepo, rareType string
	err = s.Pool().QueryRow(ctx, `SELECT
		(SELECT repo FROM bundles WHERE repo IS NOT NULL AND visibility = 'live'
			GROUP BY repo ORDER BY count(*) DESC, repo LIMIT 1),
		(SELECT repo FROM bundles WHERE id >= 'm' AND repo IS NOT NULL AND visibility = 'live' ORDER BY id LIMIT 1),
		(SELECT type FROM bundles WHERE type LIKE 'rare-%' AND visibility = 'live' ORDER BY id LIMIT 1)`).Scan(&bigRepo, &smallRepo, &rareType)
	if err != nil {
		b.Fatal(err)
	}
	type filter struct {
		name string
		p    store.SearchParams
	}
	filters := []filter{
		{"none", store.SearchParams{}},
		{"origin=domain", store.SearchParams{Origin: "domain"}},
		{"origin=code_host", store.SearchParams{Origin: "code_host"}},
		{"version=0.1", store.SearchParams{Versions: []string{"0.1"}}},
		{"version=1.0", store.SearchParams{Versions: []string{"1.0"}}},
		{"language=python", store.SearchParams{Languages: []string{"python"}}},
		{"language=ruby", store.SearchParams{Languages: []string{"ruby"}}},
		{"type=reference", store.SearchParams{Types: []string{"reference"}}},
		{"type=" + rareType, store.SearchParams{Types: []string{rareType}}},
		{"license=mit", store.SearchParams{Licenses: []string{"mit"}}},
		{"license=mpl-2.0", store.SearchParams{Licenses: []string{"mpl-2.0"}}},
		{"concepts=1-5", store.SearchParams{ConceptBands: []string{"1-5"}}},
		{"concepts=101+", store.SearchParams{ConceptBands: []string{"101+"}}},
		{"repo (largest)", store.SearchParams{Repo: bigRepo}},
		{"repo (random)", store.SearchParams{Repo: smallRepo}},
	}
	type sorter struct {
		name string
		set  func(p *store.SearchParams, i int)
	}
	medium := func(i int) string { return wordsMedium[i%len(wordsMedium)] }
	sorts := []sorter{}
	for _, sort := range []wire.Sort{wire.SortRecent, wire.SortUpdated, wire.SortName, wire.SortStars} {
		sorts = append(sorts, sorter{string(sort), func(p *store.SearchParams, _ int) { p.Sort = sort }})
	}
	for _, sort := range []wire.Sort{wire.SortRecent, wire.SortUpdated, wire.SortName, wire.SortStars} {
		sorts = append(sorts, sorter{string(sort) + "+q", func(p *store.SearchParams, i int) { p.Sort, p.Q = sort, medium(i) }})
	}
	sorts = append(sorts,
		sorter{"relevance", func(p *store.SearchParams, i int) { p.Sort, p.Q = wire.SortRelevance, medium(i) }},
		sorter{"relev.common", func(p *store.SearchParams, _ int) { p.Sort, p.Q = wire.SortRelevance, wordCommon }})

	explain := os.Getenv("OKF_BENCH_EXPLAIN") != ""
	p99s := make([][]float64, len(filters))
	for fi, f := range filters {
		p99s[fi] = make([]float64, len(sorts))
		for si, so := range sorts {
			params := func(i int) store.SearchParams {
				p := f.p
				so.set(&p, i)
				p.Limit = 24
				return p
			}
			name := f.name + " x " + so.name
			b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
				if _, err := s.Search(ctx, params(0)); err != nil {
					b.Fatal(err)
				}
				lat := make([]float64, 0, iters)
				for i := range iters {
					t0 := time.Now()
					if _, err := s.Search(ctx, params(i)); err != nil {
						b.Fatalf("%s: %v", name, err)
					}
					lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
				}
				slices.Sort(lat)
				p99 := lat[min(len(lat)-1, len(lat)*99/100)]
				b.ReportMetric(lat[len(lat)/2], "p50-ms")
				b.ReportMetric(p99, "p99-ms")
				p99s[fi][si] = p99
				if explain && p99 > 50 {
					plan, err := store.ExplainSearch(ctx, s, params(0))
					if err != nil {
						b.Fatal(err)
					}
					fmt.Printf("\n=== %s\n%s\n", name, plan)
				}
			})
		}
	}
	fmt.Printf("\nfilter x sort, p99 ms of the first page over %d bundles, %d runs a pair (+q: a word in 3%%; relevance: that word; relev.common: a word in 30%%)\n", n, iters)
	fmt.Printf("%-22s", "filter")
	for _, so := range sorts {
		fmt.Printf(" %12s", so.name)
	}
	fmt.Println()
	worst := 0.0
	for fi, f := range filters {
		fmt.Printf("%-22s", f.name)
		for si := range sorts {
			fmt.Printf(" %12.1f", p99s[fi][si])
			worst = max(worst, p99s[fi][si])
		}
		fmt.Println()
	}
	fmt.Printf("worst pair p99: %.1f ms\n", worst)
}
