package server

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// main is the <main> of a page.
func mainOf(page string) string {
	i, j := strings.Index(page, "<main"), strings.Index(page, "</main>")
	if i < 0 || j < i {
		return page
	}
	return page[i:j]
}

// unescapeHref turns an href of a page into a path to request.
func unescapeHref(h string) string { return strings.ReplaceAll(h, "&amp;", "&") }

// TestWebPagingAndCounts: the count of results, numbered pages and
// Previous/Next that show what they say, with or without the cursor of a
// next link, and the empty pages past the end and past the cap.
func TestWebPagingAndCounts(t *testing.T) {
	a := newAPI(t, config.VariantBase)
	webCorpus(t, a.store)
	page := string(a.get("/", 200, nil))
	if !strings.Contains(page, "32 results · showing 1–24") || !strings.Contains(page, `<a href="/" aria-current="page">1</a>`) ||
		!strings.Contains(page, `href="/?offset=24"><span class="visually-hidden">Page </span>2</a>`) {
		t.Errorf("first page's count and pages: %s", mainOf(page))
	}
	// The next link carries a cursor; the page it leads to links page 1 and
	// Previous without it, and they show items 1-24.
	next := regexp.MustCompile(`href="(/\?[^"]*)" rel="next"`).FindStringSubmatch(page)
	if next == nil || !strings.Contains(next[1], "cursor=") {
		t.Fatalf("next link %v", next)
	}
	second := string(a.get(unescapeHref(next[1]), 200, nil))
	prev := regexp.MustCompile(`href="([^"]*)" rel="prev"`).FindStringSubmatch(second)
	if prev == nil || prev[1] != "/" || strings.Contains(second, "cursor=") && !strings.Contains(second, `rel="next"`) &&
		regexp.MustCompile(`href="[^"]*cursor=[^"]*"`).MatchString(mainOf(second)) {
		t.Errorf("second page's links: %v\n%s", prev, mainOf(second))
	}
	if again := string(a.get(prev[1], 200, nil)); !strings.Contains(again, "showing 1–24") {
		t.Error("Previous does not show items 1-24")
	}
	// With words and a filter, the count is the query's.
	page = string(a.get("/?q=guide&language=Rust", 200, nil))
	if !strings.Contains(page, "10 results · showing 1–10") {
		t.Errorf("count of q=guide language=Rust: %s", mainOf(page))
	}
	// Past the last result, and past the cap.
	page = string(a.get("/?offset=96", 200, nil))
	if !strings.Contains(page, "This page starts past the last result") || !strings.Contains(page, "Go to the first page") {
		t.Errorf("past the end: %s", mainOf(page))
	}
	page = string(a.get("/?offset=2000", 200, nil))
	if !strings.Contains(page, "The list stops at 1,000 results") {
		t.Errorf("past the cap: %s", mainOf(page))
	}
	// The API's contract is unchanged: no count in its page.
	if body := string(a.get("/api/bundles", 200, nil)); strings.Contains(body, "total") || strings.Contains(body, "count") {
		t.Errorf("the API page counts: %.300s", body)
	}
}

// TestWebEmptyStatesAndFilters: an empty search says why and what to try;
// active filters are chips with "clear all"; the filters count the query's
// bundles, and every value stays reachable.
func TestWebEmptyStatesAndFilters(t *testing.T) {
	a := newAPI(t, config.VariantFull)
	webCorpus(t, a.store)
	page := mainOf(string(a.get("/?q=zzzzqqq", 200, nil)))
	if !strings.Contains(page, "No bundle matches these words.") || strings.Contains(page, "with these filters") {
		t.Errorf("no results without filters: %s", page)
	}
	page = mainOf(string(a.get("/?q=domain&language=Rust", 200, nil)))
	if !strings.Contains(page, "No bundle matches these words with these filters.") ||
		!strings.Contains(page, `<a href="/?q=domain">Clear the filters</a>`) {
		t.Errorf("no results with filters: %s", page)
	}
	page = mainOf(string(a.get("/?q=guide&language=Rust&version=0.2", 200, nil)))
	for _, want := range []string{`class="chip">Language: Rust`, `href="/?q=guide&amp;version=0.2" class="chip">Language: Rust`,
		`href="/?language=Rust&amp;q=guide" class="chip">OKF: 0.2`, `<a href="/?q=guide" class="clear-all">Clear all filters</a>`} {
		if !strings.Contains(page, want) {
			t.Errorf("chips lack %q: %s", want, page)
		}
	}
	// The facets of q=hostile: one bundle, Go, 0.2; not the index's counts.
	page = string(a.get("/?q=hostile", 200, nil))
	if !regexp.MustCompile(`value="Go"> Go <span class="n">1</span>`).MatchString(page) ||
		!regexp.MustCompile(`value="0.2"> 0.2 <span class="n">1</span>`).MatchString(page) {
		t.Errorf("facets of q=hostile: %s", page[strings.Index(page, "<form"):strings.Index(page, "</form>")])
	}
	// A value the query does not hold is still reachable, behind "more".
	form := page[strings.Index(page, "<form"):strings.Index(page, "</form>")]
	if !strings.Contains(form, `<details class="more">`) || !strings.Contains(form, `value="Rust"> Rust`) {
		t.Errorf("Rust is not reachable from q=hostile: %s", form)
	}
	// The landing page says what OKF is, links the docs, and lists bundles.
	page = mainOf(string(a.get("/", 200, nil)))
	for _, want := range []string{"OKF (Open Knowledge Format)", `href="/docs"`, "IndexNow", "Recently added", "Recently updated", "Most starred"} {
		if !strings.Contains(page, want) {
			t.Errorf("the landing page lacks %q", want)
		}
	}
	if page := mainOf(string(a.get("/?q=guide", 200, nil))); strings.Contains(page, "Most starred") {
		t.Error("a search shows the landing lists")
	}
}

