package worker_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
	"github.com/riverqueue/river"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/github"
	"github.com/okfindex/okf-index/pkg/githubtest"
	"github.com/okfindex/okf-index/pkg/jobs"
	"github.com/okfindex/okf-index/pkg/ops"
	"github.com/okfindex/okf-index/pkg/wire"
	"github.com/okfindex/okf-index/services/api/server"
	"github.com/okfindex/okf-index/services/worker/worker"
)

// ownerRepo is a repository holding an index.md of every verdict kind.
func ownerRepo(now time.Time) githubtest.Repo {
	root := func(title, body string) []byte {
		return []byte("---\nokf_version: \"0.2\"\ntitle: " + title + "\n---\n# " + title + "\n\n" + body)
	}
	twin := root("Twin", "- [A](a.md): one\n")
	return githubtest.Repo{
		Owner: "Octo-Org", Name: "Handbook", CreatedAt: now.AddDate(-1, 0, 0), PushedAt: now.AddDate(0, 0, -1),
		DefaultBranch: "main",
		Files: map[string][]byte{
			"README.md": []byte("# Handbook\n"),
			// Written from the repository root ("/okf/x.md"), bundle-absolute
			// ("/y.md"), and one link to nothing.
			"okf/index.md":           root("Live", "- [X](/okf/x.md): from the root\n- [Y](/y.md): in the bundle\n- [Readme](/README.md): the readme\n- [Gone](gone.md): missing\n"),
			"okf/x.md":               []byte("# X\n"),
			"okf/y.md":               []byte("# Y\n"),
			"examples/demo/index.md": root("Demo", "- [A](a.md): one\n"),
			"a/index.md":             twin,
			"b/index.md":             twin,
			"old/index.md":           root("Old", "- [A](a.md): one\n"),
			"notes/index.md":         []byte("# Notes\n\nokf_version: 0.1 in the body does not count\n"),
			"plain/index.md":         []byte("---\ntitle: Plain\n---\n# Plain\n"),
			"open/index.md":          []byte("---\nokf_version: \"0.2\"\n# Never closed\n"),
			"huge/index.md":          []byte("---\nokf_version: \"0.2\"\n" + strings.Repeat("k: v\n", 60000) + "---\n# Huge\n"),
			"bin/index.md":           []byte("\x00\x01binary\x00"),
		},
	}
}

