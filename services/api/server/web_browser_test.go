package server

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/okfindex/okf-index/pkg/config"
)

// TestBrowserPages drives the pages in headless Chromium with JavaScript
// on: search, each filter, search as you type with back and forward,
// paging to the end, a bundle, the hostile bundle, the statistics page,
// the keyboard; axe-core in each page; no console error anywhere; a
// screenshot of each page.
func TestBrowserPages(t *testing.T) {
	a, ids, b := newBrowserEnv(t, config.VariantFull, true)
	u := a.url
	cards := `document.querySelectorAll("#results .card").length`

	// The first page, and the "/" key.
	b.run("open /", chromedp.Navigate(u+"/"), chromedp.WaitVisible(`#results`, chromedp.ByQuery),
		waitJS(cards+` === 24`))
	b.screenshot("search")
	b.axeCheck("/")
	// chromedp sends the key's character as an event apart, which the
	// prevented keydown does not stop as a real key press would: clear it.
	b.run("/ focuses the box", chromedp.KeyEvent("/"), waitJS(`document.activeElement.id === "q"`),
		chromedp.Evaluate(`document.getElementById("q").value = ""`, nil))
	b.clean("/")

	// Search as you type: the results follow, the URL too, and back and
	// forward move between them.
	b.run("type", chromedp.SendKeys(`#q`, "hostile"),
		waitJS(cards+` === 1 && location.search === "?q=hostile"`),
		waitJS(`document.querySelector("#results mark") !== null`))
	b.screenshot("search-as-you-type")
	b.run("back", chromedp.NavigateBack(), waitJS(`!location.search.includes("q=hostile") && `+cards+` > 1`))
	b.run("forward", chromedp.NavigateForward(), waitJS(`location.search.includes("q=hostile") && `+cards+` === 1 && document.getElementById("q").value === "hostile"`))
	b.clean("search as you type")

	// A snippet, where the store gives one, is text and <mark>s only.
	b.run("snippets", chromedp.Navigate(u+"/?q=hostile+guide"), chromedp.WaitVisible(`#results`, chromedp.ByQuery),
		waitJS(`[...document.querySelectorAll("#results .snippet")].every(p =>
			p.querySelectorAll("*").length === p.querySelectorAll("mark, .snippet-field").length &&
			[...p.querySelectorAll("mark")].every(m => m.textContent !== "" && m.children.length === 0))`))

	// A q that finds a bundle holding every word of it, with a name a
	// letter away, offers the name, linked to the same search with q
	// replaced.
	var didYouMean, href string
	b.run("did you mean", chromedp.Navigate(u+"/?q=field+guides+03&language=Go"), chromedp.WaitVisible(`.did-you-mean a`, chromedp.ByQuery),
		chromedp.Text(`.did-you-mean a`, &didYouMean, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector(".did-you-mean a").getAttribute("href")`, &href))
	if didYouMean != "Field guide 03" || href != "/?language=Go&q=Field+guide+03" {
		t.Errorf("did you mean %q at %q; want Field guide 03 at /?language=Go&q=Field+guide+03", didYouMean, href)
	}
	b.axeCheck("/?q=typo")
	b.run("follow the suggestion", chromedp.Navigate(u+href),
		waitJS(`location.search === "?language=Go&q=Field+guide+03" && `+cards+` >= 1 &&
			document.querySelector("#results .card h3").textContent === "Field guide 03"`))
	// A typo no bundle holds lists what its correction finds, and says so.
	var corrected string
	b.run("corrected", chromedp.Navigate(u+"/?q=feild+guide+03&language=Go"), chromedp.WaitVisible(`.corrected`, chromedp.ByQuery),
		chromedp.Text(`.corrected`, &corrected, chromedp.ByQuery),
		waitJS(`document.querySelector("#results .card h3").textContent === "Field guide 03" && document.getElementById("q").value === "Field guide 03"`))
	if !strings.Contains(corrected, "Showing results for") || !strings.Contains(corrected, "Field guide 03") {
		t.Errorf("the corrected page says %q", corrected)
	}
	b.clean("did you mean")

	// Each filter, from a fresh page.
	filters := []struct {
		name, action, wantURL string
		want                  int
	}{
		{"version", `document.querySelector('input[name=version][value="0.2"]').click()`, "version=0.2", 11},
		{"language", `document.querySelector('input[name=language][value=Rust]').click()`, "language=Rust", 10},
		{"type", "", "", 0},
		{"license", `document.querySelector('input[name=license][value=MIT]').click()`, "license=MIT", 24},
		{"concepts", `document.querySelector('input[name=concepts][value="0"]').click()`, "concepts=0", 5},
		{"origin", `(s => { s.value = "domain"; s.dispatchEvent(new Event("change", {bubbles: true})) })(document.getElementById("origin"))`, "origin=domain", 1},
		{"sort", `(s => { s.value = "name"; s.dispatchEvent(new Event("change", {bubbles: true})) })(document.getElementById("sort"))`, "sort=name", 24},
	}
	for _, f := range filters {
		if f.action == "" {
			continue // no bundle declares a type: the filter is not offered
		}
		b.run("filter "+f.name, chromedp.Navigate(u+"/"), waitJS(cards+` === 24`),
			chromedp.Evaluate(f.action, nil),
			waitJS(`location.search.includes("`+f.wantURL+`") && `+cards+` === `+strconv.Itoa(f.want)))
	}
	var firstName string
	b.run("sorted by name", chromedp.Text(`#results .card h3`, &firstName, chromedp.ByQuery))
	if firstName != "Example docs" {
		t.Errorf("sort=name: first card %q", firstName)
	}
	b.screenshot("search-filtered")
	b.clean("filters")

	// Paging to the end through next.
	b.run("page 1", chromedp.Navigate(u+"/"), waitJS(cards+` === 24`))
	pages := 1
	for {
		var next string
		b.run("next?", chromedp.Evaluate(`(a => a ? a.href : "")(document.querySelector('a[rel=next]'))`, &next))
		if next == "" {
			break
		}
		pages++
		b.run("next", chromedp.Navigate(next), chromedp.WaitVisible(`#results`, chromedp.ByQuery))
		if pages > 5 {
			t.Fatal("paging does not end")
		}
	}
	var last int
	b.run("last page", chromedp.Evaluate(cards, &last))
	if pages != 2 || last != 8 {
		t.Errorf("paging: %d pages, %d cards on the last; want 2 and 8", pages, last)
	}
	b.clean("paging")

	// Opening a bundle from the results.
	b.run("open a bundle", chromedp.Navigate(u+"/?q=field+guide+03"), waitJS(cards+` >= 1`),
		chromedp.Click(`#results .card h3 a`, chromedp.ByQuery), chromedp.WaitVisible(`article.bundle`, chromedp.ByQuery))
	var h1 string
	b.run("bundle name", chromedp.Text(`h1`, &h1, chromedp.ByQuery))
	if !strings.HasPrefix(h1, "Field guide") {
		t.Errorf("bundle page h1 %q", h1)
	}
	// The owner's diagnostics are folded away; opened, they say it.
	var broken string
	var folded bool
	b.run("for the owner", chromedp.Evaluate(`!document.getElementById("for-owner").open`, &folded),
		chromedp.Click(`#for-owner summary`, chromedp.ByQuery), chromedp.Text(`.broken-links`, &broken, chromedp.ByQuery))
	if !folded {
		t.Error("the owner's section is open to every visitor")
	}
	if broken != "1 of 3 concept links point at missing files" {
		t.Errorf("bundle page broken-link line %q", broken)
	}
	b.screenshot("bundle")
	b.axeCheck("/b/{id}")
	b.clean("bundle")

	// The hostile bundle runs nothing.
	b.run("hostile", chromedp.Navigate(u+"/b/"+ids[len(ids)-1]), chromedp.WaitVisible(`article.bundle`, chromedp.ByQuery),
		chromedp.Evaluate(`new Promise(r => setTimeout(r, 300))`, nil, awaitPromise))
	b.screenshot("bundle-hostile")
	b.clean("hostile bundle")

	// The statistics.
	b.run("stats", chromedp.Navigate(u+"/stats"), chromedp.WaitVisible(`.chart svg`, chromedp.ByQuery))
	b.screenshot("stats")
	b.axeCheck("/stats")
	b.clean("stats")

	// A phone's width: nothing wider than the screen.
	var wide bool
	b.run("360 px", chromedp.EmulateViewport(360, 740), chromedp.Navigate(u+"/?q=guide"), waitJS(cards+` > 0`),
		chromedp.Evaluate(`document.documentElement.scrollWidth > 360`, &wide))
	if wide {
		t.Error("the search page is wider than 360 px")
	}
	b.screenshot("search-360px")
	b.clean("360 px")

	// On a phone the filters fold behind one button and the first result
	// shows on the first screen; a set filter keeps them open.
	folded = false
	var firstTop float64
	b.run("phone filters", chromedp.Navigate(u+"/?q=guide"), waitJS(cards+` > 0`),
		chromedp.Evaluate(`!document.getElementById("filter-box").open`, &folded),
		chromedp.Evaluate(`document.querySelector("#results .card").getBoundingClientRect().top`, &firstTop))
	if !folded || firstTop > 740 {
		t.Errorf("phone: filters folded %v, first result at %.0f px", folded, firstTop)
	}
	b.run("phone filters open", chromedp.Navigate(u+"/?q=guide&language=Go"), waitJS(cards+` > 0`),
		waitJS(`document.getElementById("filter-box").open`))
	b.run("desktop", chromedp.EmulateViewport(1280, 900))

	// The live region announces the count, not the list.
	var live int
	b.run("live region", chromedp.Navigate(u+"/"), waitJS(cards+` === 24`),
		chromedp.Evaluate(`document.querySelectorAll("[aria-live]").length`, &live),
		chromedp.SendKeys(`#q`, "rust"), waitJS(`location.search === "?q=rust"`),
		waitJS(`document.getElementById("announce").textContent === document.getElementById("results").dataset.count &&
			/results?$/.test(document.getElementById("announce").textContent)`))
	if live != 1 {
		t.Errorf("%d live regions, want the count's alone", live)
	}
	if b.hasAttr(`#results`, "aria-live") {
		t.Error("the result list is a live region")
	}
	b.clean("live region")

	a.server.reports.Flush()
	if strings.Contains(a.logs.String(), `"code":"UI-`) {
		t.Errorf("the page reported a failure:\n%s", a.logs.String())
	}
}

// TestBrowserKeyboard tabs through the landing page: every control is
// reached in the visible order, each shows where the focus is, and Enter
// on the box searches. Then the bundle page's controls, in order.
func TestBrowserKeyboard(t *testing.T) {
	a, ids, b := newBrowserEnv(t, config.VariantBase, true)
	tabs := func(n int) []string {
		var reached []string
		for range n {
			var id string
			var ring bool
			b.run("tab", chromedp.KeyEvent(kb.Tab),
				chromedp.Evaluate(`(e => e.id || (e.name ? e.name + "=" + e.value : e.textContent.trim()))(document.activeElement)`, &id),
				chromedp.Evaluate(`(s => s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2)(getComputedStyle(document.activeElement))`, &ring))
			if !ring {
				t.Errorf("the focus on %q is not visible", id)
			}
			reached = append(reached, id)
		}
		return reached
	}
	got := strings.Join(tabs(16), " | ")
	want := strings.Join([]string{"Skip to content", "OKF Index", "Search", "Statistics", "Docs", "How it works, in the docs",
		"q", "Search", "origin", "sort", "version=0.1", "version=0.2", "language=Go", "language=Python", "language=Rust",
		"Hostile <b>bundle</b>"}, " | ") // the filters' button shows on phones only; then the landing lists
	if got != want {
		t.Errorf("tab order:\n got %s\nwant %s", got, want)
	}
	b.run("search by keyboard", chromedp.Focus(`#q`, chromedp.ByQuery), chromedp.SendKeys(`#q`, "domain"),
		chromedp.KeyEvent(kb.Enter), waitJS(`location.search.includes("q=domain") && document.querySelectorAll("#results .card").length === 1`))
	// The bundle page: its owner links, then each copy field and its
	// button, then the folded owner's section.
	b.run("bundle", chromedp.Navigate(a.url+"/b/"+ids[3]), chromedp.WaitVisible(`article.bundle`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector(".bundle .meta a").focus()`, nil))
	got = strings.Join(tabs(9), " | ")
	if !strings.HasPrefix(got, "guide-03 | Concept 0 | Concept 1 | Concept 2 | use-raw | Copy") ||
		!strings.Contains(got, "use-clone") {
		t.Errorf("bundle page tab order: %s", got)
	}
	b.clean("keyboard")
}

// TestBrowserNoJavaScript completes a search and opens a bundle with
// JavaScript off.
func TestBrowserNoJavaScript(t *testing.T) {
	_, _, b := newBrowserEnv(t, config.VariantBase, false)
	b.run("search", chromedp.SendKeys(`#q`, "example docs"), chromedp.Click(`form.search button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#results mark`, chromedp.ByQuery)) // the first page marks nothing
	var loc, marked string
	b.run("results", chromedp.Location(&loc), chromedp.Text(`#results mark`, &marked, chromedp.ByQuery))
	if !strings.Contains(loc, "q=example+docs") || !strings.EqualFold(marked, "example") {
		t.Errorf("no-JS search: %s, marked %q", loc, marked)
	}
	b.screenshot("nojs-search")
	b.run("open the bundle", chromedp.Click(`#results .card h3 a`, chromedp.ByQuery), chromedp.WaitVisible(`article.bundle`, chromedp.ByQuery))
	var h1 string
	b.run("bundle", chromedp.Text(`h1`, &h1, chromedp.ByQuery))
	if h1 != "Example docs" {
		t.Errorf("no-JS bundle page h1 %q", h1)
	}
	b.screenshot("nojs-bundle")
	b.clean("no JavaScript")
}

// awaitPromise makes chromedp.Evaluate wait for a promise's value.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// TestBrowserReportsFailures makes the page fail in each way the contract
// names and checks that each reached POST /api/erro-cliente with its code.
func TestBrowserReportsFailures(t *testing.T) {
	a, _, b := newBrowserEnv(t, config.VariantBase, true)
	b.run("fail", chromedp.Evaluate(`
		setTimeout(() => { throw new Error("boom") }, 0);                         // UI-JS-001
		Promise.reject(new Error("nope"));                                         // UI-PROMESSA-001
		document.body.appendChild(Object.assign(new Image(), {src: "/assets/missing.png"}));     // UI-RECURSO-001
		document.body.appendChild(Object.assign(new Image(), {src: "https://elsewhere.example/x.png"})); // UI-CSP-001
		const real = window.fetch;                                                  // UI-APP-001
		window.fetch = (u, o) => String(u).startsWith("/results") ? Promise.reject(new TypeError("offline")) : real(u, o);
		0`, nil),
		chromedp.SendKeys(`#q`, "x"))
	want := []string{"UI-JS-001", "UI-PROMESSA-001", "UI-RECURSO-001", "UI-CSP-001", "UI-APP-001"}
	var missing []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		a.server.reports.Flush()
		logs := a.logs.String()
		missing = nil
		for _, code := range want {
			if !strings.Contains(logs, `"code":"`+code+`"`) {
				missing = append(missing, code)
			}
		}
		if len(missing) == 0 {
			return
		}
	}
	t.Errorf("not reported: %v\n%s", missing, a.logs.String())
}

// TestBrowserEveryPage opens every page at 1366 and 360 px wide, in light
// and dark, in one browser: axe, width, text size, screenshots.
func TestBrowserEveryPage(t *testing.T) {
	a, ids, b := newBrowserEnv(t, config.VariantFull, true)
	u := a.url
	b.everyPage(u, []pageVisit{
		{"landing", "/", `#results .card`, 0},
		{"search-q", "/?q=guide&language=Go", `#results .card`, 0},
		{"search-empty", "/?q=zzzzqqq&language=Go", `#results .empty`, 0},
		{"bundle", "/b/" + ids[3], `article.bundle`, 0},
		{"owner", "/o/acme", `.repo-group`, 0},
		{"repo", "/r/acme/guide-03", `.status`, 0},
		{"stats", "/stats", `.chart`, 0},
		{"docs", "/docs", `article.doc`, 0},
		{"error-404", "/nope", `main h1`, 404},
		{"account", "/account", `#signin-title`, 0},
		{"credit", "/credit", `#credit-balance`, 0},
	})
	b.clean("every page")
}

// pageVisit is a page the browser tests visit at every width and scheme.
type pageVisit struct {
	name, path, ready string
	status            int // the page's status when not 200
}

// everyPage opens each page at 1366 and 360 px wide, in light and dark:
// axe finds nothing serious, nothing is wider than the screen, no console
// error; a screenshot of each.
func (b *chromeTab) everyPage(base string, pages []pageVisit) {
	b.t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		b.run("scheme "+scheme, emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, width := range []int64{1366, 360} {
			b.run("viewport", chromedp.EmulateViewport(width, 800))
			for _, p := range pages {
				where := fmt.Sprintf("%s %s %dpx", p.path, scheme, width)
				var wide bool
				b.run(where, chromedp.Navigate(base+p.path), chromedp.WaitReady(p.ready, chromedp.ByQuery),
					chromedp.Evaluate(fmt.Sprintf(`document.documentElement.scrollWidth > %d`, width), &wide))
				if wide {
					b.t.Errorf("%s: wider than the screen", where)
				}
				var smallest float64
				b.run(where+" text size", chromedp.Evaluate(smallestText, &smallest))
				if smallest < 12 {
					b.t.Errorf("%s: text drawn %.1f px high, too small to read", where, smallest)
				}
				b.screenshot(fmt.Sprintf("%s-%dpx-%s", p.name, width, scheme))
				b.axeCheck(where)
				if p.status != 0 {
					b.expectFailedLoads(p.status, p.path)
				}
				b.clean(where)
			}
		}
	}
	b.run("reset", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: ""}}),
		chromedp.EmulateViewport(1280, 900))
}

// smallestText is the height of the smallest line of text drawn in the
// page's main (an SVG chart scaled down to a phone draws its labels small).
const smallestText = `(() => {
	let min = 99;
	const w = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
	while (w.nextNode()) {
		const t = w.currentNode;
		if (!t.textContent.trim() || t.parentElement.closest(".visually-hidden")) continue;
		const r = document.createRange();
		r.selectNodeContents(t);
		const rects = r.getClientRects();
		if (rects.length && rects[0].width > 0) min = Math.min(min, rects[0].height);
	}
	return min;
})()`

// hasAttr reports whether the element of sel carries attribute name.
func (b *chromeTab) hasAttr(sel, name string) bool {
	b.t.Helper()
	var has bool
	b.run("attr "+name, chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).hasAttribute(%q)`, sel, name), &has))
	return has
}
