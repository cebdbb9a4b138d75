package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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

// okfctl import reads the real corpus as it is laid out (<owner>__<repo>
// folders and MANIFEST.tsv), as the README's example runs it: every bundle
// root imports under its repository's display name with the manifest's
// signals, no negative does, the folders of no GitHub repository are
// skipped with a line saying so, and it prints a line per repository and
// the summary.
func TestImportRealCorpus(t *testing.T) {
	ctx := context.Background()
	dbURL := storetest.NewDatabase(t)
	t.Setenv("DATABASE_URL", dbURL)
	corpus := corpusDir(t)
	var stdout, stderr bytes.Buffer
	if err := importCmd(ctx, []string{corpus}, &stdout, &stderr); err != nil {
		t.Fatalf("okfctl import %s: %v\n%s", corpus, err, stderr.String())
	}
	st, err := store.Open(ctx, store.Config{URL: dbURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)

	repos := map[string]bool{}
	for _, row := range readManifest(t, corpus) {
		owner, name, _ := strings.Cut(row.Repo, "/")
		if _, err := os.Stat(filepath.Join(corpus, owner+"__"+name)); err != nil {
			continue // a row of a file kept apart (the specification)
		}
		id := source.Repo{Owner: owner, Name: name, Path: row.IndexPath}.ID()
		b, err := st.GetBundle(ctx, id)
		switch {
		case row.Kind == "unattributed":
			if err == nil {
				t.Errorf("%s %s: imported, but %s is no GitHub repository", row.Repo, row.IndexPath, row.Repo)
			}
			continue
		case row.isBundle() && err != nil:
			t.Errorf("%s %s (%s): not imported: %v", row.Repo, row.IndexPath, row.Kind, err)
		case !row.isBundle() && err == nil:
			t.Errorf("%s %s (%s): imported, but it is not a bundle", row.Repo, row.IndexPath, row.Kind)
		case row.Kind == "fixture" && b.Visibility != wire.VisibilityLow:
			t.Errorf("%s %s: fixture is %s, want low", row.Repo, row.IndexPath, b.Visibility)
		}
		if err == nil && (!b.Imported || b.Source.Via != "sweep") {
			t.Errorf("%s %s: imported %v via %q, want imported through the sweep's path", row.Repo, row.IndexPath, b.Imported, b.Source.Via)
		}
		if err == nil && !strings.Contains(b.IndexURL, "/"+row.Repo+"/") {
			t.Errorf("%s %s: index_url %s does not name the repository as displayed", row.Repo, row.IndexPath, b.IndexURL)
		}
		repos[row.Repo] = true
	}

	// The manifest's signals, read as GitHub would give them.
	for _, c := range []struct {
		repo, path, language, license string
	}{
		{"DreamLab-AI/knowledgeGraph", "okf/index.md", "Rust", "AGPL-3.0"},
		{"zeyos/client", "okf/index.md", "JavaScript", "MIT"},                     // "JavaScript (mjs)"
		{"floegence/redeven", "okf/index.md", "TypeScript", "MIT"},                // "TypeScript/Go"
		{"chris-page-gov/okf-LandRegistry", "bundle/index.md", "", "NOASSERTION"}, // "(generated data)", custom text
		{"Jidoseal/awesome-okf", "bundle/index.md", "", ""},
	} {
		owner, name, _ := strings.Cut(c.repo, "/")
		b := mustGet(t, st, source.Repo{Owner: owner, Name: name, Path: c.path}.ID())
		if got := deref(b.Repo.Language); got != c.language {
			t.Errorf("%s: language %q, want %q", c.repo, got, c.language)
		}
		if got := deref(b.Repo.License); got != c.license {
			t.Errorf("%s: license %q, want %q", c.repo, got, c.license)
		}
	}

	t.Logf("okfctl import %s:\n%s%s", corpus, stderr.String(), stdout.String())
	// A line per repository, the skipped folders, then the summary.
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	for repo := range repos {
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, repo+": ") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d lines for %s, want one:\n%s", n, repo, stderr.String())
		}
	}
	for _, want := range []string{
		"DreamLab-AI/knowledgeGraph: 1 new (Rust, AGPL-3.0)\n",
		"_unattributed__findstring-59527638711: skipped: \"_unattributed\" is not a GitHub owner name\n",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "__") && strings.Contains(stderr.String(), "__client") {
		t.Errorf("a repository named after its folder:\n%s", stderr.String())
	}
	want := fmt.Sprintf("imported %d bundles from %d repositories:", 0, len(repos))
	summary := strings.TrimSpace(stdout.String())
	if !strings.HasPrefix(summary[strings.Index(summary, " from "):], want[strings.Index(want, " from "):]) ||
		!strings.HasSuffix(summary, "; 0 failed; 3 folders skipped") || strings.Count(stdout.String(), "\n") != 1 {
		t.Errorf("summary %q, want one line: %s ... 0 failed; 3 folders skipped", stdout.String(), want)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// A DIR an import cannot read is refused whole, in one line that says why,
// and nothing is written.
func TestImportRefusesLayouts(t *testing.T) {
	idx := "---\nokf_version: \"0.2\"\ntitle: T\n---\n- [x](x.md)\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"both layouts", map[string]string{"acme__docs/index.md": idx, "acme/docs/index.md": idx},
			"mixes <owner>__<repo> folders (acme__docs, ...) with <owner>/ directories (acme, ...); an import reads one layout"},
		{"nothing to read", map[string]string{"README.md": "# hi\n"},
			"holds no <owner>/<repo> directories and no <owner>__<repo> folders"},
		{"manifest without owner/repo", map[string]string{"MANIFEST.tsv": "repo\tstars\nacme/docs\t3\n", "acme__docs/index.md": idx},
			"MANIFEST.tsv has no owner/repo column in its header (tab-separated)"},
		{"manifest row without a repository", map[string]string{"MANIFEST.tsv": "owner/repo\tstars\nacme\t3\n", "acme__docs/index.md": idx},
			`MANIFEST.tsv line 2: "acme" is not owner/repo`},
		{"only folders of no repository", map[string]string{"_x__docs/index.md": idx},
			`holds no folder naming a GitHub repository (_x__docs: "_x" is not a GitHub owner name)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := storetest.NewStore(t)
			dir := writeTree(t, tt.files)
			var out bytes.Buffer
			_, err := importTree(context.Background(), st, dir, &out, time.Now())
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %q", err, tt.want)
			}
			if out.Len() != 0 {
				t.Errorf("a refused import printed:\n%s", out.String())
			}
			page, err := st.Search(context.Background(), store.SearchParams{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(page) != 0 {
				t.Errorf("a refused import wrote %d bundles", len(page))
			}
		})
	}
}

// The flat layout with a manifest: names as the manifest displays them,
// signals from its first row that gives each, a repo.json in the folder
// left as the repository's own file, a bad count failing its repository
// alone.
func TestImportFlatLayout(t *testing.T) {
	ctx := context.Background()
	st := storetest.NewStore(t)
	idx := "---\nokf_version: \"0.2\"\ntitle: %s\n---\n- [x](x.md)\n"
	dir := writeTree(t, map[string]string{
		"MANIFEST.tsv": "owner/repo\tbundle_dir\tstars\tforks\tlanguage\tlicense\tkind\n" +
			"Acme/Docs\ta\t1,234\t\tGo/CUDA\tApache-2.0\tbundle\n" +
			"Acme/Docs\tb\t\t7\tPython\t\tbundle\n" +
			"acme/bad\t.\tmany\t\t\t\tbundle\n",
		"acme__docs/a/index.md": fmt.Sprintf(idx, "A"),
		"acme__docs/b/index.md": fmt.Sprintf(idx, "B"),
		"acme__docs/repo.json":  `{"stars": 99}`,
		"acme__bad/index.md":    fmt.Sprintf(idx, "Bad"),
		"other__kb/index.md":    fmt.Sprintf(idx, "Other"),
	})
	var out bytes.Buffer
	sum, err := importTree(ctx, st, dir, &out, time.Now())
	if err == nil || !strings.Contains(err.Error(), "1 index.md files failed") {
		t.Fatalf("import: %v\n%s", err, out.String())
	}
	if want := (importSummary{Repos: 3, Bundles: 3, Created: 3, Failed: 1}); sum != want {
		t.Errorf("summary %+v, want %+v", sum, want)
	}
	a := mustGet(t, st, source.Repo{Owner: "Acme", Name: "Docs", Path: "a/index.md"}.ID())
	if a.Repo.Stars != 1234 || a.Repo.Forks != 7 || deref(a.Repo.Language) != "Go" || deref(a.Repo.License) != "Apache-2.0" ||
		a.IndexURL != "https://raw.githubusercontent.com/Acme/Docs/HEAD/a/index.md" {
		t.Errorf("Acme/Docs: %+v %s", a.Repo, a.IndexURL)
	}
	other := mustGet(t, st, source.Repo{Owner: "other", Name: "kb", Path: "index.md"}.ID())
	if other.Repo.Stars != 0 || other.Repo.Language != nil {
		t.Errorf("a repository the manifest does not name: %+v", other.Repo)
	}
	for _, want := range []string{
		"Acme/Docs: 2 new (Go, 1234 stars, Apache-2.0)\n",
		"other/kb: 1 new\n",
		`acme/bad: MANIFEST.tsv: stars "many" is not a whole number`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestManifestSignals(t *testing.T) {
	tests := []struct {
		in   manifestRepo
		want repoJSON
		err  string
	}{
		{manifestRepo{}, repoJSON{}, ""},
		{manifestRepo{stars: "42", forks: "1_000", language: "Rust", license: "MIT"}, repoJSON{Stars: 42, Forks: 1000, Language: "Rust", License: "MIT"}, ""},
		{manifestRepo{language: "JavaScript (mjs)"}, repoJSON{Language: "JavaScript"}, ""},
		{manifestRepo{language: "Markdown/JSON (data repo)"}, repoJSON{Language: "Markdown"}, ""},
		{manifestRepo{language: "(generated data)"}, repoJSON{}, ""},
		{manifestRepo{language: "C#"}, repoJSON{Language: "C#"}, ""},
		{manifestRepo{license: "proprietary (All rights reserved)"}, repoJSON{License: "NOASSERTION"}, ""},
		{manifestRepo{license: "CC BY-NC-ND? (custom text)"}, repoJSON{License: "NOASSERTION"}, ""},
		{manifestRepo{license: "BSD-3-Clause"}, repoJSON{License: "BSD-3-Clause"}, ""},
		{manifestRepo{stars: "-1"}, repoJSON{}, `stars "-1" is not a whole number`},
		{manifestRepo{forks: "1e9"}, repoJSON{}, `forks "1e9" is not a whole number`},
		{manifestRepo{stars: "4611686018427387904"}, repoJSON{}, `stars "4611686018427387904" is not a whole number`},
	}
	for _, tt := range tests {
		got, err := tt.in.signals()
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%+v: err %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got.Stars != tt.want.Stars || got.Forks != tt.want.Forks || got.Language != tt.want.Language || got.License != tt.want.License {
			t.Errorf("%+v: %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestRepoNameProblem(t *testing.T) {
	for _, c := range []struct {
		owner, name string
		ok          bool
	}{
		{"DreamLab-AI", "knowledgeGraph", true},
		{"a", "b.c_d-e", true},
		{"_unattributed", "findstring-1", false},
		{"-a", "b", false},
		{"a-", "b", false},
		{"a--b", "c", false},
		{strings.Repeat("a", 40), "b", false},
		{"a", "", false},
		{"a", "..", false},
		{"a", "b c", false},
		{"a", strings.Repeat("b", 101), false},
		{"", "b", false},
	} {
		if got := repoNameProblem(c.owner, c.name); (got == "") != c.ok {
			t.Errorf("repoNameProblem(%q, %q) = %q, want ok %v", c.owner, c.name, got, c.ok)
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
