package okf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileSet is a home's tree as a set of paths, the way callers pass it.
func fileSet(paths ...string) Files {
	set := map[string]bool{}
	for _, p := range paths {
		set[p] = true
	}
	return func(p string) bool { return set[p] }
}

// TestLinkPathSlashRule is the golden table of the "/x" rule: a link
// written "/x" in a bundle names bundle-dir/x when it exists, else the
// repository root's x when that exists, else bundle-dir/x.
func TestLinkPathSlashRule(t *testing.T) {
	tree := fileSet("okf/index.md", "okf/x.md", "okf/a.md", "okf/okf/both.md", "okf/both.md",
		"README.md", "docs/guide.md", "okf/sub/index.md", "top/index.md", "a b.md")
	for _, tc := range []struct {
		name, dir, dest, want string
		ok                    bool
	}{
		{"okf prefix written from the repo root", "okf", "/okf/x.md", "okf/x.md", true},
		{"bundle-absolute link to the bundle's own file", "okf", "/a.md", "okf/a.md", true},
		{"bundle dir wins when both exist", "okf", "/okf/both.md", "okf/okf/both.md", true},
		{"repo-root file outside the bundle", "okf", "/README.md", "README.md", true},
		{"neither exists: bundle dir", "okf", "/okf/nope.md", "okf/okf/nope.md", true},
		{"directory link from the repo root", "okf", "/okf/sub/", "okf/sub/index.md", true},
		{"directory link to the repo root", "okf", "/top/", "top/index.md", true},
		{"fragment and query dropped", "okf", "/okf/x.md#part?q", "okf/x.md", true},
		{"escapes decoded", "", "/a%20b.md", "a b.md", true},
		{"root bundle: one place only", "", "/docs/guide.md", "docs/guide.md", true},
		{"relative link", "okf", "x.md", "okf/x.md", true},
		{"dot-dot inside the repo", "okf", "../docs/guide.md", "docs/guide.md", true},
		{"dot-dot out of the repo", "okf", "../../x.md", "", false},
		{"absolute URL is not a path", "okf", "https://example.org/x.md", "", false},
		{"scheme-relative URL is not a path", "okf", "//cdn.example/x.md", "", false},
		{"mailto is not a path", "okf", "mailto:a@b.c", "", false},
		{"empty", "okf", "#only", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := LinkPath(tc.dir, tc.dest, tree)
			if got != tc.want || ok != tc.ok {
				t.Errorf("LinkPath(%q, %q) = %q, %v; want %q, %v", tc.dir, tc.dest, got, ok, tc.want, tc.ok)
			}
		})
	}
	// Without a tree, "/x" is always bundle-dir/x (the parser's default).
	if got, _ := LinkPath("okf", "/okf/x.md", nil); got != "okf/okf/x.md" {
		t.Errorf("no tree: %q", got)
	}
}

// TestParseSlashRuleURLs: the concept URL follows the rule when the tree
// is known, and stays bundle-relative without it.
func TestParseSlashRuleURLs(t *testing.T) {
	const root = gh + "o/r/HEAD/okf/index.md"
	src := []byte("---\nokf_version: \"0.1\"\ntitle: T\n---\n# T\n\n" +
		"- [X](/okf/x.md)\n- [A](/a.md)\n- [Both](/okf/both.md)\n- [Gone](/okf/gone.md)\n- [Ext](https://example.org/y)\n- [Up](../README.md)\n")
	tree := fileSet("okf/index.md", "okf/x.md", "okf/a.md", "okf/okf/both.md", "okf/both.md", "README.md")
	for _, tc := range []struct {
		name  string
		files Files
		want  []string
		local int
		miss  int
	}{
		{"tree known", tree, []string{gh + "o/r/HEAD/okf/x.md", gh + "o/r/HEAD/okf/a.md", gh + "o/r/HEAD/okf/okf/both.md",
			gh + "o/r/HEAD/okf/okf/gone.md", "https://example.org/y", gh + "o/r/HEAD/README.md"}, 5, 1},
		{"tree unknown", nil, []string{gh + "o/r/HEAD/okf/okf/x.md", gh + "o/r/HEAD/okf/a.md", gh + "o/r/HEAD/okf/okf/both.md",
			gh + "o/r/HEAD/okf/okf/gone.md", "https://example.org/y", gh + "o/r/HEAD/README.md"}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			card, err := Parse(src, Root{URL: root, Label: "o/r", Dir: "okf", Files: tc.files})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range card.ConceptList {
				got = append(got, c.URL)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("urls\n got %q\nwant %q", got, tc.want)
			}
			if card.LocalLinks != tc.local || card.MissingLinks != tc.miss {
				t.Errorf("links %d missing %d; want %d, %d", card.LocalLinks, card.MissingLinks, tc.local, tc.miss)
			}
		})
	}
}

