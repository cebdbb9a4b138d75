package server

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/services/api/server/pages"
)

// TestWebPageHeaders checks what every page is sent with: the strict CSP,
// the other security headers, an ETag that a revalidation matches, and gzip
// under 50 KB for the first page.
func TestWebPageHeaders(t *testing.T) {
	a := newAPI(t, config.VariantBase)
	ids := webCorpus(t, a.store)
	for _, path := range []string{"/", "/?q=guide", "/b/" + ids[0], "/stats", "/results?q=guide"} {
		resp, body := a.do("GET", path, nil)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		csp := resp.Header.Get("Content-Security-Policy")
		for _, want := range []string{"script-src 'self'", "frame-ancestors 'none'", "default-src 'none'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") {
			t.Errorf("%s: CSP %q allows something unsafe", path, csp)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") == "" {
			t.Errorf("%s: headers %v", path, resp.Header)
		}
		if regexp.MustCompile(`<script>|<script [^>]*>[^<]`).Match(body) || strings.Contains(string(body), " style=") {
			t.Errorf("%s: inline script or style in the page", path)
		}
		tag := resp.Header.Get("ETag")
		if tag == "" {
			t.Fatalf("%s: no ETag", path)
		}
		if again, _ := a.do("GET", path, http.Header{"If-None-Match": {tag}}); again.StatusCode != http.StatusNotModified {
			t.Errorf("%s: revalidation answered %d, want 304", path, again.StatusCode)
		}
	}
	// Transferred size of the first page: gzip when asked for.
	req, _ := http.NewRequest("GET", a.url+"/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n := 0
	buf := make([]byte, 4096)
	for {
		k, err := resp.Body.Read(buf)
		n += k
		if err != nil {
			break
		}
	}
	if resp.Header.Get("Content-Encoding") != "gzip" || n > 50_000 {
		t.Errorf("first page: %s, %d bytes transferred", resp.Header.Get("Content-Encoding"), n)
	}
	t.Logf("first page: %d bytes transferred (gzip)", n)
}

// TestWebSearchPage checks the search page: filters, highlighting, the
// default relevance sort, paging through the API's next, and a refused
// query shown as a 400 page.
func TestWebSearchPage(t *testing.T) {
	a := newAPI(t, config.VariantBase)
	webCorpus(t, a.store)
	_, body := a.do("GET", "/", nil)
	page := string(body)
	for _, want := range []string{`name="version" value="0.1"`, `name="language" value="Go"`, `<option value="domain"`, `rel="next"`, "/opensearch.xml", `type="application/atom+xml" href="/feed.atom"`, "32 results · showing 1–24"} {
		if !strings.Contains(page, want) {
			t.Errorf("GET / lacks %q", want)
		}
	}
	next := regexp.MustCompile(`href="(/\?[^"]*)" rel="next"`).FindStringSubmatch(page)
	if next == nil {
		t.Fatal("no next link")
	}
	_, body = a.do("GET", strings.ReplaceAll(next[1], "&amp;", "&"), nil)
	if !strings.Contains(string(body), "32 results · showing 25–32") || strings.Contains(string(body), `rel="next"`) || !strings.Contains(string(body), `href="/" rel="prev"`) {
		t.Errorf("second page: %s", body)
	}

	_, body = a.do("GET", "/?q=field+guide", nil)
	if !strings.Contains(string(body), "<mark>Field</mark> <mark>guide</mark>") {
		t.Errorf("the words are not marked: %.2000s", body)
	}
	if !regexp.MustCompile(`<option value="" selected>`).Match(body) {
		t.Error("the default sort is not selected")
	}
	// Checkbox form and comma form both filter.
	for _, q := range []string{"/?version=0.2&language=Go", "/?version=0.2,0.3&language=Go"} {
		_, body = a.do("GET", q, nil)
		if n := strings.Count(string(body), `class="card"`); n != 11 { // guides 0, 3, ..., 27 and the hostile one
			t.Errorf("%s: %d cards, want 11", q, n)
		}
		if !strings.Contains(string(body), `value="0.2" checked`) {
			t.Errorf("%s: the filter is not shown checked", q)
		}
	}
	_, body = a.do("GET", "/?origin=domain", nil)
	if n := strings.Count(string(body), `class="card"`); n != 1 || !strings.Contains(string(body), "Example docs") {
		t.Errorf("origin=domain: %d cards", n)
	}
	resp, body := a.do("GET", "/?sort=sideways", nil)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "sort must be") {
		t.Errorf("a refused sort: %d", resp.StatusCode)
	}
	// A q that excludes itself is refused by the store, not the parser: the
	// page still answers its HTML 400 (HTTP fuzz seed 1795724092315571557).
	resp, body = a.do("GET", "/?q=data+-data", nil)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 400 || !strings.HasPrefix(ct, "text/html") ||
		!strings.Contains(string(body), "excludes it too") {
		t.Errorf("a q that excludes itself: %d %s: %.300s", resp.StatusCode, ct, body)
	}
	// The hostile names are escaped in cards.
	_, body = a.do("GET", "/?q=hostile", nil)
	if strings.Contains(string(body), "<script>alert") || strings.Contains(string(body), "<b>bundle</b>") {
		t.Error("a name or tagline is not escaped")
	}
}

