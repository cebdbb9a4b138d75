package okf

import (
	"errors"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	const root = "https://raw.githubusercontent.com/o/r/HEAD/docs/okf/index.md"
	const dir = "https://raw.githubusercontent.com/o/r/HEAD/docs/okf/"
	for _, tc := range []struct{ dest, want string }{
		{"a.md", dir + "a.md"},
		{"./a.md", dir + "a.md"},
		{"/a.md", dir + "a.md"},
		{"/concepts/x.md", dir + "concepts/x.md"},
		{"sub/", dir + "sub/index.md"},
		{"/sub/", dir + "sub/index.md"},
		{"./sub/", dir + "sub/index.md"},
		{"sub", dir + "sub"},
		{"../state/x.md", "https://raw.githubusercontent.com/o/r/HEAD/docs/state/x.md"},
		{"../../../../../../x.md", "https://raw.githubusercontent.com/x.md"},
		{"/../x.md", "https://raw.githubusercontent.com/o/r/HEAD/docs/x.md"},
		{"a/./b/../c.md", dir + "a/c.md"},
		{"a.md#part", dir + "a.md#part"},
		{"sub/#part", dir + "sub/index.md#part"},
		{"a.md?raw=1", dir + "a.md?raw=1"},
		{"a%20b.md", dir + "a%20b.md"},
		{"中文.md", dir + "%E4%B8%AD%E6%96%87.md"},
		{".okf/x.md", dir + ".okf/x.md"},
		{"/x:y.md", dir + "x:y.md"},
		{"  padded.md ", dir + "padded.md"},
		{"https://example.org/Some/Page", "https://example.org/Some/Page"},
		{"https://example.org/dir/", "https://example.org/dir/"},
		{"HTTP://Example.org/x", "HTTP://Example.org/x"},
		{"https://example.org/a b", "https://example.org/a%20b"},
		{"https://zh.example.org/wiki/中文", "https://zh.example.org/wiki/中文"},
		{"//cdn.example/x.md", "https://cdn.example/x.md"},
		{"index.md#x", ""},
		{"./", ""},
		{"/", ""},
		{"", ""},
		{"#section", ""},
		{"mailto:a@b.c", ""},
		{"javascript:alert(1)", ""},
		{"ftp://example.org/x", ""},
		{"data:text/plain,x", ""},
		{"https:///nohost", ""},
		{"%zz.md", ""},
	} {
		r, err := newResolver(root)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := r.resolve(tc.dest)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("resolve(%q) = %q, %v; want %q", tc.dest, got, ok, tc.want)
		}
		// The plain-path shortcut must agree with net/url.
		slow := r
		slow.dir = ""
		if sg, sok := slow.resolve(tc.dest); sg != got || sok != ok {
			t.Errorf("resolve(%q): shortcut %q %v, net/url %q %v", tc.dest, got, ok, sg, sok)
		}
	}
}

func TestIsPlainPath(t *testing.T) {
	for dest, want := range map[string]bool{
		"a.md": true, "/a/b-c_d~e.md": true, "sub/": true, "a/b/": true,
		"./a.md": false, "../a.md": false, "a/./b": false, "a/../b": false, ".hidden": false,
		"a//b": false, "a b": false, "a%20b": false, "a#b": false, "a?b": false, "a:b": false, "é": false,
	} {
		if got := isPlainPath(dest); got != want {
			t.Errorf("isPlainPath(%q) = %v", dest, got)
		}
	}
}

func TestBundleAbsoluteLinksResolveAgainstBundleDir(t *testing.T) {
	// AndreiDrang/python-rucaptcha lives in okf/ and links /system-overview.md.
	card := mustParseCorpus(t, "AndreiDrang__python-rucaptcha/okf/index.md")
	if got := card.ConceptList[0].URL; got != gh+"AndreiDrang/python-rucaptcha/HEAD/okf/system-overview.md" {
		t.Errorf("url = %s", got)
	}
	// StephenAbbott/opencheck: /standards/ is a bundle-absolute directory.
	card = mustParseCorpus(t, "StephenAbbott__opencheck/okf/index.md")
	if got := conceptNamed(t, card, "standards").URL; got != gh+"StephenAbbott/opencheck/HEAD/okf/standards/index.md" {
		t.Errorf("url = %s", got)
	}
	// Links keep the bundle-absolute form as written.
	if card.Links[0] != "/overview.md" {
		t.Errorf("links = %q", card.Links)
	}
}

func TestDotSlashLinks(t *testing.T) {
	card := mustParseCorpus(t, "wfukatsu__OKF-ScalarDB-ScalarDL/okf/index.md")
	if got := card.ConceptList[0].URL; got != gh+"wfukatsu/OKF-ScalarDB-ScalarDL/HEAD/okf/guides/how-ai-agents-use-this-bundle.md" {
		t.Errorf("url = %s", got)
	}
}

