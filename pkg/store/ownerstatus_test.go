package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/store"
)

// A read replaces the repository's rows; the status joins them to the
// bundles (live, low by path, low duplicate of which id, hidden) and lists
// the repository's bundles the read did not see; link counts reach the card
// and, after a recount, the index-wide figure.
func TestRepoStatusAndLinkCounts(t *testing.T) {
	ctx := context.Background()
	st, clk := newStore(t)
	live := repoBundle("Acme", "Docs", "okf/index.md")
	example := repoBundle("acme", "docs", "examples/demo/index.md")
	dup := repoBundle("acme", "docs", "copy/index.md")
	dup.RootSHA256 = live.RootSHA256
	old := repoBundle("acme", "docs", "old/index.md")
	for _, in := range []store.BundleInput{live, example, old} {
		mustUpsert(t, st, in)
	}
	clk.Advance(time.Minute)
	mustUpsert(t, st, dup)
	if _, err := st.HideRepoBundlesExcept(ctx, "acme/docs", []string{live.ID, example.ID, dup.ID}); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkSwept(ctx, store.CandidateRef{Owner: "Acme", Name: "Docs"}, "c0ffee", clk.Now()); err != nil {
		t.Fatal(err)
	}
	first := store.RepoRead{Repo: "Acme/Docs", Commit: "c0ffee", Roots: []store.RootVerdict{
		{Path: "okf/index.md", BundleID: live.ID, Warnings: []string{"w1"}, LinksTotal: 40, LinksMissing: 3, LinksChecked: true},
		{Path: "examples/demo/index.md", BundleID: example.ID, LinksChecked: true},
		{Path: "copy/index.md", BundleID: dup.ID, LinksTotal: 2, LinksMissing: 2, LinksChecked: true},
		{Path: "notes/index.md", NotBundle: "no_okf_version", Detail: ""},
		{Path: "stale/index.md", NotBundle: "no_frontmatter", Detail: "x"},
	}}
	if err := st.RecordRepoReads(ctx, []store.RepoRead{first, {Repo: "o/empty", Commit: "1"}}, clk.Now()); err != nil {
		t.Fatal(err)
	}
	// The next read no longer sees stale/index.md.
	first.Roots = first.Roots[:4]
	// A bundle whose file the read found no longer a bundle shows once, as
	// the read saw it.
	lost := repoBundle("acme", "docs", "lost/index.md")
	mustUpsert(t, st, lost)
	if _, err := st.HideRepoBundlesExcept(ctx, "acme/docs", []string{live.ID, example.ID, dup.ID}); err != nil {
		t.Fatal(err)
	}
	first.Roots = append(first.Roots, store.RootVerdict{Path: "lost/index.md", NotBundle: "no_okf_version"})
	if err := st.RecordRepoReads(ctx, []store.RepoRead{first}, clk.Now()); err != nil {
		t.Fatal(err)
	}
	got, err := st.RepoStatus(ctx, "ACME/docs", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Known || got.Candidate == nil || got.Candidate.SweptOID != "c0ffee" || got.Next != "" {
		t.Fatalf("status: known %v candidate %+v next %q", got.Known, got.Candidate, got.Next)
	}
	type row struct {
		path, vis, dup, reason string
		seen, pathLow          bool
	}
	var rows []row
	for _, r := range got.Roots {
		rows = append(rows, row{r.Path, r.Visibility, r.DupOf, r.NotBundle, r.Seen, r.PathLow})
	}
	want := []row{
		{"copy/index.md", "low", live.ID, "", true, false},
		{"examples/demo/index.md", "low", "", "", true, true},
		{"lost/index.md", "", "", "no_okf_version", true, false},
		{"notes/index.md", "", "", "no_okf_version", true, false},
		{"okf/index.md", "live", "", "", true, false},
		{"old/index.md", "hidden", "", "", false, false},
	}
	if !slices.Equal(rows, want) {
		t.Errorf("roots\n got %+v\nwant %+v", rows, want)
	}
	if r := got.Roots[4]; !slices.Equal(r.Warnings, []string{"w1"}) || r.LinksTotal != 40 || r.LinksMissing != 3 || r.Commit != "c0ffee" || r.ReadAt == nil {
		t.Errorf("okf root: %+v", r)
	}

	// Paging by path.
	page, err := st.RepoStatus(ctx, "acme/docs", "", 2)
	if err != nil || len(page.Roots) != 2 || page.Next != "examples/demo/index.md" {
		t.Fatalf("page 1: %+v %v", page, err)
	}
	page, err = st.RepoStatus(ctx, "acme/docs", page.Next, 2)
	if err != nil || len(page.Roots) != 2 || page.Roots[0].Path != "lost/index.md" {
		t.Fatalf("page 2: %+v %v", page, err)
	}

	unknown, err := st.RepoStatus(ctx, "nobody/nothing", "", 100)
	if err != nil || unknown.Known || len(unknown.Roots) != 0 {
		t.Fatalf("unknown: %+v %v", unknown, err)
	}

	c, ok, err := st.BundleLinks(ctx, live.ID)
	if err != nil || !ok || c != (store.LinkCounts{Total: 40, Missing: 3}) {
		t.Fatalf("links: %+v %v %v", c, ok, err)
	}
	if _, ok, _ := st.BundleLinks(ctx, old.ID); ok {
		t.Error("a bundle no read checked has link counts")
	}
	tot, err := st.LinkTotals(ctx)
	if err != nil || tot.CountedAt != nil || tot.Total != 0 {
		t.Fatalf("before a recount: %+v %v", tot, err)
	}
	if err := st.RecountLinks(ctx); err != nil {
		t.Fatal(err)
	}
	tot, err = st.LinkTotals(ctx)
	if err != nil || tot.Bundles != 3 || tot.Total != 42 || tot.Missing != 5 || tot.CountedAt == nil {
		t.Fatalf("totals: %+v %v", tot, err)
	}
}

// Writers that record reads of the same repositories at once, in opposite
// orders, all succeed and leave one row per file.
func TestRecordRepoReadsConcurrent(t *testing.T) {
	ctx := context.Background()
	st, clk := newStore(t)
	read := func(repo string, n int) store.RepoRead {
		r := store.RepoRead{Repo: repo, Commit: "c"}
		for i := range n {
			r.Roots = append(r.Roots, store.RootVerdict{Path: string(rune('a'+i)) + "/index.md", NotBundle: "no_okf_version"})
		}
		return r
	}
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			reads := []store.RepoRead{read("o/one", 3+i%3), read("o/two", 5-i%3)}
			if i%2 == 1 {
				reads[0], reads[1] = reads[1], reads[0]
			}
			errs <- st.RecordRepoReads(ctx, reads, clk.Now())
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, repo := range []string{"o/one", "o/two"} {
		got, err := st.RepoStatus(ctx, repo, "", 100)
		if err != nil || len(got.Roots) < 3 || len(got.Roots) > 5 {
			t.Errorf("%s: %d roots, %v", repo, len(got.Roots), err)
		}
	}
}
