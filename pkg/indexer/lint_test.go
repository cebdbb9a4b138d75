package indexer_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/okf"
)

func TestWarnings(t *testing.T) {
	tree := map[string]bool{"okf/index.md": true, "okf/a.md": true, "okf/x.md": true, "README.md": true}
	files := okf.Files(func(p string) bool { return tree[p] })
	ok := okf.Card{Name: "N", OKFVersion: "0.2", Concepts: 1}
	for _, tc := range []struct {
		name  string
		card  okf.Card
		dir   string
		files okf.Files
		want  []string
	}{
		{"clean", ok, "okf", files, []string{}},
		{"unknown version", okf.Card{Name: "N", OKFVersion: "9", Concepts: 1}, "", nil,
			[]string{`okf_version "9" is not a published OKF version (0.1, 0.2)`}},
		{"fallback name, no concepts, truncated", okf.Card{Name: "o/r", OKFVersion: "0.1", NameFellBack: true, Truncated: true}, "", nil,
			[]string{`no usable title (frontmatter title or first H1): the card is named "o/r"`,
				"no concepts: no list item or table row starts with a link",
				"root is longer than 2097152 bytes or 10000 entries: only the start is indexed"}},
		{"links checked against the tree", okf.Card{Name: "N", OKFVersion: "0.2", Concepts: 4, LocalLinks: 4, MissingLinks: 1,
			Links: []string{"a.md", "/okf/x.md", "/README.md", "gone.md", "../README.md"}}, "okf", files,
			[]string{`link "gone.md" points at a missing file`, `link "../README.md" leaves the bundle`, "1 of 4 concept links point at missing files"}},
		{"no tree, no link warnings", okf.Card{Name: "N", OKFVersion: "0.2", Concepts: 1, Links: []string{"gone.md"}}, "okf", nil, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := indexer.Warnings(tc.card, tc.dir, tc.files); !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
	if got := okf.MissingLinksLine(1, 1); got != "1 of 1 concept link points at missing files" {
		t.Errorf("singular: %q", got)
	}
}

func TestWarningsAreCapped(t *testing.T) {
	card := okf.Card{Name: "N", OKFVersion: "0.2", Concepts: 1}
	for i := range 500 {
		card.Links = append(card.Links, fmt.Sprintf("gone-%d-%s.md", i, strings.Repeat("x", 300)))
	}
	got := indexer.Warnings(card, "", okf.Files(func(string) bool { return false }))
	if len(got) != indexer.MaxWarnings || got[len(got)-1] != "and 481 more warnings" {
		t.Fatalf("%d warnings, last %q", len(got), got[len(got)-1])
	}
	for _, w := range got {
		if len(w) > 300 {
			t.Errorf("warning of %d bytes", len(w))
		}
	}
}
