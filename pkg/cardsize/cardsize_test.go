package cardsize

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/okfindex/okf-index/pkg/wire"
)

func concepts(n int, name, url, summary string) wire.ConceptList {
	l := make(wire.ConceptList, n)
	for i := range l {
		l[i] = wire.Concept{Name: name, URL: url, Summary: summary}
	}
	return l
}

func TestFit(t *testing.T) {
	lang := "Go\x1b[31m"
	for _, tc := range []struct {
		name  string
		card  wire.Card
		cut   []string
		check func(t *testing.T, c wire.Card)
	}{
		{"small card untouched", wire.Card{Name: "Guide", Tagline: "One line.", Description: "Body\n\nmore",
			ConceptList: concepts(3, "A", "https://x/a.md", "s")}, nil,
			func(t *testing.T, c wire.Card) {
				if c.Name != "Guide" || c.Description != "Body\n\nmore" || len(c.ConceptList) != 3 {
					t.Errorf("changed: %+v", c)
				}
			}},
		{"3000-character title, type and version", wire.Card{Name: strings.Repeat("T", 3000),
			Type: strings.Repeat("y", 3000), OKFVersion: strings.Repeat("9", 100)},
			[]string{CutName, CutType, CutVersion},
			func(t *testing.T, c wire.Card) {
				if utf8.RuneCountInString(c.Name) != MaxName || !strings.HasSuffix(c.Name, "…") {
					t.Errorf("name %d characters", utf8.RuneCountInString(c.Name))
				}
				if len(c.Type) != MaxType || len(c.OKFVersion) != MaxVersion {
					t.Errorf("type %d, version %d", len(c.Type), len(c.OKFVersion))
				}
			}},
		{"controls and bidi stripped", wire.Card{Name: "Evil\x1b]0;x\x07\u202eName\u200b", Tagline: "tag\x1b[2J",
			Description: "line\x1b[31m\n\u202eok", ConceptList: concepts(1, "c\u2066n", "https://x/a.md", "s\x07"),
			Repo: &wire.RepoSignal{Language: &lang}}, nil,
			func(t *testing.T, c wire.Card) {
				if c.Name != "Evil]0;xName" || c.Tagline != "tag[2J" || c.Description != "line[31m\nok" ||
					c.ConceptList[0].Name != "cn" || c.ConceptList[0].Summary != "s" || *c.Repo.Language != "Go[31m" {
					t.Errorf("not cleaned: %q %q %q %+v %q", c.Name, c.Tagline, c.Description, c.ConceptList, *c.Repo.Language)
				}
			}},
		{"24 concept names of 80 KB", wire.Card{Name: "Big", Concepts: 24,
			ConceptList: concepts(24, strings.Repeat("n", 80<<10), "https://x/a.md", strings.Repeat("s", 80<<10))},
			[]string{CutConceptList, CutConceptName, CutConceptSummary},
			func(t *testing.T, c wire.Card) {
				if c.Concepts != 24 || len(c.ConceptList) == 0 || len(c.ConceptList) == 24 {
					t.Errorf("concepts %d, listed %d", c.Concepts, len(c.ConceptList))
				}
			}},
		{"HTML characters everywhere", wire.Card{Name: strings.Repeat("<", 3000), Tagline: strings.Repeat("&", 3000),
			Description: strings.Repeat("<>", 3000), ConceptList: concepts(24, strings.Repeat("<", 300), "https://x/"+strings.Repeat("a", 2000), strings.Repeat(">", 600))},
			[]string{CutName, CutTagline, CutDescription, CutConceptList, CutConceptName, CutConceptSummary}, nil},
		{"long URL not listed", wire.Card{Concepts: 2, ConceptList: wire.ConceptList{{Name: "a", URL: "https://x/" + strings.Repeat("a", MaxConceptURL)}, {Name: "b", URL: "https://x/b"}}},
			[]string{CutConceptList},
			func(t *testing.T, c wire.Card) {
				if len(c.ConceptList) != 1 || c.ConceptList[0].Name != "b" {
					t.Errorf("list %+v", c.ConceptList)
				}
			}},
		{"more than 24 concepts", wire.Card{ConceptList: concepts(30, "a", "https://x/a", "")}, []string{CutConceptList}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.card
			Fit(&c)
			if !slices.Equal(c.Cut, tc.cut) {
				t.Errorf("cut %q, want %q", c.Cut, tc.cut)
			}
			if size := EncodedSize(c); size > MaxCardBytes-cardReserve {
				t.Errorf("encoded %d bytes", size)
			}
			if tc.check != nil {
				tc.check(t, c)
			}
			again := c
			again.ConceptList = slices.Clone(c.ConceptList)
			Fit(&again)
			if EncodedSize(again) != EncodedSize(c) || !slices.Equal(again.Cut, c.Cut) {
				t.Errorf("fitting again changed the card: cut %q", again.Cut)
			}
		})
	}
}

