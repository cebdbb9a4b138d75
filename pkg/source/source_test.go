package source

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

var idShape = regexp.MustCompile(`^[a-z0-9-]{1,80}$`)

func TestRepoURLsAndIdentity(t *testing.T) {
	tests := []struct {
		repo                             Repo
		dir, identity, indexURL, pageURL string
		low                              bool
	}{
		{Repo{Owner: "Acme", Name: "Docs", Path: "index.md"}, "", "acme/docs:index.md",
			"https://raw.githubusercontent.com/Acme/Docs/HEAD/index.md", "https://github.com/Acme/Docs/blob/HEAD/index.md", false},
		{Repo{Owner: "o", Name: "r", Branch: "main", Path: ".okf/index.md"}, ".okf", "o/r:.okf/index.md",
			"https://raw.githubusercontent.com/o/r/main/.okf/index.md", "https://github.com/o/r/blob/main/.okf/index.md", false},
		{Repo{Owner: "o", Name: "r", Path: "docs/my bundle/index.md"}, "docs/my bundle", "o/r:docs/my bundle/index.md",
			"https://raw.githubusercontent.com/o/r/HEAD/docs/my%20bundle/index.md", "https://github.com/o/r/blob/HEAD/docs/my%20bundle/index.md", false},
		{Repo{Owner: "o", Name: "r", Path: "test/fixtures/acme/index.md"}, "test/fixtures/acme", "o/r:test/fixtures/acme/index.md",
			"https://raw.githubusercontent.com/o/r/HEAD/test/fixtures/acme/index.md", "https://github.com/o/r/blob/HEAD/test/fixtures/acme/index.md", true},
		{Repo{Owner: "o", Name: "r", Path: "Examples/x/index.md"}, "Examples/x", "o/r:Examples/x/index.md",
			"https://raw.githubusercontent.com/o/r/HEAD/Examples/x/index.md", "https://github.com/o/r/blob/HEAD/Examples/x/index.md", true},
		{Repo{Owner: "o", Name: "r", Path: "contest/index.md"}, "contest", "o/r:contest/index.md",
			"https://raw.githubusercontent.com/o/r/HEAD/contest/index.md", "https://github.com/o/r/blob/HEAD/contest/index.md", false},
	}
	for _, tt := range tests {
		r := tt.repo
		if r.Dir() != tt.dir || r.Identity() != tt.identity || r.IndexURL() != tt.indexURL || r.PageURL() != tt.pageURL || r.Low() != tt.low {
			t.Errorf("%+v: dir %q identity %q index %q page %q low %v", r, r.Dir(), r.Identity(), r.IndexURL(), r.PageURL(), r.Low())
		}
		if !idShape.MatchString(r.ID()) {
			t.Errorf("%+v: id %q is not [a-z0-9-]{1,80}", r, r.ID())
		}
	}
}

func TestIDStableUniqueAndBounded(t *testing.T) {
	a := Repo{Owner: "Acme", Name: "Docs", Path: "okf/index.md"}
	if a.ID() != (Repo{Owner: "acme", Name: "docs", Path: "okf/index.md"}).ID() {
		t.Error("id depends on the case of owner/repo")
	}
	if a.ID() != "acme-docs-okf-"+a.ID()[len("acme-docs-okf-"):] || len(a.ID()) != len("acme-docs-okf-")+10 {
		t.Errorf("id %q is not slug-hash", a.ID())
	}
	// Paths that slug alike still get different ids.
	b := Repo{Owner: "acme", Name: "docs", Path: "okf_/index.md"}
	if a.ID() == b.ID() {
		t.Errorf("%s and %s share id %s", a.Identity(), b.Identity(), a.ID())
	}
	long := Repo{Owner: strings.Repeat("o", 39), Name: strings.Repeat("r", 100), Path: strings.Repeat("d/", 60) + "index.md"}
	if id := long.ID(); len(id) > MaxIDLen || !idShape.MatchString(id) {
		t.Errorf("long id %q (%d chars)", id, len(id))
	}
	if id := (Site{URL: "https://例え.jp/index.md"}).ID(); !idShape.MatchString(id) {
		t.Errorf("non-ASCII host id %q", id)
	}
}

func TestSite(t *testing.T) {
	s := Site{URL: "https://Docs.Example.com/kb/okf/index.md"}
	if s.Host() != "docs.example.com" || s.SiteURL() != "https://Docs.Example.com/" || s.Path() != "kb/okf/index.md" || s.Dir() != "kb/okf" || s.Low() {
		t.Errorf("site: host %q url %q path %q dir %q low %v", s.Host(), s.SiteURL(), s.Path(), s.Dir(), s.Low())
	}
	root := Site{URL: "https://example.org/index.md"}
	if root.Dir() != "" || root.Path() != "index.md" {
		t.Errorf("root site: dir %q path %q", root.Dir(), root.Path())
	}
	if (Site{URL: "://bad"}).Host() != "" {
		t.Error("unparsable URL must give an empty host")
	}
}

func TestRepoState(t *testing.T) {
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	recent, old := now.AddDate(0, -1, 0), now.AddDate(-2, 0, 0)
	tests := []struct {
		gone, archived bool
		pushed         *time.Time
		want           string
	}{
		{true, true, &recent, StateGone},
		{false, true, &recent, StateArchived},
		{false, false, &old, StateStalled},
		{false, false, &recent, StateActive},
		{false, false, nil, StateActive},
	}
	for _, tt := range tests {
		if got := RepoState(tt.gone, tt.archived, tt.pushed, now); got != tt.want {
			t.Errorf("RepoState(%v, %v, %v) = %s, want %s", tt.gone, tt.archived, tt.pushed, got, tt.want)
		}
	}
}
