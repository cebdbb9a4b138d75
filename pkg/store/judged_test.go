package store_test

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

// The judged relevance set: the real corpus written among decoys that share
// its words, and queries with the bundles a careful reader expects
// (testdata/relevance.tsv, plus the exact name and the owner/repo of every
// live real bundle). TestRelevanceJudged runs it at small scale;
// BenchmarkRelevance (`make bench`) over the benchmark's N bundles.

// judgedQuery is one query of the set and the ids it should find.
type judgedQuery struct {
	kind, q  string
	relevant map[string]bool
}

// relevanceFigures are the measures of a ranking over the judged set.
type relevanceFigures struct {
	exactAt1 float64 // share of exact-name queries whose first result is relevant
	mrr      float64 // mean reciprocal rank of the first relevant result in the top 10
	ndcg10   float64 // mean nDCG@10, binary gains
	failed   []string
}

// decoyNameWords are the only words decoys take in their names: the
// generic words of real names, never a distinctive one, so that a decoy is
// never what a query of the set asks for.
var decoyNameWords = []string{"Knowledge", "Bundle", "Wiki", "Catalog", "Docs", "Guide", "Notes",
	"OKF", "Base", "Handbook", "Reference", "Primer", "Set", "Memo"}

// seedJudged writes the real corpus, then decoys per live real bundle
// (newer, of any popularity, naming generic words and mentioning the real
// bundle's words and two others' in their descriptions), and returns the
// judged queries. Writing an index twice writes nothing new.
func seedJudged(t testing.TB, s *store.Store, decoys int) []judgedQuery {
	t.Helper()
	ctx := context.Background()
	var live []store.BundleInput
	for _, in := range storetest.CorpusBundles(t) {
		res, err := s.UpsertBundle(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Visibility == wire.VisibilityLive {
			live = append(live, in)
		}
	}
	words := make([][]string, len(live))
	for i, in := range live {
		ws := judgedWords(in.Name + " " + in.Tagline)
		words[i] = ws[:min(len(ws), 12)]
	}
	rnd := rand.New(rand.NewPCG(17, 17))
	pick := func(ws []string) string { return ws[rnd.IntN(len(ws))] }
	for i := range live {
		for k := range decoys {
			n := i*decoys + k
			in := repoBundle(fmt.Sprintf("decoy%d", n%97), fmt.Sprintf("kb%d", n), "index.md")
			in.Card.Name = pick(decoyNameWords) + " " + pick(decoyNameWords)
			in.Card.Tagline = "Team notes kept as a bundle"
			in.Card.Description = "These notes mention " + strings.Join(words[i], " ") + ", and also " +
				strings.Join(words[rnd.IntN(len(live))], " ") + " and " + strings.Join(words[rnd.IntN(len(live))], " ") + "."
			in.Card.ConceptList = nil
			in.Repo.Stars = int(math.Exp(rnd.Float64()*rnd.Float64()*10)) - 1
			if _, err := s.UpsertBundle(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
	}
	return judgedQueries(t, live)
}

// judgedWords are the words of text as the search vector splits them.
func judgedWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// nameKey is okf_name_key (migration 0012) for the test's bookkeeping.
func nameKey(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("_./:-", r)
	}), " ")
}

