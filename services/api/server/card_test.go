package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

func TestCard(t *testing.T) {
	t.Parallel()
	f := newFixture(t, config.VariantBase)
	a := f.api

	var b wire.Card
	body := a.get("/api/bundles/"+f.alpha, 200, &b)
	in := f.alphaIn
	if b.ID != f.alpha || b.Name != in.Card.Name || b.Tagline != in.Card.Tagline ||
		b.Description != in.Card.Description || b.OKFVersion != "0.1" || b.Concepts != 3 ||
		len(b.ConceptList) != 3 || b.ConceptList[1] != in.Card.ConceptList[1] || b.Type != "glossary" ||
		b.IndexURL != in.IndexURL || b.PageURL != in.PageURL {
		t.Errorf("card fields differ from the input:\n%s", body)
	}
	if b.Source.Origin != "code_host" || b.Source.Via != "sweep" || b.Source.Repo == nil || *b.Source.Repo != "alpha/one" ||
		b.Source.Dir != "okf" || b.Source.Path != "okf/index.md" || b.Source.Host != "github.com" {
		t.Errorf("source %+v", b.Source)
	}
	if b.Repo == nil || b.Repo.Stars != 50 || b.Repo.Language == nil || *b.Repo.Language != "Go" ||
		b.Repo.License == nil || *b.Repo.License != "MIT" || b.Repo.State == nil || *b.Repo.State != "active" {
		t.Errorf("repo %+v", b.Repo)
	}
	if b.API != publicBase+"/api/bundles/"+f.alpha || b.IndexedAt.IsZero() || b.UpdatedAt.Before(b.IndexedAt.Time) {
		t.Errorf("api %s indexed_at %v updated_at %v", b.API, b.IndexedAt, b.UpdatedAt)
	}
	// Every field of the contract is present (the schema checks types).
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(body, &raw)
	for _, k := range []string{"id", "name", "tagline", "description", "okf_version", "concepts", "concept_list",
		"type", "index_url", "page_url", "source", "repo", "indexed_at", "updated_at", "api"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("card lacks %s", k)
		}
	}

	// A domain bundle: repo null, source.repo null, empty concept list.
	a.get("/api/bundles/"+f.gamma, 200, &b)
	if b.Repo != nil || b.Source.Repo != nil || b.Source.Origin != "domain" || b.Source.Via != "indexnow" ||
		b.Source.Host != "docs.gamma.example" || b.ConceptList == nil || len(b.ConceptList) != 0 {
		t.Errorf("domain card %+v", b)
	}
	// The concept list holds at most 24 entries; the count is the full count.
	a.get("/api/bundles/"+f.delta, 200, &b)
	if b.Concepts != 150 || len(b.ConceptList) != 24 || *b.Source.Repo != "delta/three" {
		t.Errorf("delta: concepts %d, list %d, repo %s", b.Concepts, len(b.ConceptList), *b.Source.Repo)
	}
	// A low bundle answers on its card, though not in search.
	a.get("/api/bundles/"+f.low, 200, &b)
	if b.ID != f.low {
		t.Errorf("low card %s", b.ID)
	}

	// Hidden, unknown and malformed ids are 404 not_found.
	for _, id := range []string{
		f.hidden, "no-such-bundle-0123456789", strings.ToUpper(f.alpha), "a_b", "a.b", "%20",
		strings.Repeat("a", 81), "caf%C3%A9", f.alpha + "%2Fx",
	} {
		a.getError("/api/bundles/"+id, 404, apierror.NotFound)
	}
	// A hidden bundle is gone.
	if err := a.store.HideBundle(t.Context(), f.beta); err != nil {
		t.Fatal(err)
	}
	a.getError("/api/bundles/"+f.beta, 404, apierror.NotFound)
	if ids := pageIDs(a.search("")); len(ids) != 3 {
		t.Errorf("after hide, search gives %v", ids)
	}
	resp, body := a.do("HEAD", "/api/bundles/"+f.alpha, nil)
	if resp.StatusCode != 200 || len(body) != 0 {
		t.Errorf("HEAD card: %d %q", resp.StatusCode, body)
	}
	if resp, _ := a.do("HEAD", "/api/bundles/nothing-here", nil); resp.StatusCode != 404 {
		t.Errorf("HEAD unknown card: %d", resp.StatusCode)
	}
}

// A card asked for as markdown is the same card, as markdown; JSON stays
// the default; both say they vary by Accept.
func TestCardAsMarkdown(t *testing.T) {
	t.Parallel()
	f := newFixture(t, config.VariantBase)
	a := f.api
	resp, body := a.do(http.MethodGet, "/api/bundles/"+f.alpha, http.Header{"Accept": {"text/markdown"}})
	md := string(body)
	in := f.alphaIn.Card
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") ||
		!strings.HasPrefix(md, "# "+in.Name+"\n") || !strings.Contains(md, "> "+in.Tagline) ||
		!strings.Contains(md, "- id: `"+f.alpha+"`") || !strings.Contains(md, "## Concepts") ||
		!strings.Contains(md, "]("+"<"+in.ConceptList[0].URL+">)") || !strings.Contains(md, "<"+publicBase+"/api/bundles/"+f.alpha+">") {
		t.Errorf("markdown card: %d %q\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), md)
	}
	if v := resp.Header.Values("Vary"); !strings.Contains(strings.Join(v, ","), "Accept") {
		t.Errorf("Vary %v", v)
	}
	resp, _ = a.do(http.MethodGet, "/api/bundles/"+f.alpha, http.Header{"Accept": {"*/*"}})
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Errorf("Accept */*: %q, want JSON", resp.Header.Get("Content-Type"))
	}
	// An unknown id is still the JSON error.
	resp, body = a.do(http.MethodGet, "/api/bundles/no-such-bundle-0123", http.Header{"Accept": {"text/markdown"}})
	if resp.StatusCode != 404 || !strings.Contains(string(body), `"not_found"`) {
		t.Errorf("unknown id as markdown: %d %s", resp.StatusCode, body)
	}
}
