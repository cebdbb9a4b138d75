package store_test

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"golang.org/x/sync/errgroup"
)

// The judged relevance set: the real corpus written among decoys that share
// its words, and queries with the bundles a careful reader expects
// (testdata/relevance.tsv, plus the exact name and the owner/repo of every
// live real bundle), and misspelt names with the name a "did you mean"
// should offer (testdata/typos.tsv). TestRelevanceJudged runs it at small scale;
// BenchmarkRelevance (`make bench`) over the benchmark's N bundles.

// judgedQuery is one query of the set and the ids it should find.
type judgedQuery struct {
	kind, q  string
	relevant map[string]bool
}

// relevanceFigures are the measures of a ranking over the judged set.
type relevanceFigures struct {
	exactAt1 float64 // share of exact-name queries whose first result is relevant
	kindFigures
	kinds  []string               // the kinds of the set, in order of first query
	byKind map[string]kindFigures // the measures over each kind's queries
	failed []string
}

// kindFigures are the mean measures over some queries of the set.
type kindFigures struct {
	n       int     // queries
	mrr     float64 // mean reciprocal rank of the first relevant result in the top 10
	ndcg10  float64 // mean nDCG@10, binary gains
	recall5 float64 // mean of |relevant ∩ top 5| / min(|relevant|, 5)
}

// add sums one query's measures in; mean turns the sums into means.
func (k *kindFigures) add(q kindFigures) {
	k.n++
	k.mrr += q.mrr
	k.ndcg10 += q.ndcg10
	k.recall5 += q.recall5
}

func (k kindFigures) mean() kindFigures {
	n := float64(max(k.n, 1))
	return kindFigures{k.n, k.mrr / n, k.ndcg10 / n, k.recall5 / n}
}

// minRecall5 is the least recall@5 TestRelevanceJudged accepts of the new
// ranking, per kind of query (exact names are also held to exact-name@1 =
// 100%). Thresholds sit at or just under what the ranking reaches, so that
// the test catches a ranking that gets worse. What is still missed: of a
// CJK run found in two bundles, the one that holds it in its description
// only, among decoys of more stars that mention it too ("视频生成", cjk); of
// a hyphenated name two bundles share, one of them below more
// popular mentions; of the natural queries, "blockchain primer" (decoys
// named "... Primer" that mention blockchain hold both words, and bundles
// holding every word come first) and "rnfirebase" (a name typed as its
// initials).
var minRecall5 = map[string]float64{
	"name":     1,
	"repo":     1,
	"topic":    0.95,
	"two":      0.95,
	"plural":   1,
	"question": 1,
	"extra":    1,
	"lang":     1,
	"langname": 1,
	"hyphen":   0.97,
	"camel":    1,
	"cjk":      0.93,
	"url":      1,
	"prefix":   1,
	"natural":  0.95,
}

// decoyNameWords are the only words decoys take in their names: the
// generic words of real names, never a distinctive one, so that a decoy is
// never what a query of the set asks for.
var decoyNameWords = []string{"Knowledge", "Bundle", "Wiki", "Catalog", "Docs", "Guide", "Notes",
	"OKF", "Base", "Handbook", "Reference", "Primer", "Set", "Memo"}