func TestLinksLeavingBundleDirAreKept(t *testing.T) {
	card := mustParseCorpus(t, "firebase__firebaseui-web/developer-docs/index.md")
	if got := conceptNamed(t, card, "LOCAL_DEVELOPMENT.md").URL; got != gh+"firebase/firebaseui-web/HEAD/LOCAL_DEVELOPMENT.md" {
		t.Errorf("url = %s", got)
	}
	card = mustParseCorpus(t, "4i7__LLM-News-Memo/okf/index.md")
	if got := card.ConceptList[10].URL; got != gh+"4i7/LLM-News-Memo/HEAD/reports/github-repo-radar/2026-08-mid-retrospective.md" {
		t.Errorf("url = %s", got)
	}
}

func TestDirectoryLinkGetsIndexMD(t *testing.T) {
	card := mustParseCorpus(t, "zeyos__client/okf/index.md")
	if got := card.ConceptList[0].URL; got != gh+"zeyos/client/HEAD/okf/entities/index.md" {
		t.Errorf("url = %s", got)
	}
	// Netatalk: "src/" becomes src/index.md; graph.json stays as it is.
	card = mustParseCorpus(t, "Netatalk__netatalk/okf/index.md")
	if card.Concepts != 34 {
		t.Errorf("concepts = %d", card.Concepts)
	}
	card = parseBody(t, "- [Dir](dir/) - d\n- [Deep](a/b/c/) - e\n- [Data](graph.json) - f\n")
	wantConcepts(t, card, 3,
		Concept{"Dir", base + "dir/index.md", "d"},
		Concept{"Deep", base + "a/b/c/index.md", "e"},
		Concept{"Data", base + "graph.json", "f"},
	)
}

func TestAbsoluteAndOtherSchemes(t *testing.T) {
	card := parseBody(t, "- [Web](https://example.org/guide/) - external\n- [Mail](mailto:a@b.c)\n- [JS](javascript:alert(1))\n- [Self](#top)\n- [Root](index.md)\n- [Auto](<https://example.org/auto>)\n- https://bare.example/page - bare\n")
	wantConcepts(t, card, 3,
		Concept{"Web", "https://example.org/guide/", "external"},
		Concept{"Auto", "https://example.org/auto", ""},
		Concept{"https://bare.example/page", "https://bare.example/page", "bare"},
	)
}

func TestRootURLs(t *testing.T) {
	src := []byte("---\nokf_version: 0.1\n---\n- [A](/a.md)\n- [B](b/)\n")
	card, err := Parse(src, Root{URL: "file:///srv/bundles/kb/index.md", Label: "local"})
	if err != nil || card.ConceptList[0].URL != "file:///srv/bundles/kb/a.md" || card.ConceptList[1].URL != "file:///srv/bundles/kb/b/index.md" {
		t.Errorf("file root: %+v, %v", card.ConceptList, err)
	}
	card, err = Parse(src, Root{URL: "https://example.com", Label: "example.com"})
	if err != nil || card.ConceptList[0].URL != "https://example.com/a.md" {
		t.Errorf("host root: %+v, %v", card.ConceptList, err)
	}
	for _, u := range []string{"", "kb/index.md", "/kb/index.md", "https://exa mple.com/\x7f"} {
		_, err = Parse(src, Root{URL: u})
		if err == nil || errors.Is(err, ErrNotBundle) || !strings.HasPrefix(err.Error(), "okf: root URL: ") {
			t.Errorf("root URL %q: %v", u, err)
		}
	}
	// A file that is not a bundle says so whatever the root URL.
	if _, err := Parse([]byte("# no frontmatter"), Root{}); !errors.Is(err, ErrNotBundle) {
		t.Errorf("got %v, want ErrNotBundle", err)
	}
}

func TestHiddenDirBundles(t *testing.T) {
	card := mustParseCorpus(t, "ImperialBower__cardpack.rs/.okf/index.md")
	if got := card.ConceptList[1].URL; got != gh+"ImperialBower/cardpack.rs/HEAD/.okf/architecture/index.md" {
		t.Errorf("url = %s", got)
	}
}

func TestDuplicateRootsGiveTheSameCard(t *testing.T) {
	// ScaleLean/ultracart-okf-catalog keeps a byte-identical copy of its root
	// in okf/ultracart_warehouse/: same card, URLs under each directory.
	a := mustParseCorpus(t, "ScaleLean__ultracart-okf-catalog/index.md")
	b := mustParseCorpus(t, "ScaleLean__ultracart-okf-catalog/okf/ultracart_warehouse/index.md")
	if a.Name != b.Name || a.Description != b.Description || a.Concepts != b.Concepts {
		t.Errorf("cards differ: %+v / %+v", a, b)
	}
	if b.ConceptList[0].URL != gh+"ScaleLean/ultracart-okf-catalog/HEAD/okf/ultracart_warehouse/datasets/index.md" {
		t.Errorf("url = %s", b.ConceptList[0].URL)
	}
}