// The owner status over the local GitHub: a sweep of a repository holding
// every verdict kind, read through the real API (GET /api/status): live
// with its lint warnings and link counts, low by example path, low
// duplicate of which id, hidden once the file left the tree, and each way a
// file is not a bundle; the "/okf/x.md" link resolves to the repository
// root's file; the card page says how many concept links are broken.
func TestSweepOwnerStatus(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := newHarnessWith(t, githubtest.Options{}, false)
	h.gh.AddRepo(ownerRepo(h.clock.Now()))
	client := h.startWorker(ctx, worker.SweepConfig{Seeds: []github.RepoRef{{Owner: "Octo-Org", Name: "Handbook"}}})
	h.firstRound(ctx)

	api := startOwnerAPI(t, h)
	page := getStatus(t, api, "octo-org/handbook")
	checkVerdicts(t, page, map[string]string{
		"okf/index.md":           "publicado live",
		"examples/demo/index.md": "publicado low example_path",
		"a/index.md":             "publicado live",
		"b/index.md":             "publicado low duplicate",
		"old/index.md":           "publicado live",
		"notes/index.md":         "rejeitado no_frontmatter",
		"plain/index.md":         "rejeitado no_okf_version",
		"open/index.md":          "rejeitado frontmatter_not_closed",
		"huge/index.md":          "rejeitado frontmatter_too_large",
		"bin/index.md":           "rejeitado binary",
	})
	items := map[string]wire.RepoRootState{}
	for _, it := range page.Items {
		items[it.Path] = it
	}
	if b, a := items["b/index.md"], items["a/index.md"]; b.DuplicateOf == nil || a.BundleID == nil || *b.DuplicateOf != *a.BundleID {
		t.Errorf("b duplicates %v, want a's id %v", b.DuplicateOf, a.BundleID)
	}
	live := items["okf/index.md"]
	if live.Links == nil || *live.Links != (wire.LinkCount{Total: 4, Missing: 1}) {
		t.Errorf("live links: %+v", live.Links)
	}
	wantWarn := []string{`link "gone.md" points at a missing file`, "1 of 4 concept links point at missing files"}
	if strings.Join(live.Warnings, "|") != strings.Join(wantWarn, "|") {
		t.Errorf("live warnings %q, want %q", live.Warnings, wantWarn)
	}
	if page.Commit == nil || live.Commit == nil || *live.Commit != *page.Commit || page.CheckedAt == nil || page.NextCheckAt == nil ||
		!page.NextCheckAt.After(page.CheckedAt.Time) {
		t.Errorf("read: commit %v/%v checked %v next %v", page.Commit, live.Commit, page.CheckedAt, page.NextCheckAt)
	}
	card, err := h.st.GetBundle(ctx, *live.BundleID)
	if err != nil {
		t.Fatal(err)
	}
	if u := card.ConceptList[0].URL; u != "https://raw.githubusercontent.com/Octo-Org/Handbook/main/okf/x.md" {
		t.Errorf("/okf/x.md resolved to %s, want the repository root's okf/x.md", u)
	}
	resp, err := http.Get(api + "/b/" + *live.BundleID)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(html), "1 of 4 concept links point at missing files") {
		t.Errorf("the card page does not say how many concept links are broken")
	}

	// The hourly recount brings the index-wide figure to the operator
	// metrics: the five non-hidden bundles hold 4+1+1+1+1 concept links in
	// the repository; gone.md and the four a.md are missing: 5 of 8.
	if err := (&worker.RecountStatsWorker{Store: h.st}).Work(ctx, &river.Job[jobs.RecountStatsArgs]{}); err != nil {
		t.Fatal(err)
	}
	scrape := gatherText(t, ops.NewRegistry(h.st, quietLog()))
	for _, want := range []string{`okf_concept_links{state="total"} 8`, `okf_concept_links{state="missing"} 5`,
		"okf_concept_links_missing_ratio 0.625", "okf_concept_links_bundles 5"} {
		if !strings.Contains(scrape, want) {
			t.Errorf("metrics lack %q:\n%s", want, scrape)
		}
	}

	// The file leaves the tree: its bundle is hidden, not_in_tree.
	h.gh.RemoveFile("Octo-Org", "Handbook", "old/index.md")
	h.gh.SetFile("Octo-Org", "Handbook", "okf/gone.md", []byte("# Gone no more\n"))
	h.round(ctx, client)
	page = getStatus(t, api, "octo-org/handbook")
	checkVerdicts(t, page, map[string]string{"old/index.md": "publicado hidden not_in_tree"})
	for _, it := range page.Items {
		if it.Path == "okf/index.md" && (it.Links == nil || it.Links.Missing != 0 || len(it.Warnings) != 0) {
			t.Errorf("after the fix: links %+v warnings %q", it.Links, it.Warnings)
		}
	}

	// The repository goes: every bundle hidden, repository_gone.
	h.gh.RemoveRepo("Octo-Org", "Handbook")
	h.round(ctx, client)
	page = getStatus(t, api, "octo-org/handbook")
	if !page.Gone || page.NextCheckAt != nil {
		t.Errorf("gone: %+v", page)
	}
	checkVerdicts(t, page, map[string]string{"okf/index.md": "publicado hidden repository_gone"})

	unknown := getStatus(t, api, "someone/else")
	if unknown.Known || !strings.Contains(unknown.Message, "not been seen yet") {
		t.Errorf("unknown: %+v", unknown)
	}
}

// gatherText is a registry's metrics in the text format.
func gatherText(t *testing.T, g prometheus.Gatherer) string {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, mf := range mfs {
		if _, err := expfmt.MetricFamilyToText(&b, mf); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// startOwnerAPI serves the real API over the harness's database.
func startOwnerAPI(t *testing.T, h *harness) string {
	t.Helper()
	cfg, err := config.Load(func(k string) string { return map[string]string{"PUBLIC_BASE_URL": "https://okf-index.example"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(h.st, server.Options{Config: cfg, Build: "test", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(srv.Close)
	t.Cleanup(hs.Close)
	return hs.URL
}

func getStatus(t *testing.T, api, repo string) wire.RepoStatusPage {
	t.Helper()
	resp, err := http.Get(api + "/api/status?repo=" + repo)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page wire.RepoStatusPage
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d: %v", resp.StatusCode, err)
	}
	return page
}

// checkVerdicts compares "estado visibility reason" of the items named.
func checkVerdicts(t *testing.T, page wire.RepoStatusPage, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, it := range page.Items {
		v := []string{string(it.State)}
		if it.Visibility != nil {
			v = append(v, string(*it.Visibility))
		}
		if it.Reason != nil {
			v = append(v, *it.Reason)
		}
		got[it.Path] = strings.Join(v, " ")
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %q, want %q", p, got[p], w)
		}
	}
}