// TestWebLandingStarredOnly: "Most starred" lists only bundles somebody
// starred, and is left out of an index where nobody did.
func TestWebLandingStarredOnly(t *testing.T) {
	a := newAPI(t, config.VariantBase)
	upsert(t, a.store,
		siteBundle("https://docs.example.org/okf/index.md", wire.Card{Name: "Example docs", Tagline: "Docs of a domain",
			Description: "Domain docs.", OKFVersion: "0.1", Concepts: 1, ConceptList: concepts("https://docs.example.org/okf", 1)}),
		repoBundle("acme", "unstarred", "index.md", wire.Card{Name: "Unstarred guide", Tagline: "Nobody starred it",
			Description: "A guide.", OKFVersion: "0.1"}, signal(0, "Go", "MIT")))
	recount(t, a.store)
	page := mainOf(string(a.get("/", 200, nil)))
	if !strings.Contains(page, "Recently added") || !strings.Contains(page, "Unstarred guide") {
		t.Fatalf("the landing page lacks its lists: %s", page)
	}
	if strings.Contains(page, "Most starred") {
		t.Errorf("an index without stars lists a most starred bundle: %s", page)
	}
	upsert(t, a.store, repoBundle("acme", "starred", "index.md", wire.Card{Name: "Starred guide", Tagline: "One star",
		Description: "A guide.", OKFVersion: "0.1"}, signal(1, "Go", "MIT")))
	recount(t, a.store)
	page = mainOf(string(a.get("/", 200, nil)))
	i := strings.Index(page, "Most starred")
	if i < 0 {
		t.Fatalf("the starred bundle is not listed: %s", page)
	}
	stars := page[i:]
	stars = stars[:strings.Index(stars, "</section>")]
	if !strings.Contains(stars, "Starred guide") || strings.Contains(stars, "Unstarred guide") || strings.Contains(stars, "Example docs") {
		t.Errorf("most starred lists more than the starred bundle: %s", stars)
	}
}