func TestFitDescriptionLast(t *testing.T) {
	// A card whose name and tagline alone are large: the description gives way.
	c := wire.Card{Name: strings.Repeat("<", MaxName), Tagline: strings.Repeat("<", MaxTagline),
		Description: strings.Repeat("<", MaxDescription), IndexURL: "https://x/" + strings.Repeat("a", 1000),
		PageURL: "https://x/" + strings.Repeat("a", 1000), Source: wire.BundleSource{Path: strings.Repeat("<", 1000)}}
	Fit(&c)
	if size := EncodedSize(c); size > MaxCardBytes-cardReserve || !Cut(c, CutDescription) {
		t.Errorf("size %d, cut %q", size, c.Cut)
	}
}

func TestCheckSignal(t *testing.T) {
	for _, tc := range []struct {
		stars, forks int64
		bad          string
	}{
		{0, 0, ""}, {MaxSignal, MaxSignal, ""}, {-1, 0, "stars"}, {0, 1 << 62, "forks"}, {math.MinInt64, 0, "stars"},
	} {
		err := CheckSignal(tc.stars, tc.forks)
		var se *SignalError
		if tc.bad == "" && err != nil || tc.bad != "" && (!errors.As(err, &se) || se.Field != tc.bad) {
			t.Errorf("CheckSignal(%d, %d) = %v", tc.stars, tc.forks, err)
		}
	}
}

// BenchmarkFit is the cost Fit adds to every bundle written: a typical card
// (nothing to cut) and a hostile one (names and summaries of 80 KB).
func BenchmarkFit(b *testing.B) {
	typical := wire.Card{Name: "A typical bundle", Tagline: strings.Repeat("t", 120), Description: strings.Repeat("word ", 200),
		ConceptList: concepts(24, "Concept name", "https://raw.githubusercontent.com/o/r/HEAD/docs/concept.md", strings.Repeat("s", 60))}
	hostile := wire.Card{Name: strings.Repeat("n", 3000), ConceptList: concepts(24, strings.Repeat("n", 80<<10), "https://x/a.md", strings.Repeat("s", 80<<10))}
	for _, c := range []struct {
		name string
		card wire.Card
	}{{"typical", typical}, {"hostile", hostile}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				x := c.card
				Fit(&x)
			}
		})
	}
}

func TestSizeBound(t *testing.T) {
	lang := "Go"
	for _, c := range []wire.Card{
		{},
		{Name: "<&>\"\\\u2028\u2029\x01", Description: strings.Repeat("<", 1000), Repo: &wire.RepoSignal{Stars: 2147483647, Forks: 2147483647, Language: &lang}},
		{Concepts: 2147483647, ConceptList: concepts(24, "<<", "https://x/&", "\u2028"), Cut: cutOrder, LookAlikeOf: &lang},
	} {
		if b, e := sizeBound(c), EncodedSize(c); b < e {
			t.Errorf("bound %d under the encoded %d", b, e)
		}
	}
}
