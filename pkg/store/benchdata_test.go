package store_test

import (
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/synthetic"
)

// The benchmark's synthetic bundles come from pkg/synthetic, which the load
// harness (make load) shares, so that both measure the same index.

// benchGenVersion changes whenever the generator does, so that a reused
// benchmark database is rebuilt.
const benchGenVersion = synthetic.Version

// Marker words with known document frequencies, for the query shapes.
var (
	wordCommon  = synthetic.WordCommon
	wordsMedium = synthetic.WordsMedium
	wordsRare   = synthetic.WordsRare
	wordsPairA  = synthetic.WordsPairA
	wordsPairB  = synthetic.WordsPairB
)

// benchGen makes the benchmark's rows, in order from 0.
type benchGen struct{ g *synthetic.Gen }

func newBenchGen(n int) *benchGen { return &benchGen{synthetic.New(n)} }

// row makes the i-th bundle.
func (b *benchGen) row(i int) store.BenchRow {
	r := b.g.Row(i)
	return store.BenchRow{In: r.In, Visibility: r.Visibility, IndexedAt: r.IndexedAt, UpdatedAt: r.UpdatedAt}
}
