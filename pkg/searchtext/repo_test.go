package searchtext

import (
	"reflect"
	"strings"
	"testing"
)

// okfIndex is the terms of the repository okfindex/okf-index.
var okfIndex = terms(word("okfindex"), phrase("okf", "index"))

var repoCases = []struct {
	q, repo string
	terms   []Term // checked when not nil
}{
	{"okfindex/okf-index", "okfindex/okf-index", okfIndex},
	{"  okfindex/okf-index  ", "okfindex/okf-index", okfIndex},
	{"OKFIndex/OKF-Index", "okfindex/okf-index", nil},
	{"owner/repo.git", "owner/repo", terms(word("owner"), word("repo"))},
	{"owner/repo/", "owner/repo", nil},
	{"github.com/okfindex/okf-index", "okfindex/okf-index", okfIndex},
	{"www.github.com/okfindex/okf-index", "okfindex/okf-index", nil},
	{"https://github.com/Owner/Repo.git", "owner/repo", nil},
	{"http://github.com/owner/repo", "owner/repo", nil},
	{"https://www.github.com/owner/repo/", "owner/repo", nil},
	{"HTTPS://GitHub.com/owner/repo", "owner/repo", nil},
	{"https://github.com/owner/repo/tree/main/docs", "owner/repo", nil},
	{"https://github.com/owner/repo/blob/x/index.md", "owner/repo", nil},
	{"https://github.com/owner/repo?x=1", "owner/repo", nil},
	{"https://github.com/owner/repo#frag", "owner/repo", nil},
	{"https://github.com/owner/repo.git?x=1#frag", "owner/repo", nil},
	{"github.com/owner/repo/tree/main", "owner/repo", nil},
	{"git@github.com:Owner/Repo.git", "owner/repo", nil},
	{"git@github.com:owner/repo", "owner/repo", nil},
	{"ssh://git@github.com/owner/repo.git", "owner/repo", nil},
	{"git://github.com/owner/repo.git", "owner/repo", nil},
	{"git+https://github.com/owner/repo.git", "owner/repo", nil},
	{"https://raw.githubusercontent.com/owner/repo/main/docs/index.md", "owner/repo", nil},
	{"<https://github.com/owner/repo>", "owner/repo", nil},
	{"<owner/repo>", "owner/repo", nil},
	{"SatohaCC/PharmacyDomain", "satohacc/pharmacydomain",
		terms(split("satohacc", "satoha", "cc"), split("pharmacydomain", "pharmacy", "domain"))},
	{"owner/repo.name_x-y", "owner/repo.name_x-y", nil},
	// Any a/b shape is a repository, "ci/cd" too: the exact tier looks
	// it up and the text tiers still get its words.
	{"ci/cd", "ci/cd", terms(word("ci"), word("cd"))},
	{"the/who", "the/who", terms(word("the"), word("who"))},

	{"owner", "", nil},
	{"owner/", "", nil},
	{"/repo", "", nil},
	{"owner/repo extra", "", nil},
	{"a/b/c", "", nil},
	{"owner/repo?x=1", "", nil},
	{"-owner/repo", "", nil},
	{"owner_x/repo", "", nil},
	{"node.js/express", "", nil},
	{"owner/..", "", nil},
	{"owner/.", "", nil},
	{"abcdefghij-abcdefghij-abcdefghij-abcdefghij/repo", "", nil},
	{"owner/repö", "", nil},
	{"https://gitlab.com/owner/repo", "", nil},
	{"https://owner/repo", "", nil},
	{"git@owner/repo", "", nil},
	{"git@gitlab.com:owner/repo.git", "", nil},
	{"https://raw.githubusercontent.com/owner", "", nil},
	{"<https://github.com/owner/repo", "", nil},
	{"github.com/owner", "", nil},
	{"github.com.evil/owner/repo", "", nil},
}

func TestParseQueryRepo(t *testing.T) {
	for _, tt := range repoCases {
		t.Run(tt.q, func(t *testing.T) {
			got := ParseQuery(tt.q)
			if got.Repo != tt.repo {
				t.Errorf("Repo = %q, want %q", got.Repo, tt.repo)
			}
			wantKey := tt.repo
			if wantKey == "" {
				wantKey = strings.TrimSpace(tt.q)
			}
			if got.Key != wantKey {
				t.Errorf("Key = %q, want %q", got.Key, wantKey)
			}
			if tt.terms != nil && !reflect.DeepEqual(got.Terms, tt.terms) {
				t.Errorf("Terms = %+v, want %+v", got.Terms, tt.terms)
			}
			if tt.repo != "" && got.Excluded != nil {
				t.Errorf("Excluded = %+v, want none", got.Excluded)
			}
		})
	}
}

func TestParseQueryRepoDir(t *testing.T) {
	for q, want := range map[string]string{
		"https://github.com/saschb2b/okf-bundles/tree/main/bundles/rezepte":  "bundles/rezepte",
		"https://github.com/saschb2b/okf-bundles/tree/main/bundles/rezepte/": "bundles/rezepte",
		"github.com/saschb2b/okf-bundles/blob/main/bundles/rezepte/index.md": "bundles/rezepte",
		"https://github.com/a/b/blob/main/index.md":                          "",
		"https://github.com/a/b/tree/main":                                   "",
		"https://github.com/a/b/tree/main/docs?tab=readme#x":                 "docs",
		"https://github.com/a/b":                                             "",
		"a/b":                                                                "",
		"https://github.com/a/b/issues/3":                                    "",
		"https://raw.githubusercontent.com/a/b/main/docs/okf/index.md":       "docs/okf",
		"https://raw.githubusercontent.com/a/b/main/index.md":                "",
		"git@github.com:a/b.git":                                             "",
	} {
		if got := ParseQuery(q).Dir; got != want {
			t.Errorf("ParseQuery(%q).Dir = %q, want %q", q, got, want)
		}
	}
}
