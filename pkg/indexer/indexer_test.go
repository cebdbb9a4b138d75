package indexer

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/cardsize"
	"github.com/okfindex/okf-index/pkg/okf"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/wire"
)

const root = "---\nokf_version: \"0.2\"\ntitle: Demo\ndescription: One line.\n---\n\n# Demo\n\n- [A](a.md) - first\n- [B](/sub/) - second\n"

func TestFromRepo(t *testing.T) {
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	pushed := now.AddDate(0, -2, 0)
	r := source.Repo{Owner: "Acme", Name: "Docs", Path: "kb/index.md"}
	in, err := FromRepo([]byte(root), r, RepoInfo{Stars: 5, PushedAt: &pushed, Language: "Go"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if in.ID != r.ID() || in.Card.Name != "Demo" || in.Card.Concepts != 2 || in.Low {
		t.Errorf("input: %+v", in)
	}
	if got := in.Card.ConceptList[1].URL; got != "https://raw.githubusercontent.com/Acme/Docs/HEAD/kb/sub/index.md" {
		t.Errorf("bundle-absolute directory link resolved to %s", got)
	}
	src := in.Source
	if src.Origin != source.OriginCodeHost || src.Via != source.ViaSweep || *src.Repo != "acme/docs" || src.Dir != "kb" ||
		src.Path != "kb/index.md" || src.Host != "github.com" || src.URL != "https://github.com/Acme/Docs" {
		t.Errorf("source: %+v", src)
	}
	if in.Repo == nil || in.Repo.Stars != 5 || *in.Repo.State != source.StateActive || *in.Repo.Language != "Go" || in.Repo.License != nil {
		t.Errorf("repo signal: %+v", in.Repo)
	}
	if len(in.RootSHA256) != 64 {
		t.Errorf("root sha %q", in.RootSHA256)
	}
}

func TestFromSite(t *testing.T) {
	in, err := FromSite([]byte("---\nokf_version: 0.1\n---\n# Files\n"), source.Site{URL: "https://Docs.Example.org/okf/index.md"})
	if err != nil {
		t.Fatal(err)
	}
	if in.Card.Name != "docs.example.org · okf" || in.Repo != nil || in.Source.Repo != nil || in.Source.Origin != source.OriginDomain ||
		in.Source.Via != source.ViaIndexNow || in.PageURL != in.IndexURL || in.Card.ConceptList == nil {
		t.Errorf("domain input: %+v", in)
	}
}

func TestNotBundle(t *testing.T) {
	_, err := FromRepo([]byte("# Just a README\n"), source.Repo{Owner: "o", Name: "r", Path: "index.md"}, RepoInfo{}, time.Now())
	if !errors.Is(err, okf.ErrNotBundle) {
		t.Fatalf("err = %v, want ErrNotBundle", err)
	}
}

func TestPreview(t *testing.T) {
	in, err := FromRepo([]byte(root), source.Repo{Owner: "o", Name: "r", Path: "examples/x/index.md"}, RepoInfo{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	b := Preview(in, "https://okf.example", time.Now())
	if b.API != "https://okf.example/api/bundles/"+in.ID || b.Visibility != wire.VisibilityLow || b.IndexedAt != b.UpdatedAt {
		t.Errorf("preview: api %q visibility %s", b.API, b.Visibility)
	}
}

func TestRepositoryFailsAlone(t *testing.T) {
	r := source.Repo{Owner: "o", Name: "r", Path: "index.md"}
	for _, tc := range []struct {
		name   string
		repo   source.Repo
		info   RepoInfo
		reason string
	}{
		{"forks 2^62", r, RepoInfo{Forks: 1 << 62}, NotBundleInvalidSignals},
		{"negative stars", r, RepoInfo{Stars: -5}, NotBundleInvalidSignals},
		{"path too long", source.Repo{Owner: "o", Name: "r", Path: strings.Repeat("d/", 600) + "index.md"}, RepoInfo{}, NotBundlePathTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseRepo([]byte(root), tc.repo, tc.info, time.Now())
			if err == nil {
				t.Fatal("parsed")
			}
			if v := Verdict(tc.repo.Path, p, err, nil); v.NotBundle != tc.reason || v.BundleID != "" || len(v.Detail) > 400 {
				t.Errorf("verdict %+v", v)
			}
		})
	}
}

func TestCardIsFitted(t *testing.T) {
	src := "---\nokf_version: \"0.2\"\ntitle: " + strings.Repeat("T", 3000) + "\ntype: " + strings.Repeat("y", 3000) + "\n---\n"
	in, err := FromRepo([]byte(src), source.Repo{Owner: "o", Name: "r", Path: "index.md"}, RepoInfo{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len([]rune(in.Name)) != cardsize.MaxName || len(in.Type) != cardsize.MaxType || !slices.Equal(in.Cut, []string{"name", "type"}) {
		t.Errorf("name %d, type %d, cut %q", len([]rune(in.Name)), len(in.Type), in.Cut)
	}
}
