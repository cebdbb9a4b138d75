package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser tests drive headless Chromium over the pages. make test
// installs Chromium (scripts/ensure-chromium.sh) and names it in
// OKF_CHROMIUM, and they must run there; elsewhere they run when a
// chromium is on the PATH and skip otherwise.

// screenshotDir keeps the screenshots of the browser tests (gitignored).
const screenshotDir = "testdata/screenshots"

// chromiumPath is the Chromium the browser tests use, or a skip.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("OKF_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("OKF_CHROMIUM=%s: %v", p, err)
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("browser tests: no Chromium (run make test, or scripts/ensure-chromium.sh, or set OKF_CHROMIUM)")
	return ""
}

// axeSource is axe-core's script from the Node tools (OKF_NODE_TOOLS, the
// .bin directory), or "" when the tools are not named: then the
// accessibility checks are skipped, except under make test.
func axeSource(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("OKF_NODE_TOOLS")
	if dir == "" {
		if os.Getenv("OKF_CHROMIUM") != "" {
			t.Fatal("OKF_NODE_TOOLS is not set: axe-core is needed (scripts/ensure-node-tools.sh)")
		}
		return ""
	}
	b, err := os.ReadFile(filepath.Join(dir, "..", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core: %v (scripts/ensure-node-tools.sh installs it)", err)
	}
	return string(b)
}

// chromeTab is one headless Chromium tab with what it saw: console errors,
// uncaught exceptions, failed loads and JavaScript dialogs.
type chromeTab struct {
	t   *testing.T
	ctx context.Context
	axe string

	mu       sync.Mutex
	problems []string // console errors, exceptions, log errors
	dialogs  []string
}

// newBrowserEnv starts an API of variant over the page tests' corpus and a
// browser on its search page; it returns the API, the corpus ids and the tab.
func newBrowserEnv(t *testing.T, variant string, scripts bool) (*testAPI, []string, *chromeTab) {
	t.Helper()
	chromiumPath(t)
	a := newAPI(t, variant)
	ids := webCorpus(t, a.store)
	b := newBrowser(t, scripts)
	b.run("open /", chromedp.Navigate(a.url+"/"), chromedp.WaitVisible(`#q`, chromedp.ByQuery))
	return a, ids, b
}

// newBrowser starts Chromium with one tab; scripts false turns JavaScript off.
func newBrowser(t *testing.T, scripts bool) *chromeTab {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 8*time.Minute)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	b := &chromeTab{t: t, ctx: ctx, axe: axeSource(t)}
	chromedp.ListenTarget(ctx, b.listen)
	if err := chromedp.Run(ctx, log.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if !scripts {
		if err := chromedp.Run(ctx, emulation.SetScriptExecutionDisabled(true)); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func (b *chromeTab) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			b.problems = append(b.problems, "console: "+strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		b.problems = append(b.problems, "exception: "+ev.ExceptionDetails.Error())
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.LevelError {
			b.problems = append(b.problems, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
		}
	case *page.EventJavascriptDialogOpening:
		b.dialogs = append(b.dialogs, ev.Message)
		go chromedp.Run(b.ctx, page.HandleJavaScriptDialog(false)) //nolint:errcheck // best effort: the test fails anyway
	}
}

// run runs actions, failing the test on an error.
func (b *chromeTab) run(what string, actions ...chromedp.Action) {
	b.t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		var state string
		_ = chromedp.Run(b.ctx, chromedp.Evaluate(`location.href + " | q=" + ((document.getElementById("q") || {}).value) + " | cards=" + document.querySelectorAll("#results .card").length`, &state))
		b.t.Fatalf("%s: %v (page: %s)", what, err, state)
	}
}

// clean fails the test when the browser saw an error or a dialog since the
// last call.
func (b *chromeTab) clean(where string) {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Errorf("%s: %s", where, p)
	}
	for _, d := range b.dialogs {
		b.t.Errorf("%s: a dialog opened: %q", where, d)
	}
	b.problems, b.dialogs = nil, nil
}

// screenshot saves the whole page as name.png under screenshotDir
// (quality 100 is PNG).
func (b *chromeTab) screenshot(name string) {
	b.t.Helper()
	var png []byte
	b.run("screenshot "+name, chromedp.FullScreenshot(&png, 100))
	if err := os.MkdirAll(screenshotDir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(screenshotDir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// axeCheck runs axe-core in the page: no serious or critical violation.
func (b *chromeTab) axeCheck(where string) {
	b.t.Helper()
	if b.axe == "" {
		return
	}
	var found []struct {
		ID, Impact, Help string
		Nodes            int
	}
	b.run("axe "+where,
		chromedp.Evaluate(b.axe, nil),
		chromedp.Evaluate(`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
			.filter(v => v.impact === "serious" || v.impact === "critical")
			.map(v => ({ID: v.id, Impact: v.impact, Help: v.help, Nodes: v.nodes.length})))`, &found,
			awaitPromise))
	for _, v := range found {
		b.t.Errorf("%s: axe %s (%s): %s, %d nodes", where, v.ID, v.Impact, v.Help, v.Nodes)
	}
}

// waitJS polls a JavaScript condition until it is true.
func waitJS(expr string) chromedp.Action {
	return chromedp.Poll(expr, nil, chromedp.WithPollingTimeout(10*time.Second))
}
