package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/wire"
)

// seedRepoStatus writes a repository that holds every verdict: a live
// bundle with warnings and a broken link, a low example, a low duplicate, a
// hidden bundle the latest read no longer saw, and files that are not
// bundles. It returns the ids by path.
func seedRepoStatus(t *testing.T, st *store.Store) map[string]string {
	t.Helper()
	ctx := t.Context()
	now := time.Now()
	ids := map[string]string{}
	root := func(title string) []byte {
		return []byte("---\nokf_version: \"0.2\"\ntitle: " + title + "\n---\n# " + title + "\n\n- [A](a.md): one\n")
	}
	for _, f := range []struct {
		path string
		text []byte
	}{
		{"okf/index.md", root("Live")},
		{"examples/demo/index.md", root("Demo")},
		{"a/index.md", root("Twin")},
		{"b/index.md", root("Twin")},
		{"old/index.md", root("Old")},
	} {
		in, err := indexer.FromRepo(f.text, source.Repo{Owner: "Octo-Org", Name: "Handbook", Path: f.path}, indexer.RepoInfo{}, now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.UpsertBundle(ctx, in); err != nil {
			t.Fatal(err)
		}
		ids[f.path] = in.ID
		time.Sleep(2 * time.Millisecond) // a before b: a stays the live twin
	}
	if _, err := st.HideRepoBundlesExcept(ctx, "octo-org/handbook", []string{ids["okf/index.md"], ids["examples/demo/index.md"], ids["a/index.md"], ids["b/index.md"]}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddCandidates(ctx, store.DiscoveredByCodeSearch, []store.CandidateRef{{Owner: "Octo-Org", Name: "Handbook"}}); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkSwept(ctx, store.CandidateRef{Owner: "Octo-Org", Name: "Handbook"}, "0123abcd", now); err != nil {
		t.Fatal(err)
	}
	read := store.RepoRead{Repo: "octo-org/handbook", Commit: "0123abcd", Roots: []store.RootVerdict{
		{Path: "okf/index.md", BundleID: ids["okf/index.md"], Warnings: []string{"1 of 1 concept link points at missing files"}, LinksTotal: 1, LinksMissing: 1, LinksChecked: true},
		{Path: "examples/demo/index.md", BundleID: ids["examples/demo/index.md"], LinksTotal: 1, LinksChecked: true},
		{Path: "a/index.md", BundleID: ids["a/index.md"], LinksChecked: true, Warnings: manyWarnings(50)}, // recorded before the cap
		{Path: "b/index.md", BundleID: ids["b/index.md"], LinksChecked: true},
		{Path: "notes/index.md", NotBundle: "no_frontmatter", Detail: "okf: not a bundle root: frontmatter has no okf_version (no frontmatter block at the start of the file)"},
		{Path: "plain/index.md", NotBundle: "no_okf_version"},
		{Path: "open/index.md", NotBundle: "frontmatter_not_closed", Detail: "x"},
		{Path: "huge/index.md", NotBundle: "frontmatter_too_large", Detail: "x"},
	}}
	if err := st.RecordRepoReads(ctx, []store.RepoRead{read}, now); err != nil {
		t.Fatal(err)
	}
	return ids
}

// manyWarnings is n distinct warnings.
func manyWarnings(n int) []string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("warning %d", i)
	}
	return w
}

