package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// manyBundles returns n live repository bundles with varied names, versions,
// languages and star counts (many ties, so a sort needs its tie-break).
func manyBundles(n int) []store.BundleInput {
	langs := []string{"Go", "Python", "", "Rust"}
	out := make([]store.BundleInput, n)
	for i := range n {
		card := wire.Card{
			Name:        fmt.Sprintf("Bundle %c%04d", 'a'+rune(i%7), i),
			OKFVersion:  []string{"0.1", "0.2"}[i%2],
			Description: fmt.Sprintf("Seeded bundle number %d.", i),
			Concepts:    i % 30,
		}
		out[i] = repoBundle(fmt.Sprintf("owner%d", i%13), fmt.Sprintf("repo%d", i), "okf/index.md", card,
			signal(i%5, langs[i%4], ""))
	}
	return out
}

// walk follows next from the first page of query and returns the ids in
// order, failing on a repeated id.
func (a *testAPI) walk(query string) []string {
	a.t.Helper()
	var ids []string
	seen := map[string]bool{}
	path := "/api/bundles?" + query
	for pages := 0; ; pages++ {
		if pages > 2000 {
			a.t.Fatal("next never became null")
		}
		var p wire.Page
		a.get(path, 200, &p)
		for _, b := range p.Items {
			if seen[b.ID] {
				a.t.Fatalf("?%s: %s repeated on the page at offset %d", query, b.ID, p.Offset)
			}
			seen[b.ID] = true
			ids = append(ids, b.ID)
		}
		if p.Next == nil {
			if p.NextOffset != nil {
				a.t.Fatalf("next null but next_offset %d", *p.NextOffset)
			}
			return ids
		}
		if p.NextOffset == nil || *p.NextOffset != p.Offset+len(p.Items) {
			a.t.Fatalf("next_offset %v after offset %d with %d items", p.NextOffset, p.Offset, len(p.Items))
		}
		if !strings.HasPrefix(*p.Next, publicBase+"/api/bundles?") {
			a.t.Fatalf("next %s is not under the public base URL", *p.Next)
		}
		path = *p.Next
	}
}

func TestPaginationWalksEverything(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantFull)
	ins := manyBundles(61)
	upsert(t, a.store, ins...)
	for _, query := range []string{
		"limit=7", "limit=7&sort=name", "limit=7&sort=stars", "limit=7&sort=updated",
		"limit=100", "limit=1&version=0.2", "limit=5&language=go,python&sort=stars",
		"limit=9&q=seeded&sort=relevance", "limit=4&concepts=0,1-5,6-20&sort=name",
	} {
		ids := a.walk(query)
		// The walk gives exactly the ids of one page big enough for all.
		var all wire.Page
		a.get("/api/bundles?"+strings.Replace(query, "limit=", "x=", 1)+"&limit=100", 200, &all)
		if len(all.Items) == 0 || len(ids) != len(all.Items) {
			t.Errorf("?%s: walk gave %d bundles, one page gives %d", query, len(ids), len(all.Items))
			continue
		}
		for i, b := range all.Items {
			if ids[i] != b.ID {
				t.Errorf("?%s: walk differs from one page at %d", query, i)
				break
			}
		}
	}
	if ids := a.walk("limit=7"); len(ids) != len(ins) {
		t.Errorf("walk of everything gave %d, want %d", len(ids), len(ins))
	}
}

func TestResultCap(t *testing.T) {
	t.Parallel()
	a := newAPI(t, config.VariantBase)
	upsert(t, a.store, manyBundles(1010)...)

	if ids := a.walk("limit=100&sort=name"); len(ids) != store.MaxOffset {
		t.Errorf("walk gave %d bundles, want the %d cap", len(ids), store.MaxOffset)
	}
	cases := []struct {
		query      string
		items      int
		offset     int
		nextOffset int // -1 for null
	}{
		{"offset=0", 24, 0, 24},
		{"offset=975", 24, 975, 999},
		{"offset=976", 24, 976, -1}, // ends exactly at the cap
		{"offset=990", 10, 990, -1}, // cut at the cap
		{"offset=999&limit=100", 1, 999, -1},
		{"offset=1000", 0, 1000, -1},
		{"offset=5000", 0, 1000, -1},
		{"offset=123456789012345678901234567890", 0, 1000, -1},
	}
	for _, c := range cases {
		p := a.search(c.query)
		if len(p.Items) != c.items || p.Offset != c.offset {
			t.Errorf("?%s: %d items at offset %d, want %d at %d", c.query, len(p.Items), p.Offset, c.items, c.offset)
		}
		switch {
		case c.nextOffset < 0 && (p.NextOffset != nil || p.Next != nil):
			t.Errorf("?%s: next_offset %v next %v, want null", c.query, p.NextOffset, p.Next)
		case c.nextOffset >= 0 && (p.NextOffset == nil || *p.NextOffset != c.nextOffset || p.Next == nil):
			t.Errorf("?%s: next_offset %v, want %d", c.query, p.NextOffset, c.nextOffset)
		}
	}
}
