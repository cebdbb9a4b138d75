package server

import (
	"slices"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/wire"
)

// TestCorpus indexes the real corpus through the parser and the store, then
// reads it back over HTTP: every page and every card passes the contract
// transport, fixtures are kept out of search, and a few searches over real
// text find what they should.
func TestCorpus(t *testing.T) {
	t.Parallel()
	ins := corpusBundles(t)
	if len(ins) < 40 {
		t.Fatalf("only %d corpus bundles parsed", len(ins))
	}
	a := newAPI(t, config.VariantFull)
	ids := upsert(t, a.store, ins...)

	live := a.walk("limit=10")
	if len(live) == 0 || len(live) >= len(ids) {
		t.Errorf("%d live of %d indexed; fixtures and duplicates should be low", len(live), len(ids))
	}
	for i, in := range ins {
		var b wire.Card
		a.get("/api/bundles/"+ids[i], 200, &b)
		if b.Name != in.Card.Name || b.OKFVersion != in.Card.OKFVersion {
			t.Errorf("%s: card %q %q, parsed %q %q", ids[i], b.Name, b.OKFVersion, in.Card.Name, in.Card.OKFVersion)
		}
		if in.Low && slices.Contains(live, ids[i]) {
			t.Errorf("%s (%s) is a fixture but searchable", ids[i], in.Source.Path)
		}
	}

	// The duplicate root of ScaleLean/ultracart-okf-catalog is low: one of
	// the two is searchable.
	p := a.search("repo=scalelean/ultracart-okf-catalog")
	if len(p.Items) != 1 {
		t.Errorf("ultracart: %d searchable, want 1 of the 2 identical roots", len(p.Items))
	}
	// Every filter over real values answers and stays within its filter.
	for _, b := range a.search("version=0.2&limit=100").Items {
		if b.OKFVersion != "0.2" {
			t.Errorf("version=0.2 gave %s", b.OKFVersion)
		}
	}
	for _, b := range a.search("language=python&limit=100").Items {
		if b.Repo == nil || b.Repo.Language == nil || *b.Repo.Language != "Python" {
			t.Errorf("language=python gave %+v", b.Repo)
		}
	}
	if p := a.search("q=mikrotik"); len(p.Items) == 0 || *p.Items[0].Source.Repo != "xcspl/mikrotik-docs-okf" {
		t.Errorf("q=mikrotik: %v", pageIDs(p))
	}
	if p := a.search("q=firebase&sort=relevance&limit=100"); len(p.Items) < 2 {
		t.Errorf("q=firebase: %v", pageIDs(p))
	}
	for _, sort := range []string{"name", "stars", "updated"} {
		if got := a.walk("limit=13&sort=" + sort); !sameSet(got, live) {
			t.Errorf("sort=%s walks %d bundles, recent walks %d", sort, len(got), len(live))
		}
	}
}
