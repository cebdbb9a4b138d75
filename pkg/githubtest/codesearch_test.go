package githubtest

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// declaresOKF reports whether content has okf_version in its frontmatter.
func declaresOKF(b []byte) bool {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return false
	}
	fm, _, ok := strings.Cut(s[4:], "\n---")
	return ok && strings.Contains(fm, "okf_version")
}

// TestCodeSearchFindsEveryCorpusRoot: every index.md that declares
// okf_version in frontmatter is found, except files over 384 KB (GitHub's
// code search does not index them; the corpus has one:
// claudiobottari/databricks-okf/index.md, 1.5 MB).
func TestCodeSearchFindsEveryCorpusRoot(t *testing.T) {
	s := corpus(t)
	s.SetCodeSearchRate(1000, time.Minute)
	// Every corpus index.md declaring okf_version in frontmatter.
	want := map[string]bool{}
	dir := RealCorpusDir()
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "index.md" {
			// GitHub does not index files over 384 KB: those are missed, as there.
			if b, _ := os.ReadFile(p); declaresOKF(b) && len(b) <= 384<<10 {
				rel, _ := filepath.Rel(dir, p)
				repoDir, file, _ := strings.Cut(filepath.ToSlash(rel), "/")
				want[strings.Replace(strings.Replace(repoDir, "_unattributed__", "unattributed__", 1), "__", "/", 1)+"/"+file] = true
			}
		}
		return nil
	})
	if len(want) < 40 {
		t.Fatalf("only %d roots in the corpus?", len(want))
	}
	got := map[string]bool{}
	for page := 1; ; page++ {
		out, resp := get(t, s, fmt.Sprintf("/search/code?q=%s&per_page=100&page=%d", url.QueryEscape("okf_version filename:index.md"), page))
		if resp.StatusCode != 200 {
			t.Fatalf("status %d %v", resp.StatusCode, out)
		}
		items := out["items"].([]any)
		for _, it := range items {
			m := it.(map[string]any)
			repo := m["repository"].(map[string]any)
			if m["name"] != "index.md" || repo["owner"].(map[string]any)["login"] == "" {
				t.Fatalf("item %v", m)
			}
			got[repo["full_name"].(string)+"/"+m["path"].(string)] = true
		}
		if len(items) < 100 {
			if int(out["total_count"].(float64)) != len(got) {
				t.Fatalf("total_count %v, collected %d", out["total_count"], len(got))
			}
			break
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("code search missed %s", k)
		}
	}
	if got["claudiobottari/databricks-okf/index.md"] {
		t.Error("a 1.5 MB file was found; GitHub does not index files over 384 KB")
	}
	t.Logf("%d indexable frontmatter roots, %d hits (body mentions included)", len(want), len(got))
}

func TestCodeSearchQualifiers(t *testing.T) {
	s := New(t, Options{})
	s.SetCodeSearchRate(1000, time.Minute)
	s.AddRepo(Repo{Owner: "o", Name: "r", Files: map[string][]byte{
		"index.md":          []byte("---\nokf_version: \"0.1\"\n---\n"),
		"docs/okf/index.md": bytes.Repeat([]byte("okf_version "), 100),
		"docs/notes.txt":    []byte("okf_versions only"),
	}})
	s.AddRepo(Repo{Owner: "p", Name: "q", Files: map[string][]byte{"index.md": []byte("OKF_VERSION: 1")}})
	for q, want := range map[string]int{
		"okf_version":                     3,
		"okf_version filename:index.md":   3,
		"okf_version path:/":              2,
		"okf_version path:docs":           1,
		"okf_version size:>1000":          1,
		"okf_version size:0..100":         2,
		"okf_version repo:o/r":            2,
		"okf_version user:p":              1,
		"okf_versions extension:txt":      1,
		"okf_version extension:md user:o": 2,
	} {
		out, resp := get(t, s, "/search/code?q="+url.QueryEscape(q))
		if resp.StatusCode != 200 || int(out["total_count"].(float64)) != want {
			t.Errorf("%q: status %d total %v, want %d", q, resp.StatusCode, out["total_count"], want)
		}
	}
	if _, resp := get(t, s, "/search/code?q=okf_version&per_page=100&page=11"); resp.StatusCode != 422 {
		t.Errorf("page beyond 1000: status %d", resp.StatusCode)
	}
}

func TestCodeSearchRateLimit(t *testing.T) {
	s := New(t, Options{})
	s.AddRepo(Repo{Owner: "o", Name: "r", Files: map[string][]byte{"a.md": []byte("x")}})
	for i := range 10 {
		if _, resp := get(t, s, "/search/code?q=x"); resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Remaining") != fmt.Sprint(9-i) {
			t.Fatalf("call %d: status %d remaining %s", i, resp.StatusCode, resp.Header.Get("X-RateLimit-Remaining"))
		}
	}
	_, resp := get(t, s, "/search/code?q=x")
	if resp.StatusCode != 403 || resp.Header.Get("Retry-After") == "" || resp.Header.Get("X-RateLimit-Remaining") != "0" || resp.Header.Get("X-RateLimit-Reset") == "" {
		t.Fatalf("11th call: status %d headers %v", resp.StatusCode, resp.Header)
	}
	if st := s.Stats(); st.CodeSearchCalls != 11 || st.Failures != 1 {
		t.Fatalf("stats %+v", st)
	}
}