// judgedQueries are the queries of testdata/relevance.tsv and the name and
// repo queries of the live real bundles, with relevant ids resolved.
func judgedQueries(t testing.TB, live []store.BundleInput) []judgedQuery {
	t.Helper()
	byKey := map[string][]string{} // owner/repo and owner/repo:path to ids
	byName := map[string][]string{}
	for _, in := range live {
		repo := strings.ToLower(*in.Source.Repo)
		byKey[repo] = append(byKey[repo], in.ID)
		byKey[repo+":"+in.Source.Path] = append(byKey[repo+":"+in.Source.Path], in.ID)
		byName[nameKey(in.Name)] = append(byName[nameKey(in.Name)], in.ID)
	}
	set := func(ids []string) map[string]bool {
		m := map[string]bool{}
		for _, id := range ids {
			m[id] = true
		}
		return m
	}
	var qs []judgedQuery
	seen := map[string]bool{}
	for _, in := range live {
		if k := nameKey(in.Name); !seen["name "+k] {
			seen["name "+k] = true
			qs = append(qs, judgedQuery{"name", in.Name, set(byName[k])})
		}
		if repo := strings.ToLower(*in.Source.Repo); !seen["repo "+repo] {
			seen["repo "+repo] = true
			qs = append(qs, judgedQuery{"repo", *in.Source.Repo, set(byKey[repo])})
		}
	}
	f, err := os.Open("testdata/relevance.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col := strings.Split(line, "\t")
		if len(col) != 3 {
			t.Fatalf("relevance.tsv: %q is not kind, query, relevant", line)
		}
		var ids []string
		for _, k := range strings.Split(col[2], ",") {
			if len(byKey[k]) == 0 {
				t.Fatalf("relevance.tsv: %s is no live bundle of the corpus", k)
			}
			ids = append(ids, byKey[k]...)
		}
		qs = append(qs, judgedQuery{col[0], col[1], set(ids)})
	}
	return qs
}

// judge runs every query through search (first 10 results) and measures.
func judge(t testing.TB, qs []judgedQuery, search func(q string) ([]store.Bundle, error)) relevanceFigures {
	t.Helper()
	var f relevanceFigures
	names := 0
	for _, q := range qs {
		got, err := search(q.q)
		if err != nil {
			t.Fatalf("q %q: %v", q.q, err)
		}
		got = got[:min(len(got), 10)]
		first, dcg, idcg := 0, 0.0, 0.0
		for i, b := range got {
			if q.relevant[b.ID] {
				if first == 0 {
					first = i + 1
				}
				dcg += 1 / math.Log2(float64(i+2))
			}
		}
		for i := range min(len(q.relevant), 10) {
			idcg += 1 / math.Log2(float64(i+2))
		}
		if first > 0 {
			f.mrr += 1 / float64(first)
		}
		f.ndcg10 += dcg / idcg
		if q.kind == "name" {
			names++
			if first == 1 {
				f.exactAt1++
			}
		}
		if first != 1 {
			f.failed = append(f.failed, fmt.Sprintf("%s %q: first relevant at %d", q.kind, q.q, first))
		}
	}
	f.exactAt1 /= float64(max(names, 1))
	f.mrr /= float64(len(qs))
	f.ndcg10 /= float64(len(qs))
	return f
}

func (f relevanceFigures) String() string {
	return fmt.Sprintf("exact-name@1 %5.1f%%  MRR %.3f  nDCG@10 %.3f", 100*f.exactAt1, f.mrr, f.ndcg10)
}

// relevanceSearches are the rankings judged: today's and the one before
// the exact tier and the popularity sources.
func relevanceSearches(s *store.Store) map[string]func(q string) ([]store.Bundle, error) {
	ctx := context.Background()
	return map[string]func(q string) ([]store.Bundle, error){
		"new": func(q string) ([]store.Bundle, error) {
			return s.Search(ctx, store.SearchParams{Q: q, Sort: wire.SortRelevance, Limit: 10})
		},
		"old": func(q string) ([]store.Bundle, error) {
			return store.SearchOldRelevance(ctx, s, store.SearchParams{Q: q, Sort: wire.SortRelevance, Limit: 10})
		},
	}
}

// TestRelevanceJudged: over the real corpus among 20 decoys per real
// bundle, every exact name puts its bundle first; MRR and nDCG@10 of both
// rankings are logged (go test -v -run TestRelevanceJudged).
func TestRelevanceJudged(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	qs := seedJudged(t, s, 20)
	for _, name := range []string{"old", "new"} {
		f := judge(t, qs, relevanceSearches(s)[name])
		t.Logf("%s ranking over %d queries: %s", name, len(qs), f)
		if name != "new" {
			continue
		}
		if f.exactAt1 != 1 {
			t.Errorf("exact-name@1 = %.1f%%, want 100%%", 100*f.exactAt1)
		}
		for _, m := range f.failed {
			t.Log(m)
		}
	}
}
