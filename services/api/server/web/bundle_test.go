package web

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/okfindex/okf-index/pkg/wire"
)

func TestWholeDescription(t *testing.T) {
	long := strings.Repeat("word ", 200) // 1000 runes
	tests := []struct {
		name, src string
		wasCut    bool
		want      string // the end of the result
		cut       bool
		not       string // must not be in the result
	}{
		{"short, untouched", "A short description.", false, "A short description.", false, ""},
		{"cut mid-word ends on a word", long[:997] + "wor", false, "word " + ExcerptMarker, true, "wor " + ExcerptMarker},
		{"an open link is left out", long[:900] + "see [the guide](https://exa", true, "see " + ExcerptMarker, true, "[the"},
		{"open link text", long[:900] + "see [the guide and more", true, "see " + ExcerptMarker, true, "["},
		{"open inline code", long[:900] + "run `okfctl lint --repo", true, "run " + ExcerptMarker, true, "`"},
		{"open emphasis", long[:900] + "a **very bold claim", true, "a " + ExcerptMarker, true, "**"},
		{"open fence is closed", "Intro\n\n```go\nfunc main() {\n" + long[:900], true, ExcerptMarker + "\n```\n", true, ""},
		{"a table row cut", long[:900] + "\n\n| A | B |\n|---|---|\n| 1 | 2 |\n| 3 | fo", true, "| 1 | 2 |\n\n" + ExcerptMarker, true, "| 3"},
		{"a table header alone", long[:900] + "\n\n## Quick\n\n| Component | Technology | Purp", true, "word " + ExcerptMarker, true, "Quick"},
		{"a decorator fragment", long[:900] + "[@mlflow.trace decor", true, "word " + ExcerptMarker, true, "[@mlflow"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := wholeDescription(tc.src, 1000, tc.wasCut)
			if cut != tc.cut || !strings.HasSuffix(got, tc.want) || (tc.not != "" && strings.Contains(got, tc.not)) {
				t.Errorf("wholeDescription(...%q) = ...%q, %v", tail(tc.src), tail(got), cut)
			}
			if utf8.RuneCountInString(got) > 1000+len(ExcerptMarker)+5 {
				t.Errorf("longer than the contract: %d runes", utf8.RuneCountInString(got))
			}
		})
	}
}

func tail(s string) string {
	if len(s) > 40 {
		return s[len(s)-40:]
	}
	return s
}

func TestRenderDescription(t *testing.T) {
	src := "# Field Guide\n\nA guide to fields.\n\n## Concepts\n\n- [Soil](concepts/soil.md)\n- [Water](concepts/water.md)\n\n## Notes\n\n- plain item\n"
	got := string(renderDescription(src, "Field guide", true))
	if strings.Contains(got, "Field Guide") || strings.Contains(got, "Soil") || strings.Contains(got, ">Concepts<") {
		t.Errorf("the title or the concept list is repeated: %s", got)
	}
	if !strings.Contains(got, "A guide to fields.") || !strings.Contains(got, "plain item") || !strings.Contains(got, "<h3") {
		t.Errorf("the rest is lost: %s", got)
	}
	// Without concepts on the page, a link list stays.
	if got := string(renderDescription(src, "Other", false)); !strings.Contains(got, "Soil") || !strings.Contains(got, "Field Guide") {
		t.Errorf("kept: %s", got)
	}
}

func TestDisplayRepoAndProvenance(t *testing.T) {
	repo := "dreamlab-ai/knowledgegraph"
	c := wire.Card{Source: wire.BundleSource{Origin: wire.OriginCodeHost, Via: "sweep", Repo: &repo,
		URL: "https://github.com/DreamLab-AI/knowledgeGraph/tree/main/docs"}}
	if got := DisplayRepo(c); got != "DreamLab-AI/knowledgeGraph" {
		t.Errorf("DisplayRepo = %q", got)
	}
	c.Source.URL = "https://github.com/someone/else"
	if got := DisplayRepo(c); got != repo {
		t.Errorf("DisplayRepo of a URL of another repository = %q", got)
	}
	for _, tc := range []struct {
		s    wire.BundleSource
		want string
	}{
		{wire.BundleSource{Origin: wire.OriginCodeHost, Via: "sweep"}, "Found on GitHub by the daily sweep"},
		{wire.BundleSource{Origin: wire.OriginDomain, Via: "indexnow", Host: "example.org"}, "Published by IndexNow from example.org"},
	} {
		if got := Provenance(tc.s); got != tc.want {
			t.Errorf("Provenance(%+v) = %q", tc.s, got)
		}
	}
}

func TestPager(t *testing.T) {
	tests := []struct {
		offset int
		n      int64
		items  int
		want   string // page numbers, * current, _ a gap
		prev   string
	}{
		{0, 32, 24, "*1 2", ""},
		{24, 32, 8, "1 *2", "/?q=x"},
		{0, 10, 10, "", ""},
		{240, 5000, 24, "1 _9 10 *11 12 13 _42", "/?offset=216&q=x"},
		{0, 1001, 24, "*1 2 3 _42", ""},
	}
	for _, tc := range tests {
		in := SearchInput{Form: map[string][]string{"q": {"x"}, "cursor": {"abc"}}, Count: Count{N: tc.n, Exact: tc.n <= 1000, Known: true},
			Page: wire.Page{Offset: tc.offset, Limit: 24, Items: make([]wire.Card, tc.items)}}
		var r Results
		pager(&r, in)
		var got []string
		for _, p := range r.Pages {
			s := ""
			if p.Gap {
				s = "_"
			}
			if p.Current {
				s += "*"
			}
			got = append(got, s+strconv.Itoa(p.Number))
			if strings.Contains(p.URL, "cursor") {
				t.Errorf("page %d keeps the cursor: %s", p.Number, p.URL)
			}
		}
		if strings.Join(got, " ") != tc.want || r.Prev != tc.prev {
			t.Errorf("offset %d of %d: pages %v prev %q", tc.offset, tc.n, got, r.Prev)
		}
	}
	if got := resultsText(Count{N: 12345, Exact: false}); got != "About 12,345 results" {
		t.Errorf("resultsText = %q", got)
	}
}
