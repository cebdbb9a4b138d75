package store

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okfindex/okf-index/pkg/wire"
)

func TestIdentText(t *testing.T) {
	repo := "acme/widgets"
	tests := []struct {
		in   BundleInput
		repo *string
		want string
	}{
		{BundleInput{Card: wire.Card{Source: wire.BundleSource{Path: "docs/okf/index.md", Dir: "docs/okf"}}}, &repo,
			"acme/widgets:docs/okf/index.md acme widgets docs okf"},
		{BundleInput{Card: wire.Card{Source: wire.BundleSource{Path: "index.md"}}}, &repo, "acme/widgets:index.md acme widgets"},
		{BundleInput{Card: wire.Card{IndexURL: "https://www.Docs.Example.co.uk/kb/index.md", Source: wire.BundleSource{Dir: "kb"}}}, nil,
			"https://www.Docs.Example.co.uk/kb/index.md docs example co kb"},
	}
	for _, tt := range tests {
		if got := identText(tt.in, tt.repo); got != tt.want {
			t.Errorf("identText = %q, want %q", got, tt.want)
		}
	}
}

func TestContentHash(t *testing.T) {
	in := BundleInput{Card: wire.Card{
		ID: "x", IndexURL: "https://i", PageURL: "https://p",
		Name: "N", ConceptList: wire.ConceptList{{Name: "c", URL: "u"}},
		Source: wire.BundleSource{Origin: "code_host", Path: "index.md"},
		Repo:   &wire.RepoSignal{Stars: 1},
	}, RootSHA256: "abc"}
	h := newBundleRow(in).contentHash
	same := in
	same.Repo = &wire.RepoSignal{Stars: 99}           // repository signals do not count
	same.IndexedAt = wire.Timestamp{Time: time.Now()} // nor what the store and the API set
	same.API = "https://okf.example/api/bundles/x"
	if got := newBundleRow(same).contentHash; got != h {
		t.Error("hash depends on repository signals, timestamps or the api URL")
	}
	nilList := in
	nilList.Card.ConceptList = nil
	empty := in
	empty.Card.ConceptList = wire.ConceptList{}
	if newBundleRow(nilList).contentHash != newBundleRow(empty).contentHash {
		t.Error("a nil and an empty concept list hash differently")
	}
	for name, edit := range map[string]func(*BundleInput){
		"root":     func(b *BundleInput) { b.RootSHA256 = "def" },
		"name":     func(b *BundleInput) { b.Card.Name = "M" },
		"concept":  func(b *BundleInput) { b.Card.ConceptList = wire.ConceptList{{Name: "c", URL: "v"}} },
		"page url": func(b *BundleInput) { b.PageURL = "https://q" },
		"path":     func(b *BundleInput) { b.Source.Path = "a/index.md" },
	} {
		c := in
		edit(&c)
		if newBundleRow(c).contentHash == h {
			t.Errorf("changing %s keeps the hash", name)
		}
	}
}

// TestContentHashIsStable pins the hash of two inputs, text that JSON
// escapes included. A stored bundle whose hash changes looks changed to the
// next sweep, which moves its updated_at: the hash must not follow a change
// of Go types.
func TestContentHashIsStable(t *testing.T) {
	repo := "acme/widgets"
	code := BundleInput{Card: wire.Card{
		ID: "acme-widgets-x", IndexURL: "https://raw.example/a&b<c>.md", PageURL: "https://p/?a=1&b=2",
		Name: "N <&>", Tagline: "t", Description: "d & e \u2028\u2029", OKFVersion: "0.2", Concepts: 3, Type: "glossary",
		ConceptList: wire.ConceptList{{Name: "c<1>", URL: "u?x=1&y=2", Summary: "s"}},
		Source: wire.BundleSource{Origin: "code_host", Via: "sweep", URL: "https://github.com/acme/widgets", Host: "github.com",
			Repo: &repo, Dir: "docs", Path: "docs/index.md"},
	}, RootSHA256: "abc", Low: true}
	site := BundleInput{Card: wire.Card{
		ID: "site", IndexURL: "https://docs.example/index.md", PageURL: "https://docs.example/index.md",
		Name: "Site", OKFVersion: "0.1",
		Source: wire.BundleSource{Origin: "domain", Via: "indexnow", URL: "https://docs.example", Host: "docs.example", Path: "index.md"},
	}, RootSHA256: "def"}
	for in, want := range map[*BundleInput]string{
		&code: "62224f18531759f3cbeb37329ee9768e56cb3b50b135f734da21da9021952ca8",
		&site: "ed7359d52998d620b81ec6d4449968075bfbb11d5e431b372254229cfc7620ff",
	} {
		if got := newBundleRow(*in).contentHash; got != want {
			t.Errorf("%s: content hash %s, want %s", in.ID, got, want)
		}
	}
}

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           "plain",
		"nul\x00byte":     "nulbyte",
		"bad\xffutf8":     "badutf8",
		"ünïcödé\x00\xc3": "ünïcödé",
	} {
		if got := cleanText(in); got != want {
			t.Errorf("cleanText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestConceptWords(t *testing.T) {
	for in, want := range map[string][]string{
		"kubern":                 {"kubern"},
		"Event  Sourcing":        {"Event", "Sourcing"},
		"event-driven, ok":       {"event", "driven", "ok"},
		"it's":                   {"it", "s"},
		"%_!":                    {},
		"naïve 日本":               {"naïve", "日本"},
		strings.Repeat("a ", 20): slices.Repeat([]string{"a"}, maxConceptWords),
	} {
		if got := conceptWords(in); !slices.Equal(got, want) {
			t.Errorf("conceptWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// signalCols.equal says what comparing the columns' JSON said: same nil-ness
// and same values, times by instant (both sides are UTC, as stored).
func TestSignalColsEqual(t *testing.T) {
	one, one2, two := 1, 1, 2
	a, a2, b := "MIT", "MIT", "Apache-2.0"
	t1 := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	t1b := t1 // another pointer, the same instant
	t2 := t1.Add(time.Microsecond)
	tests := []struct {
		name string
		x, y signalCols
		want bool
	}{
		{"both empty", signalCols{}, signalCols{}, true},
		{"same values, other pointers", signalCols{Stars: &one, License: &a, PushedAt: &t1},
			signalCols{Stars: &one2, License: &a2, PushedAt: &t1b}, true},
		{"stars differ", signalCols{Stars: &one}, signalCols{Stars: &two}, false},
		{"stars nil on one side", signalCols{Stars: &one}, signalCols{}, false},
		{"license differs", signalCols{License: &a}, signalCols{License: &b}, false},
		{"pushed at differs", signalCols{PushedAt: &t1}, signalCols{PushedAt: &t2}, false},
		{"pushed at nil on one side", signalCols{}, signalCols{PushedAt: &t1}, false},
		{"pushed at same", signalCols{PushedAt: &t1}, signalCols{PushedAt: &t1b}, true},
	}
	for _, tt := range tests {
		if got := tt.x.equal(tt.y); got != tt.want {
			t.Errorf("%s: equal = %v, want %v", tt.name, got, tt.want)
		}
		if got := tt.y.equal(tt.x); got != tt.want {
			t.Errorf("%s (swapped): equal = %v, want %v", tt.name, got, tt.want)
		}
	}
}