// TestWebErrorPages: a browser gets HTML error pages on the pages' routes
// and on addresses without a route; the API keeps its JSON.
func TestWebErrorPages(t *testing.T) {
	a := newAPI(t, config.VariantBase)
	browser := http.Header{"Accept": {"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}}
	for _, tc := range []struct {
		path   string
		header http.Header
		status int
		html   bool
		want   string
	}{
		{"/nope", browser, 404, true, "Not found"},
		{"/nope", nil, 404, false, "not_found"},
		{"/b/", browser, 404, true, "Not found"},
		{"/b/", nil, 404, true, "Not found"},
		{"/b/no-such-bundle", nil, 404, true, "Not found"},
		{"/o/bad%20name", nil, 404, true, "No GitHub owner"},
		{"/docs/nothing", nil, 404, true, "The documentation has"},
		{"/?sort=sideways", nil, 400, true, "sort must be"},
		{"/api/nope", browser, 404, false, "not_found"},
		{"/api/bundles?sort=sideways", browser, 400, false, "invalid_parameter"},
	} {
		resp, body := a.do("GET", tc.path, tc.header)
		ct := resp.Header.Get("Content-Type")
		if resp.StatusCode != tc.status || strings.HasPrefix(ct, "text/html") != tc.html || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s (%v): %d %s: %.300s", tc.path, tc.header != nil, resp.StatusCode, ct, body)
		}
		if tc.html && (resp.Header.Get("Content-Security-Policy") == "" || resp.Header.Get("X-Content-Type-Options") != "nosniff") {
			t.Errorf("%s: an error page without the page headers: %v", tc.path, resp.Header)
		}
	}
}

// TestWebBundleOwnerRepoDocs: the bundle page reads well (name once, the
// concept list once, provenance in words, the use box, the owner's
// section collapsed); owner and repository pages list every bundle with
// its state; the docs are HTML without frontmatter.
func TestWebBundleOwnerRepoDocs(t *testing.T) {
	a := newAPI(t, config.VariantBase)
	ids := webCorpus(t, a.store)
	page := mainOf(string(a.get("/b/"+ids[3], 200, nil)))
	for _, want := range []string{"Found on GitHub by the daily sweep", `<h2 id="use-title">Use this bundle</h2>`,
		"git sparse-checkout", `&#34;name&#34;:&#34;get_bundle&#34;`, `<details class="for-owner" id="for-owner">`,
		`<summary>For the owner</summary>`, `href="/o/acme"`, `href="/r/acme/guide-03"`, "okfctl lint --repo acme/guide-03 index.md"} {
		if !strings.Contains(page, want) {
			t.Errorf("bundle page lacks %q", want)
		}
	}
	if strings.Count(page, "Field guide 03") != 1 {
		t.Errorf("the name shows %d times", strings.Count(page, "Field guide 03"))
	}
	// A bundle okfctl import wrote says so (its card's via stays "sweep").
	if _, err := a.store.Pool().Exec(t.Context(), `UPDATE bundles SET imported = true WHERE id = $1`, ids[4]); err != nil {
		t.Fatal(err)
	}
	page = mainOf(string(a.get("/b/"+ids[4], 200, nil)))
	if !strings.Contains(page, web.ImportedProvenance) || strings.Contains(page, "daily sweep") {
		t.Errorf("imported bundle page lacks %q", web.ImportedProvenance)
	}
	page = mainOf(string(a.get("/b/"+ids[30], 200, nil))) // the domain bundle
	if !strings.Contains(page, "Published by IndexNow from docs.example.org") || strings.Contains(page, "git clone") {
		t.Errorf("domain bundle page: %s", page)
	}
	page = mainOf(string(a.get("/o/ACME", 200, nil)))
	if n := strings.Count(page, `class="card"`); n != 30 || !strings.Contains(page, "listed by search") || !strings.Contains(page, `href="/r/acme/guide-29"`) {
		t.Errorf("owner page: %d cards: %.500s", n, page)
	}
	page = mainOf(string(a.get("/r/acme/guide-03", 200, nil)))
	if !strings.Contains(page, "What the sweep made of it") || !strings.Contains(page, "Field guide 03") || !strings.Contains(page, `/api/status?repo=acme%2Fguide-03`) {
		t.Errorf("repo page: %s", page)
	}
	page = mainOf(string(a.get("/o/nobody", 200, nil)))
	if !strings.Contains(page, "The index holds no bundle of this owner") {
		t.Errorf("an unknown owner: %s", page)
	}
	page = mainOf(string(a.get("/docs", 200, nil)))
	if strings.Contains(page, "okf_version:") || !strings.Contains(page, "<h1") || !strings.Contains(page, `href="/docs/api"`) {
		t.Errorf("docs page: %.1500s", page)
	}
	a.get("/docs/faq", 200, nil)
	page = mainOf(string(a.get("/stats", 200, nil)))
	if strings.Contains(page, ">code_host<") || !strings.Contains(page, ">GitHub<") {
		t.Errorf("stats labels: %.800s", page)
	}
}

// TestWebAccountSignIn: a signed-out account page links the identity
// service's sign-in (AUTH_SIGNIN_URL) with this page as where to come back,
// and says plainly when no address is configured.
func TestWebAccountSignIn(t *testing.T) {
	a := newAPIWith(t, storetest.NewStore(t), map[string]string{"PUBLIC_BASE_URL": publicBase + "/", "VARIANT": config.VariantFull,
		"AUTH_SIGNIN_URL": "https://id.example/sign-in?app=okf"})
	page := mainOf(string(a.get("/account", 200, nil)))
	want := `href="https://id.example/sign-in?app=okf&amp;return_to=` + url.QueryEscape(publicBase+"/account") + `"`
	if !strings.Contains(page, want) || !strings.Contains(page, `id="sign-in"`) {
		t.Errorf("signed-out account page lacks %s: %s", want, page)
	}
	page = mainOf(string(newAPI(t, config.VariantFull).get("/account", 200, nil)))
	if strings.Contains(page, `id="sign-in"`) || !strings.Contains(page, "names no sign-in address") {
		t.Errorf("without AUTH_SIGNIN_URL: %s", page)
	}
}
