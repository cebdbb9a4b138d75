package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/api"
)

func lint(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code, err := lintCmd(args, &out, &errOut)
	if err != nil {
		t.Fatalf("lint %v: %v (%s)", args, err, errOut.String())
	}
	return code, out.String()
}

func TestLintCorpusBundlesAndNegatives(t *testing.T) {
	corpus := corpusDir(t)
	for _, row := range readManifest(t, corpus) {
		if row.Kind == "spec" {
			continue
		}
		t.Run(row.Repo+"/"+row.IndexPath, func(t *testing.T) {
			code, out := lint(t, "--json", "--repo", row.Repo, "--dir", row.BundleDir, row.file(corpus))
			var got struct {
				Bundle bool `json:"bundle"`
				Card   struct {
					ID       string `json:"id"`
					Name     string `json:"name"`
					IndexURL string `json:"index_url"`
					Source   struct {
						Repo string `json:"repo"`
						Path string `json:"path"`
					} `json:"source"`
				} `json:"card"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("--json output is not JSON: %v\n%s", err, out)
			}
			if row.isBundle() {
				if code != 0 || !got.Bundle {
					t.Fatalf("bundle root: exit %d, bundle %v", code, got.Bundle)
				}
				if got.Card.ID == "" || got.Card.Name == "" || got.Card.Source.Path != row.IndexPath ||
					got.Card.Source.Repo != strings.ToLower(row.Repo) || !strings.HasSuffix(got.Card.IndexURL, row.IndexPath) {
					t.Fatalf("card identity wrong: %+v", got.Card)
				}
			} else if code != 1 || got.Bundle {
				t.Fatalf("%s (%s) must not lint as a bundle: exit %d", row.IndexPath, row.Kind, code)
			}
		})
	}
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
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

func TestLintWarnings(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"b/index.md": "---\nokf_version: 0.3\n---\n\n# Files\n\n" +
			"- [Here](here.md) - exists\n" +
			"- [Sub](sub/) - directory with an index\n" +
			"- [Abs](/here.md) - bundle-absolute, exists\n" +
			"- [Gone](gone.md) - missing\n" +
			"- [Out](../outside.md) - leaves the bundle\n" +
			"- [Spaced](my%20file.md) - escaped space, exists\n",
		"b/here.md":      "# Here\n",
		"b/sub/index.md": "# Sub\n",
		"b/my file.md":   "# Spaced\n",
		"outside.md":     "# Outside\n",
	})
	code, out := lint(t, "--json", "--repo", "acme/docs", "--dir", "b", filepath.Join(dir, "b"))
	if code != 0 {
		t.Fatalf("exit %d for a bundle", code)
	}
	var got struct {
		Card struct {
			Name string `json:"name"`
		} `json:"card"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Card.Name != "acme/docs · b" {
		t.Errorf("name = %q, want the fallback acme/docs · b", got.Card.Name)
	}
	want := []string{
		`okf_version "0.3" is not a published OKF version (0.1, 0.2)`,
		`no usable title (frontmatter title or first H1): the card is named "acme/docs · b"`,
		`link "gone.md" points at a missing file`,
		`link "../outside.md" leaves the bundle`,
		`1 of 5 concept links point at missing files`,
	}
	for _, w := range want {
		if !slices.Contains(got.Warnings, w) {
			t.Errorf("missing warning %q in %q", w, got.Warnings)
		}
	}
	if len(got.Warnings) != len(want) {
		t.Errorf("warnings = %q, want exactly %q", got.Warnings, want)
	}
}

func TestLintNoConceptsWarns(t *testing.T) {
	dir := writeTree(t, map[string]string{"index.md": "---\nokf_version: \"0.2\"\ntitle: Empty\n---\n\nJust prose, no entries.\n"})
	code, out := lint(t, filepath.Join(dir, "index.md"))
	if code != 0 || !strings.Contains(out, "warning: no concepts") || !strings.Contains(out, "name:        Empty") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestLintNotABundleExitsOne(t *testing.T) {
	dir := writeTree(t, map[string]string{"index.md": "# Title\n\nokf_version: 0.1 in the body does not count\n"})
	code, out := lint(t, dir)
	if code != 1 || !strings.Contains(out, "not a bundle") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

// The demo bundles the project ships must be clean apart from the quirks
// they show on purpose.
func TestLintExamples(t *testing.T) {
	intended := map[string][]string{
		"tinyco/ops-runbooks/okf":                 {"no usable title"},
		"tinyco/ops-runbooks-mirror/okf":          {"no usable title"},
		"polyglot-docs/multi-bundle/bundles/beta": {`okf_version "0.3"`},
	}
	roots := 0
	for _, repo := range mustRepos(t, "../../examples") {
		paths, err := findRoots(repo.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, rel := range paths {
			dir := filepath.Dir(filepath.Join(repo.path, rel))
			key := repo.owner + "/" + repo.name + "/" + filepath.ToSlash(filepath.Dir(rel))
			key = strings.TrimSuffix(key, "/.")
			code, out := lint(t, "--json", "--repo", repo.owner+"/"+repo.name, "--dir", filepath.Dir(rel), dir)
			if code != 0 {
				continue // an index.md that is not a bundle root
			}
			roots++
			var got struct{ Warnings []string }
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Warnings) != len(intended[key]) {
				t.Errorf("%s: warnings %q, want only %q", key, got.Warnings, intended[key])
				continue
			}
			for i, w := range intended[key] {
				if !strings.Contains(got.Warnings[i], w) {
					t.Errorf("%s: warning %q, want one about %q", key, got.Warnings[i], w)
				}
			}
		}
	}
	if roots != 8 {
		t.Errorf("examples hold %d bundle roots, want 8", roots)
	}
}

func mustRepos(t *testing.T, dir string) []repoDir {
	t.Helper()
	repos, err := listRepos(dir)
	if err != nil {
		t.Fatal(err)
	}
	return repos
}

// TestLintServiceDocs lints the service's own documentation bundle (the
// files GET /okf/{arquivo} serves, with the base URL written in) as a
// domain bundle: a clean lint, its own name, and the three other documents
// as its concepts.
func TestLintServiceDocs(t *testing.T) {
	const base = "https://okf.example"
	files := map[string]string{}
	for _, name := range api.OKFFiles {
		text, ok := api.OKF(name)
		if !ok {
			t.Fatalf("api.OKF(%q) is missing", name)
		}
		files[name] = api.Expand(text, base)
	}
	dir := writeTree(t, files)
	code, out := lint(t, "--json", "--url", base+"/okf/index.md", dir)
	if code != 0 {
		t.Fatalf("lint exit %d:\n%s", code, out)
	}
	var res struct {
		Visibility string `json:"visibility"`
		Card       struct {
			Name        string `json:"name"`
			OKFVersion  string `json:"okf_version"`
			ConceptList []struct {
				Name string `json:"name"`
				URL  string `json:"url"`
			} `json:"concept_list"`
		} `json:"card"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("lint --json: %v\n%s", err, out)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
	if !strings.HasPrefix(res.Card.Name, "OKF Index") || res.Card.OKFVersion == "" || res.Visibility != "live" {
		t.Errorf("card: %+v", res.Card)
	}
	var urls []string
	for _, c := range res.Card.ConceptList {
		urls = append(urls, c.URL)
	}
	if want := []string{base + "/okf/sobre.md", base + "/okf/api.md", base + "/okf/faq.md"}; !slices.Equal(urls, want) {
		t.Errorf("concepts %v, want %v", urls, want)
	}
}

// A link written "/okf/x.md" in a bundle under okf/ names the repository
// root's okf/x.md: lint finds the repository (.git, or --dir) and checks
// the link against bundle-dir/x first, then the root's x.
func TestLintSlashLinksFromRepositoryRoot(t *testing.T) {
	files := map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"okf/index.md": "---\nokf_version: \"0.2\"\ntitle: Slash\n---\n\n" +
			"- [X](/okf/x.md) - written from the repository root\n" +
			"- [Y](/y.md) - bundle-absolute\n" +
			"- [Readme](/README.md) - the repository's readme\n" +
			"- [Gone](/okf/gone.md) - nowhere\n",
		"okf/x.md":  "# X\n",
		"okf/y.md":  "# Y\n",
		"README.md": "# Readme\n",
	}
	want := []string{`link "/okf/gone.md" points at a missing file`, `1 of 4 concept links point at missing files`}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"found by .git", nil},
		{"named by --dir", []string{"--dir", "okf"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := map[string]string{}
			for k, v := range files {
				if tc.args != nil && strings.HasPrefix(k, ".git/") {
					continue
				}
				tree[k] = v
			}
			dir := writeTree(t, tree)
			code, out := lint(t, append(append([]string{"--json", "--repo", "acme/docs"}, tc.args...), filepath.Join(dir, "okf"))...)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			var got struct {
				Card struct {
					ConceptList []struct{ URL string } `json:"concept_list"`
				} `json:"card"`
				Warnings []string `json:"warnings"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Warnings, want) {
				t.Errorf("warnings = %q, want %q", got.Warnings, want)
			}
			if u := got.Card.ConceptList[0].URL; !strings.HasSuffix(u, "/HEAD/okf/x.md") {
				t.Errorf("first concept url %s, want the root's okf/x.md", u)
			}
		})
	}
}

// TestLintReasonIsTheStatusReason: lint names why a file is not a bundle
// with the word GET /api/status records, not "no okf_version" for all.
func TestLintReasonIsTheStatusReason(t *testing.T) {
	for _, tc := range []struct{ src, reason string }{
		{"# Title\n", "no_frontmatter"},
		{"---\ntitle: x\n", "frontmatter_not_closed"},
		{"---\n: : [\n---\n", "frontmatter_not_yaml"},
		{"---\n- a\n- b\n---\n", "frontmatter_not_mapping"},
		{"---\ntitle: x\n---\n", "no_okf_version"},
	} {
		dir := writeTree(t, map[string]string{"index.md": tc.src})
		code, out := lint(t, dir)
		if code != 1 || !strings.Contains(out, "not a bundle ("+tc.reason+")") {
			t.Errorf("%q: exit %d, output %q", tc.src, code, out)
		}
		_, out = lint(t, "--json", dir)
		var got struct{ Reason string }
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.Reason != tc.reason {
			t.Errorf("%q: json %q", tc.src, out)
		}
	}
}

// TestLintPrintsNoTerminalEscapes: whatever the root holds, lint's lines
// carry no control, bidi or zero-width character.
func TestLintPrintsNoTerminalEscapes(t *testing.T) {
	dir := writeTree(t, map[string]string{"index.md": "---\nokf_version: \"0.9\\e]0;x\\a\"\ntitle: \"T\\e[2J\\u202E\"\ndescription: \"tag\\a\"\ntype: \"t\\e\"\n---\n\n- [na\u200bme\x1b](a.md) - sum\x1b[31m\n- [gone](\x1b.md)\n"})
	_, out := lint(t, dir)
	if strings.ContainsFunc(out, func(r rune) bool {
		return r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x202e || r == 0x200b
	}) {
		t.Errorf("output carries a control character: %q", out)
	}
}
