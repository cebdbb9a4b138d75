package synthetic_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/synthetic"
	"github.com/okfindex/okf-index/pkg/wire"
)

// The same count yields the same rows (the benchmark and the load harness
// rebuild nothing they can reuse); ids are unique; the marker words come
// at about their stated frequencies.
func TestRows(t *testing.T) {
	const n = 2000
	a, b := synthetic.New(n), synthetic.New(n)
	ids := map[string]bool{}
	var common, medium, low int
	for i := range n {
		r := a.Row(i)
		if !reflect.DeepEqual(r, b.Row(i)) {
			t.Fatalf("row %d differs between two generators of %d", i, n)
		}
		if ids[r.In.ID] {
			t.Fatalf("row %d: id %s again", i, r.In.ID)
		}
		ids[r.In.ID] = true
		if r.In.ID == "" || r.In.RootSHA256 == "" || r.In.Card.Name == "" || len(r.In.Card.Description) > 1000 {
			t.Fatalf("row %d: %+v", i, r.In)
		}
		if strings.Contains(r.In.Card.Description, " "+synthetic.WordCommon+" ") {
			common++
		}
		if strings.Contains(r.In.Card.Description, " "+synthetic.WordsMedium[0]+" ") {
			medium++
		}
		if r.Visibility == wire.VisibilityLow {
			low++
		}
	}
	for _, c := range []struct {
		what     string
		got      int
		low, top float64
	}{
		{"common word", common, 0.25, 0.35},
		{"medium word", medium, 0.015, 0.045},
		{"low bundles", low, 0.01, 0.15},
	} {
		if f := float64(c.got) / n; f < c.low || f > c.top {
			t.Errorf("%s in %.3f of rows, want %.3f to %.3f", c.what, f, c.low, c.top)
		}
	}
	if other := synthetic.New(n + 1).Row(0); reflect.DeepEqual(other, synthetic.New(n).Row(0)) {
		t.Error("another count yields the same first row")
	}
}
