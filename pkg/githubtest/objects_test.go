package githubtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type entryJSON struct {
	Name, Path, Type string
	Mode, Size       int
	Extension        *string
	Object           *struct {
		Entries []entryJSON
		Text    *string
	}
}

func TestTreeListingWithHiddenDir(t *testing.T) {
	s := corpus(t)
	q := `{ repository(owner: "FastEndpoints", name: "FastEndpoints") {
  defaultBranchRef { name }
  object(expression: "HEAD:") { ... on Tree { oid entries { name path type mode size extension
    object { ... on Tree { entries { name path type size object { ... on Blob { byteSize } } } } } } } } } }`
	out, _ := post(t, s, q, nil)
	if len(out.Errors) > 0 {
		t.Fatalf("errors %+v", out.Errors)
	}
	var repo struct {
		DefaultBranchRef struct{ Name string }
		Object           struct {
			Oid     string
			Entries []entryJSON
		}
	}
	if err := json.Unmarshal(out.Data["repository"], &repo); err != nil {
		t.Fatal(err)
	}
	if repo.DefaultBranchRef.Name != "main" || len(repo.Object.Oid) != 40 {
		t.Fatalf("repo %+v", repo)
	}
	root := repo.Object.Entries
	if len(root) != 1 || root[0].Name != ".okf" || root[0].Type != "tree" || root[0].Mode != 0o40000 || root[0].Extension != nil {
		t.Fatalf("root entries %+v", root)
	}
	sub := root[0].Object.Entries
	if len(sub) != 2 || sub[0].Name != "gotchas.md" || sub[1].Path != ".okf/index.md" || sub[1].Type != "blob" {
		t.Fatalf("subtree %+v", sub)
	}
	if sub[1].Size != 1275 {
		t.Fatalf("size %d", sub[1].Size)
	}
}

func TestBlobText(t *testing.T) {
	s := corpus(t)
	want, err := os.ReadFile(filepath.Join(RealCorpusDir(), "FastEndpoints__FastEndpoints/.okf/index.md"))
	if err != nil {
		t.Fatal(err)
	}
	q := `query($o: String!, $n: String!, $e: String!) { repository(owner: $o, name: $n) {
  index: object(expression: $e) { __typename ... on Blob { oid abbreviatedOid byteSize isBinary isTruncated text } }
  missing: object(expression: "HEAD:nope.md") { oid }
  dir: object(expression: "main:.okf") { __typename }
  other: object(expression: "dev:.okf/index.md") { oid } } }`
	out, _ := post(t, s, q, map[string]any{"o": "fastendpoints", "n": "fastendpoints", "e": "HEAD:.okf/index.md"})
	if len(out.Errors) > 0 {
		t.Fatalf("errors %+v", out.Errors)
	}
	var r struct {
		Index struct {
			Typename       string `json:"__typename"`
			Oid            string
			AbbreviatedOid string
			ByteSize       int
			IsBinary       bool
			IsTruncated    bool
			Text           string
		}
		Missing, Other *struct{}
		Dir            struct {
			Typename string `json:"__typename"`
		}
	}
	if err := json.Unmarshal(out.Data["repository"], &r); err != nil {
		t.Fatal(err)
	}
	if r.Index.Typename != "Blob" || r.Index.Text != string(want) || r.Index.ByteSize != len(want) ||
		r.Index.IsTruncated || r.Index.IsBinary || r.Index.Oid != gitBlobOID(want) || r.Index.AbbreviatedOid != r.Index.Oid[:7] {
		t.Fatalf("blob %+v", r.Index)
	}
	if r.Missing != nil || r.Other != nil || r.Dir.Typename != "Tree" {
		t.Fatalf("missing %v other %v dir %v", r.Missing, r.Other, r.Dir)
	}
}

func TestBlobLargeAndBinary(t *testing.T) {
	s := New(t, Options{})
	big := strings.Repeat("é", MaxBlobText) // 2 bytes a rune, twice the cap
	s.AddRepo(Repo{Owner: "o", Name: "r", Files: map[string][]byte{"big.md": []byte(big), "img.png": {0x89, 'P', 0, 1}}})
	q := `{ repository(owner: "o", name: "r") {
  big: object(expression: "HEAD:big.md") { ... on Blob { byteSize isTruncated text } }
  bin: object(expression: "HEAD:img.png") { ... on Blob { isBinary text } } } }`
	out, _ := post(t, s, q, nil)
	var r struct {
		Big struct {
			ByteSize    int
			IsTruncated bool
			Text        string
		}
		Bin struct {
			IsBinary bool
			Text     *string
		}
	}
	if err := json.Unmarshal(out.Data["repository"], &r); err != nil {
		t.Fatal(err)
	}
	if !r.Big.IsTruncated || r.Big.ByteSize != len(big) || len(r.Big.Text) != MaxBlobText || !strings.HasPrefix(big, r.Big.Text) {
		t.Fatalf("big: truncated %v size %d text %d", r.Big.IsTruncated, r.Big.ByteSize, len(r.Big.Text))
	}
	if !r.Bin.IsBinary || r.Bin.Text != nil {
		t.Fatalf("bin %+v", r.Bin)
	}
}

func TestMutators(t *testing.T) {
	s := New(t, Options{})
	s.AddRepo(Repo{Owner: "o", Name: "r", Files: map[string][]byte{"index.md": []byte("x")}})
	s.RemoveFile("o", "r", "index.md")
	s.SetFile("o", "r", "a/b.md", []byte("y"))
	s.SetArchived("o", "r", true)
	s.SetTopics("o", "r", "okf")
	out, _ := post(t, s, `{ repository(owner: "o", name: "r") { isArchived repositoryTopics(first: 5) { nodes { topic { name } } }
  gone: object(expression: "HEAD:index.md") { oid } b: object(expression: "HEAD:a/b.md") { ... on Blob { text } } } }`, nil)
	if got := string(out.Data["repository"]); got != `{"isArchived":true,"repositoryTopics":{"nodes":[{"topic":{"name":"okf"}}]},"gone":null,"b":{"text":"y"}}` {
		t.Fatalf("got %s errors %+v", got, out.Errors)
	}
	s.RemoveRepo("o", "r")
	out, _ = post(t, s, `{ repository(owner: "o", name: "r") { id } }`, nil)
	if len(out.Errors) != 1 || out.Errors[0].Type != "NOT_FOUND" {
		t.Fatalf("errors %+v", out.Errors)
	}
}
