package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

func TestImportExamples(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

	sum, err := importTree(ctx, st, "../../examples", io.Discard, t0)
	if err != nil {
		t.Fatal(err)
	}
	want := importSummary{Repos: 6, Bundles: 8, Created: 8, NotBundles: 3}
	if sum != want {
		t.Fatalf("first import: %+v, want %+v", sum, want)
	}

	guide := mustGet(t, st, source.Repo{Owner: "okf-index", Name: "field-guide", Path: "index.md"}.ID())
	if guide.Name != "OKF Field Guide" || guide.Concepts != 4 || guide.Visibility != wire.VisibilityLive ||
		guide.Repo == nil || guide.Repo.Stars != 42 || *guide.Repo.Language != "Go" || *guide.Repo.State != source.StateActive {
		t.Errorf("field guide card: %+v repo %+v", guide.Card, guide.Repo)
	}
	if guide.IndexURL != "https://raw.githubusercontent.com/okf-index/field-guide/main/index.md" {
		t.Errorf("index_url = %s (repo.json default_branch is main)", guide.IndexURL)
	}
	hydro := mustGet(t, st, source.Repo{Owner: "rivers-lab", Name: "hydrology-notes", Path: ".okf/index.md"}.ID())
	if hydro.OKFVersion != "0.1" || *hydro.Repo.State != source.StateStalled || hydro.Concepts != 3 {
		t.Errorf("hidden-dir bundle: version %q state %q concepts %d", hydro.OKFVersion, *hydro.Repo.State, hydro.Concepts)
	}
	receitas := mustGet(t, st, source.Repo{Owner: "cozinha-aberta", Name: "receitas", Path: "docs/okf/index.md"}.ID())
	if *receitas.Repo.State != source.StateArchived {
		t.Errorf("archived repository state = %q", *receitas.Repo.State)
	}
	runbooks := mustGet(t, st, source.Repo{Owner: "tinyco", Name: "ops-runbooks", Path: "okf/index.md"}.ID())
	if runbooks.Name != "tinyco/ops-runbooks · okf" || runbooks.Visibility != wire.VisibilityLive {
		t.Errorf("fallback-name bundle: name %q visibility %s", runbooks.Name, runbooks.Visibility)
	}
	for _, low := range []source.Repo{
		{Owner: "tinyco", Name: "ops-runbooks", Path: "okf/test/fixtures/sample/index.md"}, // fixture path
		{Owner: "tinyco", Name: "ops-runbooks-mirror", Path: "okf/index.md"},               // exact duplicate
	} {
		if b := mustGet(t, st, low.ID()); b.Visibility != wire.VisibilityLow {
			t.Errorf("%s: visibility %s, want low", low.Identity(), b.Visibility)
		}
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Total != 6 || stats.ByOrigin[source.OriginCodeHost] != 6 || stats.ByOrigin[source.OriginDomain] != 0 {
		t.Errorf("stats after import: total %d by_origin %v, want 6 live code_host bundles", stats.Total, stats.ByOrigin)
	}

	// Re-importing unchanged content changes nothing, not even updated_at.
	sum, err = importTree(ctx, st, "../../examples", io.Discard, t0.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := (importSummary{Repos: 6, Bundles: 8, Unchanged: 8, NotBundles: 3}); sum != want {
		t.Fatalf("re-import: %+v, want %+v", sum, want)
	}
	if again := mustGet(t, st, guide.ID); again.UpdatedAt != guide.UpdatedAt || again.IndexedAt != guide.IndexedAt {
		t.Errorf("re-import moved timestamps: %v/%v -> %v/%v", guide.IndexedAt, guide.UpdatedAt, again.IndexedAt, again.UpdatedAt)
	}
}

func TestImportUpdatesAndHides(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	dir := writeTree(t, map[string]string{
		"acme/docs/a/index.md": "---\nokf_version: \"0.2\"\ntitle: A\n---\n- [x](x.md)\n",
		"acme/docs/b/index.md": "---\nokf_version: \"0.2\"\ntitle: B\n---\n- [y](y.md)\n",
	})
	if _, err := importTree(ctx, st, dir, io.Discard, time.Now()); err != nil {
		t.Fatal(err)
	}
	a := source.Repo{Owner: "acme", Name: "docs", Path: "a/index.md"}.ID()
	b := source.Repo{Owner: "acme", Name: "docs", Path: "b/index.md"}.ID()
	before := mustGet(t, st, a)

	if err := os.WriteFile(filepath.Join(dir, "acme/docs/a/index.md"), []byte("---\nokf_version: \"0.2\"\ntitle: A renamed\n---\n- [x](x.md)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "acme/docs/b")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // timestamps have one-second resolution
	sum, err := importTree(ctx, st, dir, io.Discard, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Updated != 1 || sum.Hidden != 1 {
		t.Fatalf("second import: %+v, want 1 updated and 1 hidden", sum)
	}
	after := mustGet(t, st, a)
	if after.Name != "A renamed" || !after.UpdatedAt.After(before.UpdatedAt.Time) || after.IndexedAt != before.IndexedAt {
		t.Errorf("changed bundle: name %q updated %v -> %v indexed %v -> %v", after.Name, before.UpdatedAt, after.UpdatedAt, before.IndexedAt, after.IndexedAt)
	}
	if _, err := st.GetBundle(ctx, b); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("bundle removed from the tree: GetBundle err = %v, want ErrNotFound", err)
	}
}

// Every real bundle root of the corpus imports; no negative does.
func TestImportRealCorpus(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	corpus := corpusDir(t)
	tree := t.TempDir()
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		owner, repo, ok := strings.Cut(e.Name(), "__")
		if !e.IsDir() || !ok {
			continue
		}
		if err := os.CopyFS(filepath.Join(tree, owner, repo), os.DirFS(filepath.Join(corpus, e.Name()))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := importTree(ctx, st, tree, io.Discard, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, row := range readManifest(t, corpus) {
		owner, name, _ := strings.Cut(row.Repo, "/")
		id := source.Repo{Owner: owner, Name: name, Path: row.IndexPath}.ID()
		b, err := st.GetBundle(ctx, id)
		switch {
		case row.isBundle() && err != nil:
			t.Errorf("%s %s (%s): not imported: %v", row.Repo, row.IndexPath, row.Kind, err)
		case !row.isBundle() && err == nil:
			t.Errorf("%s %s (%s): imported, but it is not a bundle", row.Repo, row.IndexPath, row.Kind)
		case row.Kind == "fixture" && b.Visibility != wire.VisibilityLow:
			t.Errorf("%s %s: fixture is %s, want low", row.Repo, row.IndexPath, b.Visibility)
		}
	}
}

func mustGet(t *testing.T, st *store.Store, id string) store.Bundle {
	t.Helper()
	b, err := st.GetBundle(context.Background(), id)
	if err != nil {
		t.Fatalf("GetBundle(%s): %v", id, err)
	}
	return b
}

// An import records what it made of every index.md for the owner status,
// as the sweep does: bundles with their lint warnings and concept links
// checked against the files on disk ("/okf/x.md" from the repository root),
// and files that are not bundles with the reason.
func TestImportRecordsOwnerStatus(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	dir := writeTree(t, map[string]string{
		"acme/docs/okf/index.md":   "---\nokf_version: \"0.2\"\ntitle: Docs\n---\n- [x](/okf/x.md)\n- [y](y.md)\n",
		"acme/docs/okf/x.md":       "# X\n",
		"acme/docs/notes/index.md": "# Notes\n",
	})
	if _, err := importTree(ctx, st, dir, io.Discard, time.Now()); err != nil {
		t.Fatal(err)
	}
	status, err := st.RepoStatus(ctx, "acme/docs", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(status.Roots) != 2 {
		t.Fatalf("roots: %+v", status.Roots)
	}
	notes, docs := status.Roots[0], status.Roots[1]
	if notes.Path != "notes/index.md" || notes.NotBundle != "no_frontmatter" || notes.ReadAt == nil {
		t.Errorf("notes: %+v", notes)
	}
	want := []string{`link "y.md" points at a missing file`, "1 of 2 concept links point at missing files"}
	if docs.Path != "okf/index.md" || docs.Visibility != "live" || !docs.LinksChecked || docs.LinksTotal != 2 || docs.LinksMissing != 1 ||
		strings.Join(docs.Warnings, "|") != strings.Join(want, "|") {
		t.Errorf("docs: %+v", docs)
	}
	card := mustGet(t, st, docs.BundleID)
	if u := card.ConceptList[0].URL; !strings.HasSuffix(u, "/HEAD/okf/x.md") {
		t.Errorf("/okf/x.md resolved to %s", u)
	}
}
