package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
)

func TestPrefersMarkdown(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                                   false,
		"*/*":                                false,
		"application/json":                   false,
		"text/markdown":                      true,
		"text/markdown, */*;q=0.1":           true,
		"application/json, text/markdown":    false,
		"text/markdown;q=0.5, application/*": false,
		"text/html, text/markdown;q=0.9":     true,
		"text/markdown;q=0":                  false,
		"garbage;;;":                         false,
	} {
		if got := prefersMarkdown(accept); got != want {
			t.Errorf("prefersMarkdown(%q) = %v, want %v", accept, got, want)
		}
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