// seedJudged writes the real corpus, then decoys per live real bundle
// (newer, of any popularity, naming generic words and mentioning the real
// bundle's words and two others' in their descriptions), and returns the
// judged queries, with the table analysed. Writing an index twice writes
// nothing new.
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
	// The planner's statistics, as autovacuum keeps them: search reads
	// how common each word is from them (termweight.go).
	if err := s.Analyze(ctx); err != nil {
		t.Fatal(err)
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

// judgeWorkers is how many searches judge runs at once.
const judgeWorkers = 4

// judge runs every query through search (first 10 results, judgeWorkers
// queries at a time) and measures.
func judge(t testing.TB, qs []judgedQuery, search func(q string) ([]store.Bundle, error)) relevanceFigures {
	t.Helper()
	results := make([][]store.Bundle, len(qs))
	var g errgroup.Group
	g.SetLimit(judgeWorkers)
	for i, q := range qs {
		g.Go(func() error {
			got, err := search(q.q)
			if err != nil {
				return fmt.Errorf("q %q: %w", q.q, err)
			}
			results[i] = got[:min(len(got), 10)]
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	f := relevanceFigures{byKind: map[string]kindFigures{}}
	names := 0
	for i, q := range qs {
		got := results[i]
		first, dcg, idcg, in5 := 0, 0.0, 0.0, 0
		for i, b := range got {
			if q.relevant[b.ID] {
				if first == 0 {
					first = i + 1
				}
				if i < 5 {
					in5++
				}
				dcg += 1 / math.Log2(float64(i+2))
			}
		}
		for i := range min(len(q.relevant), 10) {
			idcg += 1 / math.Log2(float64(i+2))
		}
		var m kindFigures
		if first > 0 {
			m.mrr = 1 / float64(first)
		}
		m.ndcg10 = dcg / idcg
		m.recall5 = float64(in5) / float64(min(len(q.relevant), 5))
		f.add(m)
		if _, ok := f.byKind[q.kind]; !ok {
			f.kinds = append(f.kinds, q.kind)
		}
		k := f.byKind[q.kind]
		k.add(m)
		f.byKind[q.kind] = k
		if q.kind == "name" {
			names++
			if first == 1 {
				f.exactAt1++
			}
		}
		if first != 1 {
			f.failed = append(f.failed, fmt.Sprintf("%s %q: first relevant at %d, recall@5 %.2f", q.kind, q.q, first, m.recall5))
		}
	}
	f.exactAt1 /= float64(max(names, 1))
	f.kindFigures = f.kindFigures.mean()
	for k, m := range f.byKind {
		f.byKind[k] = m.mean()
	}
	return f
}

func (f relevanceFigures) String() string {
	return fmt.Sprintf("exact-name@1 %5.1f%%  recall@5 %.3f  MRR %.3f  nDCG@10 %.3f", 100*f.exactAt1, f.recall5, f.mrr, f.ndcg10)
}

// kindTable is one line per kind of query: its count, recall@5, MRR and
// nDCG@10, each line led by indent.
func (f relevanceFigures) kindTable(indent string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%-9s %4s %9s %6s %8s\n", indent, "kind", "n", "recall@5", "MRR", "nDCG@10")
	for _, k := range f.kinds {
		m := f.byKind[k]
		fmt.Fprintf(&b, "%s%-9s %4d %9.3f %6.3f %8.3f\n", indent, k, m.n, m.recall5, m.mrr, m.ndcg10)
	}
	return b.String()
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

// judgedTypo is a misspelt name and the name or repository a "did you
// mean" should offer for it (testdata/typos.tsv).
type judgedTypo struct{ q, want string }

// judgedTypos are the lines of testdata/typos.tsv, each checked to offer a
// live bundle's name, owner/repo or repository name (the "name" and "repo"
// queries of qs), compared case-insensitively.
func judgedTypos(t testing.TB, qs []judgedQuery) []judgedTypo {
	t.Helper()
	names := map[string]bool{}
	for _, q := range qs {
		switch q.kind {
		case "name":
			names[strings.ToLower(q.q)] = true
		case "repo":
			_, repo, _ := strings.Cut(q.q, "/")
			names[strings.ToLower(q.q)] = true
			names[strings.ToLower(repo)] = true
		}
	}
	typos := queryPairs(t, "testdata/typos.tsv")
	for _, ty := range typos {
		if strings.EqualFold(ty.q, ty.want) {
			t.Fatalf("typos.tsv: %q is not a typo of the name it misspells", ty.q)
		}
		if !names[strings.ToLower(ty.want)] {
			t.Fatalf("typos.tsv: %q is no live bundle's name or repository", ty.want)
		}
	}
	return typos
}

// queryPairs are the lines of a testdata file of two tab-separated columns,
// a query and what it should find ("#" begins a comment line).
func queryPairs(t testing.TB, path string) []judgedTypo {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []judgedTypo
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col := strings.Split(line, "\t")
		if len(col) != 2 {
			t.Fatalf("%s: %q is not a query and what it finds", path, line)
		}
		out = append(out, judgedTypo{col[0], col[1]})
	}
	return out
}

// suggestHits is the share of typos whose wanted name is among Suggest's.
func suggestHits(t testing.TB, s *store.Store, typos []judgedTypo) float64 {
	t.Helper()
	hits := 0
	for _, ty := range typos {
		got, err := s.Suggest(context.Background(), ty.q, store.FoundAll)
		if err != nil {
			t.Fatalf("suggest %q: %v", ty.q, err)
		}
		if slices.ContainsFunc(got, func(g string) bool { return strings.EqualFold(g, ty.want) }) {
			hits++
		} else {
			t.Logf("suggest %q = %q, not %q", ty.q, got, ty.want)
		}
	}
	return float64(hits) / float64(max(len(typos), 1))
}

// TestRelevanceJudged: over the real corpus among 20 decoys per real
// bundle, every exact name puts its bundle first and each kind of query
// reaches its minRecall5 in the new ranking; MRR, nDCG@10 and recall@5 of
// both rankings, overall and per kind, are logged (go test -v -run
// TestRelevanceJudged), and the share of typos.tsv that Suggest answers.
func TestRelevanceJudged(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	qs := seedJudged(t, s, 20)
	typos := judgedTypos(t, qs)
	for _, name := range []string{"old", "new"} {
		f := judge(t, qs, relevanceSearches(s)[name])
		t.Logf("%s ranking over %d queries: %s\n%s", name, len(qs), f, f.kindTable("\t"))
		if name != "new" {
			continue
		}
		for _, m := range f.failed {
			t.Log(m)
		}
		if f.exactAt1 != 1 {
			t.Errorf("exact-name@1 = %.1f%%, want 100%%", 100*f.exactAt1)
		}
		for _, k := range f.kinds {
			want, ok := minRecall5[k]
			if !ok {
				t.Errorf("kind %q of relevance.tsv has no minRecall5", k)
				continue
			}
			if got := f.byKind[k].recall5; got < want {
				t.Errorf("%s: recall@5 = %.3f, want at least %.3f", k, got, want)
			}
		}
	}
	t.Logf("suggest: %.0f%% of %d typos offer the name they misspell", 100*suggestHits(t, s, typos), len(typos))
	wordTypos := queryPairs(t, "testdata/wordtypos.tsv")
	if hits := wordTypoHits(t, s, wordTypos); hits < minWordTypoHits {
		t.Errorf("word typos: %.0f%% of %d list their bundle among the first five, want at least %.0f%%",
			100*hits, len(wordTypos), 100*minWordTypoHits)
	}
}

// minWordTypoHits is the least share of testdata/wordtypos.tsv whose page
// lists the wanted bundle among its first five.
const minWordTypoHits = 0.9

// wordTypoHits is the share of typos whose page, as the API makes it, lists
// the wanted repository among its first five: each finds nothing as typed
// (a typo that finds bundles is no test of the correction), and the page
// lists what Suggest's first suggestion with words finds.
func wordTypoHits(t testing.TB, s *store.Store, typos []judgedTypo) float64 {
	t.Helper()
	hits := 0
	for _, ty := range typos {
		page, found := pageOf(t, s, ty.q)
		if found {
			t.Fatalf("wordtypos.tsv: %q finds %d bundles as typed", ty.q, len(page))
		}
		if repoRank(page, ty.want) > 0 {
			hits++
		} else {
			t.Logf("word typo %q: %s not among the first five of its correction", ty.q, ty.want)
		}
	}
	return float64(hits) / float64(max(len(typos), 1))
}

// pageOf is the first five bundles by relevance that the API's page lists
// for q (search.Service.Page): q's own, or, when none of them holds every
// word of q, those of its first suggestion (the page's corrected_q) when
// that finds any and q found none, or a bundle holds every word of it;
// found says whether q found any itself.
func pageOf(t testing.TB, s *store.Store, q string) (page []store.Bundle, found bool) {
	t.Helper()
	ctx := context.Background()
	search := func(q string) []store.Bundle {
		page, err := s.Search(ctx, store.SearchParams{Q: q, Sort: wire.SortRelevance, Limit: 5})
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		return page
	}
	page = search(q)
	if slices.ContainsFunc(page, func(b store.Bundle) bool { return !b.Partial }) {
		return page, true
	}
	which := store.FoundNone
	if len(page) > 0 {
		which = store.FoundSome
	}
	got, err := s.Suggest(ctx, q, which)
	if err != nil {
		t.Fatalf("suggest %q: %v", q, err)
	}
	if len(got) == 0 {
		return page, len(page) > 0
	}
	if corrected := search(got[0]); len(corrected) > 0 && (len(page) == 0 || !corrected[0].Partial) {
		return corrected, len(page) > 0
	}
	return page, len(page) > 0
}

// repoRank is the place in page (from 1) of the first bundle of the
// repository owner/repo, 0 when page holds none.
func repoRank(page []store.Bundle, repo string) int {
	for i, b := range page {
		if b.Card.Source.Repo != nil && strings.EqualFold(*b.Card.Source.Repo, repo) {
			return i + 1
		}
	}
	return 0
}