// GET /api/status answers every verdict kind, pages like GET
// /api/ping/status, says plainly that an unknown repository is not seen
// yet, and refuses a repo that breaks GitHub's naming rules; every answer
// is checked against the OpenAPI document by the harness.
func TestRepoStatus(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{config.VariantBase, config.VariantFull} {
		t.Run(variant, func(t *testing.T) {
			t.Parallel()
			a := newAPI(t, variant)
			ids := seedRepoStatus(t, a.store)
			var page wire.RepoStatusPage
			a.get("/api/status?repo=Octo-Org/Handbook", 200, &page)
			if !page.Known || page.Repo != "octo-org/handbook" || page.Commit == nil || *page.Commit != "0123abcd" ||
				page.CheckedAt == nil || page.NextCheckAt == nil || page.NextCheck == "" || page.Next != nil ||
				len(page.DiscoveredBy) != 1 || page.DiscoveredBy[0] != "code_search" {
				t.Fatalf("page: %+v", page)
			}
			capped := false
			for _, it := range page.Items {
				if it.Path == "a/index.md" {
					capped = len(it.Warnings) == indexer.MaxWarnings && it.Warnings[len(it.Warnings)-1] == "and 31 more warnings"
				}
			}
			if !capped {
				t.Error("a/index.md's 50 warnings are not answered as 19 and a count of the rest")
			}
			type verdict struct{ estado, vis, reason, dup string }
			got := map[string]verdict{}
			for _, it := range page.Items {
				v := verdict{estado: string(it.State)}
				if it.Visibility != nil {
					v.vis = string(*it.Visibility)
				}
				if it.Reason != nil {
					v.reason = *it.Reason
				}
				if it.DuplicateOf != nil {
					v.dup = *it.DuplicateOf
				}
				got[it.Path] = v
			}
			want := map[string]verdict{
				"okf/index.md":           {"publicado", "live", "", ""},
				"examples/demo/index.md": {"publicado", "low", "example_path", ""},
				"a/index.md":             {"publicado", "live", "", ""},
				"b/index.md":             {"publicado", "low", "duplicate", ids["a/index.md"]},
				"old/index.md":           {"publicado", "hidden", "not_in_tree", ""},
				"notes/index.md":         {"rejeitado", "", "no_frontmatter", ""},
				"plain/index.md":         {"rejeitado", "", "no_okf_version", ""},
				"open/index.md":          {"rejeitado", "", "frontmatter_not_closed", ""},
				"huge/index.md":          {"rejeitado", "", "frontmatter_too_large", ""},
			}
			for p, w := range want {
				if got[p] != w {
					t.Errorf("%s: %+v, want %+v", p, got[p], w)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d items, want %d", len(got), len(want))
			}
			live := page.Items[slicesIndex(page.Items, "okf/index.md")]
			if live.Links == nil || *live.Links != (wire.LinkCount{Total: 1, Missing: 1}) || len(live.Warnings) != 1 ||
				live.URL != "https://github.com/Octo-Org/Handbook/blob/HEAD/okf/index.md" || live.CheckedAt == nil {
				t.Errorf("live item: %+v", live)
			}

			// Pages of two, each path once.
			seen, path := map[string]bool{}, "/api/status?repo=octo-org/handbook&limit=2"
			for path != "" {
				var p wire.RepoStatusPage
				a.get(path, 200, &p)
				for _, it := range p.Items {
					if seen[it.Path] {
						t.Fatalf("%s twice", it.Path)
					}
					seen[it.Path] = true
				}
				path = ""
				if p.Next != nil {
					path = strings.TrimPrefix(*p.Next, publicBase)
				}
			}
			if len(seen) != len(want) {
				t.Errorf("paging saw %d paths, want %d", len(seen), len(want))
			}

			var unknown wire.RepoStatusPage
			a.get("/api/status?repo=nobody/nothing", 200, &unknown)
			if unknown.Known || len(unknown.Items) != 0 || !strings.Contains(unknown.Message, "has not been seen yet") ||
				!strings.Contains(unknown.Message, "okf_version") || unknown.NextCheckAt != nil {
				t.Errorf("unknown: %+v", unknown)
			}

			for _, c := range []struct{ query, name, field string }{
				{"", "invalid_repo", "repo"},
				{"repo=", "invalid_repo", "repo"},
				{"repo=octo-org", "invalid_repo", "repo"},
				{"repo=a/b/c", "invalid_repo", "repo"},
				{"repo=-octo/x", "invalid_repo", "repo"},
				{"repo=octo-/x", "invalid_repo", "repo"},
				{"repo=oc--to/x", "invalid_repo", "repo"},
				{"repo=" + strings.Repeat("o", 40) + "/x", "invalid_repo", "repo"},
				{"repo=octo/" + strings.Repeat("x", 101), "invalid_repo", "repo"},
				{"repo=octo/..", "invalid_repo", "repo"},
				{"repo=octo/a%20b", "invalid_repo", "repo"},
				{"repo=octo_org/x", "invalid_repo", "repo"},
				{"repo=%C3%A9/x", "invalid_repo", "repo"},
				{"repo=a/b&repo=c/d", "invalid_parameter", "repo"},
				{"repo=a/b&limit=0", "invalid_parameter", "limit"},
				{"repo=a/b&limit=x", "invalid_parameter", "limit"},
				{"repo=a/b&cursor=%01", "invalid_parameter", "cursor"},
			} {
				var e wire.ErrorBody
				a.get("/api/status?"+c.query, 400, &e)
				if e.Error != c.name || e.Field != c.field || e.Message == "" {
					t.Errorf("%q: %+v", c.query, e)
				}
			}
		})
	}
}

func slicesIndex(items []wire.RepoRootState, path string) int {
	for i, it := range items {
		if it.Path == path {
			return i
		}
	}
	return -1
}
