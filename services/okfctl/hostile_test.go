package main

import (
	"bytes"
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/okfindex/okf-index/pkg/cardsize"
	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
)

// hostileTree copies testdata/hostile into a temporary directory and adds
// what is too large to keep there: a root listing 24 concept names of
// 80 KB, and a root whose description the test's extra index cannot hold
// (incompressible, past a B-tree row), so that the database refuses it.
func hostileTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := "../../testdata/hostile"
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	var big strings.Builder
	big.WriteString("---\nokf_version: \"0.2\"\ntitle: Twenty-four huge names\n---\n\n")
	for i := range 24 {
		big.WriteString("- [" + strings.Repeat("n", 80<<10) + string(rune('a'+i)) + "](c" + string(rune('a'+i)) + ".md) - s\n")
	}
	r := rand.New(rand.NewPCG(3, 4))
	var cjk strings.Builder
	for range 1000 {
		cjk.WriteRune(rune(0x4e00 + r.IntN(0x5000)))
	}
	for name, body := range map[string]string{
		"sizes/huge/index.md":      big.String(),
		"refused/kb/bad/index.md":  "---\nokf_version: \"0.2\"\ntitle: Refused\n---\n\n" + cjk.String() + "\n",
		"refused/kb/good/index.md": "---\nokf_version: \"0.2\"\ntitle: Written beside a refused one\n---\n\n- [A](a.md)\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestImportHostileCorpus imports the hostile corpus: the good bundles are
// indexed, each hostile one is capped, cleaned or refused alone with its
// reason in the owner status, and the import's output names every failure.
func TestImportHostileCorpus(t *testing.T) {
	ctx := context.Background()
	dbURL := storetest.NewDatabase(t)
	st, err := store.Open(ctx, store.Config{URL: dbURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	// A B-tree over the description stands in for any index a long field
	// could overflow (SQLSTATE 54000), as names did bundles_live_name.
	if _, err := st.Pool().Exec(ctx, `CREATE INDEX test_description ON bundles (description)`); err != nil {
		t.Fatal(err)
	}
	dir := hostileTree(t)
	var out bytes.Buffer
	sum, err := importTree(ctx, st, dir, &out, time.Now())
	if err == nil || !strings.Contains(err.Error(), "5 index.md files failed") {
		t.Fatalf("import: %v (summary %+v)\n%s", err, sum, out.String())
	}
	for _, line := range []string{"signals/forks: repo.json: repository signal forks = 4611686018427387904",
		"signals/negative: repo.json: repository signal stars = -5", "signals/overflow: repo.json:", "signals/notjson: repo.json:",
		"refused/kb bad/index.md: not imported"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, out.String())
		}
	}
	id := func(owner, name, path string) string { return source.Repo{Owner: owner, Name: name, Path: path}.ID() }

	// The good bundles, whatever their neighbours.
	for _, g := range [][3]string{{"longnames", "kb", "good/index.md"}, {"signals", "fine", "index.md"},
		{"yaml", "kinds", "good/index.md"}, {"okf-index", "field-guide", "index.md"}, {"refused", "kb", "good/index.md"},
		{"yaml", "bomb", "index.md"}, {"surfaces", "markup", "index.md"}} {
		mustGet(t, st, id(g[0], g[1], g[2]))
	}

	// Capped, and the card says so.
	for _, c := range []struct {
		path string
		cut  []string
	}{
		{"title/index.md", []string{"name", "repo"}}, {"h1/index.md", []string{"name", "repo"}},
		{"type/index.md", []string{"type", "repo"}}, {"version/index.md", []string{"okf_version", "repo"}},
	} {
		b := mustGet(t, st, id("longnames", "kb", c.path))
		if !slices.Equal(b.Cut, c.cut) || utf8.RuneCountInString(b.Name) > cardsize.MaxName || len(b.Type) > cardsize.MaxType ||
			len(b.OKFVersion) > cardsize.MaxVersion || len(*b.Repo.Language) > cardsize.MaxSignalText {
			t.Errorf("%s: cut %q name %d type %d version %d", c.path, b.Cut, len(b.Name), len(b.Type), len(b.OKFVersion))
		}
	}
	// 24 names of 80 KB are 24 names of 200 characters; wide concepts (long
	// URLs and summaries as well) leave the card's size to list fewer.
	if b := mustGet(t, st, id("sizes", "huge", "index.md")); !slices.Equal(b.Cut, []string{"concept_name"}) || len(b.ConceptList) != 24 {
		t.Errorf("huge: cut %q, %d of %d concepts listed", b.Cut, len(b.ConceptList), b.Concepts)
	}
	if b := mustGet(t, st, id("sizes", "wide", "index.md")); !cardsize.Cut(b.Card, cardsize.CutConceptList) ||
		len(b.ConceptList) == 0 || len(b.ConceptList) == 24 || b.Concepts != 32 {
		t.Errorf("wide: cut %q, %d of %d concepts listed", b.Cut, len(b.ConceptList), b.Concepts)
	}

	// Clean text on every card.
	for _, p := range []string{"terminal", "bidi", "markup"} {
		b := mustGet(t, st, id("surfaces", p, "index.md"))
		control := func(r rune) bool {
			return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
		}
		invisible := func(r rune) bool { return control(r) || r == '\n' || r == 0x200b || r == 0x200d || r == 0x2060 }
		lines := b.Name + b.Tagline + b.Type
		for _, c := range b.ConceptList {
			lines += c.Name + c.Summary
		}
		if strings.ContainsFunc(string(lines), invisible) || strings.ContainsFunc(b.Description, control) {
			t.Errorf("%s: card carries an invisible character: %q %q", p, lines, b.Description)
		}
	}
	if b := mustGet(t, st, id("surfaces", "terminal", "index.md")); b.Name != "Clean]0;owned title[2J[31m" {
		t.Errorf("terminal name %q", b.Name)
	}

	// The impostor is flagged with the bundle it imitates.
	real, fake := id("okf-index", "field-guide", "index.md"), mustGet(t, st, id("okf-lndex", "field-guide", "index.md"))
	if fake.LookAlikeOf == nil || *fake.LookAlikeOf != real {
		t.Errorf("look-alike not flagged: %v", fake.LookAlikeOf)
	}

	// Every card fits; every stored card of the corpus.
	rows, err := st.Pool().Query(ctx, `SELECT id FROM bundles`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		ids = append(ids, s)
	}
	if len(ids) != 17 {
		t.Errorf("%d bundles stored, want 17", len(ids))
	}
	for _, i := range ids {
		if b := mustGet(t, st, i); cardsize.EncodedSize(b.Card) > cardsize.MaxCardBytes-2048 {
			t.Errorf("%s: card of %d bytes", i, cardsize.EncodedSize(b.Card))
		}
	}

	// The owner status says why each failure was not indexed.
	for _, c := range []struct{ repo, path, reason string }{
		{"signals/forks", "index.md", indexer.NotBundleInvalidSignals},
		{"signals/negative", "index.md", indexer.NotBundleInvalidSignals},
		{"signals/notjson", "index.md", indexer.NotBundleInvalidSignals},
		{"refused/kb", "bad/index.md", indexer.NotBundleWriteRefused},
		{"yaml/kinds", "nofrontmatter/index.md", "no_frontmatter"},
		{"yaml/kinds", "notclosed/index.md", "frontmatter_not_closed"},
		{"yaml/kinds", "notyaml/index.md", "frontmatter_not_yaml"},
		{"yaml/kinds", "notmapping/index.md", "frontmatter_not_mapping"},
		{"yaml/kinds", "noversion/index.md", "no_okf_version"},
	} {
		rs, err := st.RepoStatus(ctx, c.repo, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, r := range rs.Roots {
			if r.Path == c.path {
				found = true
				if r.NotBundle != c.reason || r.BundleID != "" || r.Detail == "" {
					t.Errorf("%s %s: reason %q bundle %q detail %q", c.repo, c.path, r.NotBundle, r.BundleID, r.Detail)
				}
			}
		}
		if !found {
			t.Errorf("%s %s: not in the owner status", c.repo, c.path)
		}
	}
	rs, err := st.RepoStatus(ctx, "sizes/warnings", "", 100)
	if err != nil || len(rs.Roots) != 1 || len(rs.Roots[0].Warnings) != indexer.MaxWarnings {
		t.Errorf("warnings of 2,000 broken links: %v %+v", err, rs.Roots)
	}
}