// TestCorpusMissingLinkShare prints the share of concept links that point
// at files missing from the corpus snapshot, per bundle and overall. The
// corpus keeps only some files of each repository (MANIFEST saved_files), so
// the figure is an upper bound of what the sweep, which sees whole trees,
// reports; the test checks the counts are consistent and that the "/x" rule
// never adds a missing link.
func TestCorpusMissingLinkShare(t *testing.T) {
	dir := corpusDir(t)
	var local, missing, localBefore, missingBefore, bundles int
	for _, row := range readManifest(t) {
		if !row.isBundle() {
			continue
		}
		home := filepath.Join(dir, strings.Replace(row.repo, "/", "__", 1))
		set := map[string]bool{}
		_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(home, p)
				set[filepath.ToSlash(rel)] = true
			}
			return nil
		})
		files := func(p string) bool { return set[p] }
		bdir := row.dir
		if bdir == "." {
			bdir = ""
		}
		data, err := os.ReadFile(filepath.Join(home, filepath.FromSlash(row.path)))
		if err != nil {
			t.Fatal(err)
		}
		root := corpusRoot(row.repo, bdir, row.path)
		root.Files = files
		card, err := Parse(data, root)
		if err != nil {
			t.Fatalf("%s: %v", row.key(), err)
		}
		// The same count with "/x" always read as bundle-dir/x.
		before := 0
		for _, l := range card.Links {
			if p, ok := LinkPath(bdir, l, nil); ok && !files(p) {
				before++
			}
		}
		if card.MissingLinks > card.LocalLinks || card.LocalLinks > card.Concepts {
			t.Errorf("%s: %d missing of %d local of %d concepts", row.key(), card.MissingLinks, card.LocalLinks, card.Concepts)
		}
		bundles++
		local += card.LocalLinks
		missing += card.MissingLinks
		if card.LocalLinks > 0 {
			t.Logf("%-70s %5d of %5d concept links point at missing files", row.key(), card.MissingLinks, card.LocalLinks)
		}
		after := 0
		for _, l := range card.Links {
			if p, ok := LinkPath(bdir, l, files); ok && !files(p) {
				after++
			}
		}
		if after > before {
			t.Errorf("%s: the /x rule added missing body links (%d > %d)", row.key(), after, before)
		}
		localBefore += len(card.Links)
		missingBefore += before - after
	}
	fmt.Printf("corpus: %d bundles, %d of %d concept links (%.1f%%) point at files missing from the snapshot; the /x rule found %d body links at the repository root\n",
		bundles, missing, local, 100*float64(missing)/float64(max(local, 1)), missingBefore)
}

// TestNotBundleReasons: each way a file fails to be a bundle root has its
// reason word, and still is ErrNotBundle.
func TestNotBundleReasons(t *testing.T) {
	big := "---\n" + strings.Repeat("k: v\n", MaxFrontmatterBytes/5+10) + "---\n"
	for _, tc := range []struct{ name, src, want string }{
		{"no frontmatter", "# Title\n\nokf_version: 0.1\n", ReasonNoFrontmatter},
		{"not closed", "---\nokf_version: 0.1\n# Title\n", ReasonFrontmatterNotClosed},
		{"too large", big, ReasonFrontmatterTooLarge},
		{"not yaml", "---\nokf_version: [\n---\n", ReasonFrontmatterNotYAML},
		{"not a mapping", "---\n- a\n- b\n---\n", ReasonFrontmatterNotMap},
		{"no okf_version", "---\ntitle: T\n---\n", ReasonNoVersion},
		{"empty okf_version", "---\nokf_version:\n---\n", ReasonNoVersion},
		{"a bundle", "---\nokf_version: 0.1\n---\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src), Root{URL: "https://example.org/index.md"})
			if got := NotBundleReason(err); got != tc.want {
				t.Errorf("reason %q, want %q (err %v)", got, tc.want, err)
			}
			if tc.want != "" && !errors.Is(err, ErrNotBundle) {
				t.Errorf("%v is not ErrNotBundle", err)
			}
		})
	}
}

// FuzzLinkPath: whatever the link, a path it names stays inside the home
// (no leading "/", no ".." segment), and the "/x" rule only ever picks a
// path the tree holds.
func FuzzLinkPath(f *testing.F) {
	for _, s := range []string{"/okf/x.md", "../../x", "a%2F..%2F..%2Fb", "/", "sub/", "https://x/y", "#f", "/a b.md?q#f"} {
		f.Add("okf", s)
	}
	tree := fileSet("okf/x.md", "x.md", "a/index.md")
	f.Fuzz(func(t *testing.T, dir, dest string) {
		p, ok := LinkPath(dir, dest, tree)
		if !ok {
			return
		}
		if p == "" || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") {
			t.Fatalf("LinkPath(%q, %q) = %q", dir, dest, p)
		}
		if bundle, _ := LinkPath(dir, dest, nil); bundle != p && !tree(p) {
			t.Fatalf("LinkPath(%q, %q) chose %q, which the tree lacks", dir, dest, p)
		}
	})
}