// TestWebBundlePage checks a bundle page and that nothing of a hostile
// description survives as markup.
func TestWebBundlePage(t *testing.T) {
	a := newAPI(t, config.VariantBase)
	ids := webCorpus(t, a.store)
	_, body := a.do("GET", "/b/"+ids[0], nil)
	page := string(body)
	for _, want := range []string{"Field guide 00", "<strong>bold</strong>", "/api/bundles/" + ids[0], "okfctl lint --repo acme/guide-00 index.md", "Stars", "active"} {
		if !strings.Contains(page, want) {
			t.Errorf("bundle page lacks %q", want)
		}
	}
	_, body = a.do("GET", "/b/"+ids[len(ids)-1], nil)
	page = string(body)
	main := page[strings.Index(page, "<main"):strings.Index(page, "</main>")]
	// Escaped text may show the attempts; no markup may carry them.
	for _, bad := range []string{"<script", "<img", "<svg"} {
		if strings.Contains(strings.ToLower(main), bad) {
			t.Errorf("the hostile page keeps %q:\n%s", bad, main)
		}
	}
	if m := regexp.MustCompile(`(?i)<[^>]*(\son[a-z]+\s*=|javascript:|data:)`).FindString(main); m != "" {
		t.Errorf("the hostile page keeps %q", m)
	}
	if !strings.Contains(main, `<a rel="nofollow ugc noopener" href="https://example.org/doc"`) {
		t.Errorf("the safe link is not a user-content link:\n%s", main)
	}
	if resp, body := a.do("GET", "/b/no-such-bundle", nil); resp.StatusCode != 404 || !strings.Contains(string(body), "Not found") {
		t.Errorf("missing bundle: %d", resp.StatusCode)
	}
}

// TestWebStatsAndDocs checks the statistics page, the OpenSearch
// description and the assets, in both variants.
func TestWebStatsAndDocs(t *testing.T) {
	for _, variant := range []string{config.VariantBase, config.VariantFull} {
		t.Run(variant, func(t *testing.T) {
			a := newAPIOn(t, storetest.NewStore(t), variant)
			webCorpus(t, a.store)
			_, body := a.do("GET", "/stats", nil)
			page := string(body)
			if !strings.Contains(page, "<svg") || !strings.Contains(page, `href="/?version=0.1"`) || !strings.Contains(page, "<strong>32</strong>") {
				t.Errorf("stats page: %.3000s", page)
			}
			if full := strings.Contains(page, "By license"); full != (variant == config.VariantFull) {
				t.Errorf("license chart shown: %v", full)
			}
			_, body = a.do("GET", "/", nil)
			if full := strings.Contains(string(body), `name="license"`); full != (variant == config.VariantFull) {
				t.Errorf("license filter shown: %v", full)
			}
			resp, body := a.do("GET", "/opensearch.xml", nil)
			if !strings.Contains(string(body), publicBase+"/?q={searchTerms}") || resp.Header.Get("Content-Type") != pages.MIMEOpenSearch {
				t.Errorf("opensearch: %s", body)
			}
			for _, name := range []string{"app.js", "app.css", "icon.svg"} {
				if resp, _ := a.do("GET", "/assets/"+name, nil); resp.StatusCode != 200 {
					t.Errorf("%s: %d", name, resp.StatusCode)
				}
			}
			if resp, _ := a.do("GET", "/assets/nothing.js", nil); resp.StatusCode != 404 {
				t.Errorf("unknown asset: %d", resp.StatusCode)
			}
		})
	}
}
