package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Least shares of testdata/written.tsv whose bundle the page lists first
// and among its first five.
const (
	minWrittenAt1 = 0.95
	minWrittenAt5 = 0.97
)

// TestWrittenRootsFound: roots written apart from the real corpus (German,
// Japanese, Korean, Chinese, Spanish, Portuguese, Italian, Dutch and French
// bundles, camelCase and glued names, names written with symbols), among
// the corpus's bundles and their decoys, are found by what people type:
// words of other forms, questions, other languages' names, typos, prefixes,
// URLs. Each query is answered as the API's page answers it: when q finds
// nothing, the page lists what its first suggestion finds.
func TestWrittenRootsFound(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	seedJudged(t, s, 5)
	ctx := context.Background()
	dirs, err := os.ReadDir("testdata/written")
	if err != nil {
		t.Fatal(err)
	}
	pushed := wire.Timestamp{Time: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	state := source.StateActive
	for i, d := range dirs {
		owner, name, _ := strings.Cut(d.Name(), "__")
		data, err := os.ReadFile(filepath.Join("testdata/written", d.Name(), "index.md"))
		if err != nil {
			t.Fatal(err)
		}
		in, err := indexer.FromRepo(data, source.Repo{Owner: owner, Name: name, Path: "index.md"}, indexer.RepoInfo{}, time.Now())
		if err != nil {
			t.Fatalf("%s: %v", d.Name(), err)
		}
		in.Repo = &wire.RepoSignal{Stars: (i * 37) % 150, PushedAt: &pushed, State: &state}
		if res, err := s.UpsertBundle(ctx, in); err != nil || res.Visibility != wire.VisibilityLive {
			t.Fatalf("%s: %v %v", d.Name(), res.Visibility, err)
		}
	}
	if err := s.Analyze(ctx); err != nil {
		t.Fatal(err)
	}
	n, at1, at5 := 0, 0, 0
	for _, w := range queryPairs(t, "testdata/written.tsv") {
		n++
		page, _ := pageOf(t, s, w.q)
		rank := repoRank(page, w.want)
		switch {
		case rank == 1:
			at1++
			at5++
		case rank > 1:
			at5++
			t.Logf("%q: %s is %d", w.q, w.want, rank)
		default:
			t.Logf("%q: %s not among the first five", w.q, w.want)
		}
	}
	t.Logf("%d queries: first %d, among the first five %d", n, at1, at5)
	if float64(at1) < minWrittenAt1*float64(n) || float64(at5) < minWrittenAt5*float64(n) {
		t.Errorf("%d queries: first %d (want %.0f%%), among the first five %d (want %.0f%%)",
			n, at1, 100*minWrittenAt1, at5, 100*minWrittenAt5)
	}
}
