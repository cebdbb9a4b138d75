package store

import (
	"slices"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/searchtext"
)

func TestChunkParents(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []int
	}{
		{"中药配伍禁忌", []int{-1, 0, 0, 0}},
		{"kubernetes 中药配伍禁忌 helm", []int{-1, -1, 1, 1, 1, -1}},
		{"大模型 研究", []int{-1, -1}},
		{"postgres backup", []int{-1, -1}},
	} {
		if got := chunkParents(searchtext.ParseQuery(c.q).Terms); !slices.Equal(got, c.want) {
			t.Errorf("chunkParents(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// TestTextQueryChunks: a Han phrase's chunks are in q's conjunction and
// disjunction as every term is (each statement reads every parameter), and
// the partial tier leaves one out only with its phrase.
func TestTextQueryChunks(t *testing.T) {
	var b sqlBuilder
	tq, ok := b.textQuery("中药配伍禁忌 helm", searchtext.ParseQuery("中药配伍禁忌 helm"))
	if !ok || len(tq.terms) != 5 {
		t.Fatalf("terms %q", tq.terms)
	}
	for _, term := range tq.terms {
		if !strings.Contains(tq.all, term) || !strings.Contains(tq.some, term) {
			t.Errorf("%s: not in all %s or some %s", term, tq.all, tq.some)
		}
	}
	phrase, helm := tq.terms[0], tq.terms[4]
	// The phrase left out (its chunks in), then helm left out (the phrase in).
	if len(tq.allButOne) != 2 || strings.Contains(tq.allButOne[0], phrase) || !strings.Contains(tq.allButOne[0], tq.terms[3]) ||
		!strings.Contains(tq.allButOne[1], phrase) || strings.Contains(tq.allButOne[1], helm) {
		t.Errorf("allButOne %q", tq.allButOne)
	}
}
