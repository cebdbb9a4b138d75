package store_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/okfindex/okf-index/pkg/store"
)

// named is repoBundle with the card's name set.
func named(owner, repo, path, name string) store.BundleInput {
	in := repoBundle(owner, repo, path)
	in.Name = name
	return in
}

func TestSuggest(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	mustUpsert(t, s, named("okforg", "okf-index", "index.md", "OKF Org"))
	mustUpsert(t, s, named("acme", "kubernetes-notes", "index.md", "Cluster Diary"))
	site := siteBundle("https://docs.example.net/index.md")
	site.Name = "Zanzibar Handbook"
	mustUpsert(t, s, site)
	// Low (an example path) and hidden bundles are never offered.
	mustUpsert(t, s, named("zoo", "quokka-keeper", "examples/index.md", "Quokka Field Notes"))
	hidden := named("sea", "narwhal-atlas", "index.md", "Narwhal Atlas")
	mustUpsert(t, s, hidden)
	if err := s.HideBundle(ctx, hidden.ID); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		q    string
		want []string // nil: nothing
	}{
		{"okforg", []string{"OKF Org"}},                     // a separator left out
		{"okf-orgg", []string{"OKF Org"}},                   // a letter doubled
		{"Okf Ogr", []string{"OKF Org"}},                    // two letters swapped, case
		{"okfarg", []string{"OKF Org"}},                     // a letter changed
		{"OKF org", nil},                                    // q itself, as its key
		{"okf_org", nil},                                    // the same key
		{"kubernets notes", []string{"kubernetes-notes"}},   // a repository's name
		{"zanzibar handbok", []string{"Zanzibar Handbook"}}, // a domain bundle's name
		{"quokka field note", nil},                          // low
		{"quoka-keeper", nil},                               // low, by repository name
		{"narwhal atlass", nil},                             // hidden
		{"narwhal-atls", nil},                               // hidden, by repository name
		{"cluster", nil},                                    // a word of a name is not a typo of it
		{"zanzibr", nil},                                    // a word of a name, not a name
		{"completely different", nil},
	} {
		got, err := s.Suggest(ctx, c.q, store.FoundAll)
		if err != nil {
			t.Fatalf("Suggest(%q): %v", c.q, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Suggest(%q) = %q, want %q", c.q, got, c.want)
		}
	}
	// With words (the search found nothing), a q no name is near gets its
	// words corrected to words of live names; names still come first.
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"zanzibr", []string{"zanzibar"}},
		{"Zanzibr handbok", []string{"Zanzibar Handbook"}},        // the name, whole
		{"Cluster diarry notez", []string{"Cluster diary notes"}}, // each word of a bundle's name
		{"kubernets", []string{"kubernetes"}},                     // a word of a repository's name
		{"okforg", []string{"OKF Org"}},                           // a name first
		{"narwhl", nil},                                           // a hidden bundle's word
		{"quoka", nil},                                            // a low bundle's word
		{"completely different", nil},
	} {
		got, err := s.Suggest(ctx, c.q, store.FoundNone)
		if err != nil {
			t.Fatalf("Suggest(%q, words): %v", c.q, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Suggest(%q, words) = %q, want %q", c.q, got, c.want)
		}
	}
	// When some bundles hold some of q's words, only the words that no
	// live bundle holds are corrected ("note" is held, as a stem of
	// "notes"); the word being typed is held by a name word it begins.
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"zanzibr letter", []string{"zanzibar letter"}},
		{"zanzibr note", []string{"zanzibar note"}},
		{"okf handbo", nil},                        // "handbo" begins "handbook"
		{"okf handbo ", []string{"okf handbook "}}, // not being typed
		{"okfarg letter", []string{"okf org letter"}},
		{"Zanzibr handbok", []string{"Zanzibar Handbook"}}, // a name first
		{"cluster letter", nil},                            // every word held
		// A request as agents write it, too long to be a name.
		{"please find me the knowledge bundle about the zanzibr islands and its letters", []string{"please find me the knowledge bundle about the zanzibar islands and its letters"}},
	} {
		got, err := s.Suggest(ctx, c.q, store.FoundSome)
		if err != nil {
			t.Fatalf("Suggest(%q, some found): %v", c.q, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Suggest(%q, some found) = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestSuggestClosestFirstAndBounded(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	// Eight names one or two edits from "widgetz"; several bundles share
	// one of them.
	for i, name := range []string{"Widgets", "Widgetry", "Gadgets", "Widgeta", "Widgetb", "Widgetc", "Widget", "Wodgets"} {
		mustUpsert(t, s, named("own", fmt.Sprintf("r%d", i), "index.md", name))
	}
	for i := range 5 {
		mustUpsert(t, s, named("dup", fmt.Sprintf("r%d", i), "index.md", "widgets"))
	}
	got, err := s.Suggest(ctx, "widgetz", store.FoundAll)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != store.MaxSuggestions {
		t.Fatalf("Suggest(widgetz) = %q, want %d suggestions", got, store.MaxSuggestions)
	}
	keys := map[string]bool{}
	for _, g := range got {
		k := strings.ToLower(g)
		if keys[k] {
			t.Errorf("Suggest(widgetz) = %q: %q twice", got, g)
		}
		keys[k] = true
		// One edit each: a letter changed (Widgets, Widgeta...) or dropped
		// (Widget); never Widgetry (two) before them.
		if k == "widgetry" || k == "wodgets" || k == "gadgets" {
			t.Errorf("Suggest(widgetz) = %q: %q is farther than others left out", got, g)
		}
	}

	// Out of bounds: no lookup, no error.
	for _, q := range []string{"", "wi", strings.Repeat("widgets ", 25)} {
		if got, err := s.Suggest(ctx, q, store.FoundAll); err != nil || got != nil {
			t.Errorf("Suggest(%.20q...) = %q, %v; want nothing", q, got, err)
		}
	}
}
