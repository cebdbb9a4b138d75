package store

import (
	"slices"
	"testing"
)

func TestNameWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Acme/Widgets", []string{"acme", "widgets"}},
		{"  okf-index_v2.x: Notes ", []string{"okf", "index", "v2", "x", "notes"}},
		{"Finanças Pessoais", []string{"finanças", "pessoais"}},
		{"C++ (notes)", []string{"c++", "(notes)"}}, // okf_name_key keeps other punctuation
		{"", nil},
	} {
		var got []string
		for _, w := range nameWords(c.in) {
			got = append(got, w.text)
			if w.start < 0 || w.end > len(c.in) {
				t.Fatalf("nameWords(%q): span %d..%d out of range", c.in, w.start, w.end)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("nameWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDictionaryWords(t *testing.T) {
	got := dictionaryWords([]string{"OKF Org", "org-tools", "An Atlas of Go"})
	want := []string{"atlas", "okf", "org", "tools"} // sorted, once, 3+ runes
	if !slices.Equal(got, want) {
		t.Errorf("dictionaryWords = %q, want %q", got, want)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"widgets", "widgets", 2, 0},
		{"widgetz", "widgets", 2, 1},  // substitution
		{"widget", "widgets", 2, 1},   // insertion
		{"fucnia", "fucina", 2, 1},    // neighbours swapped
		{"ogr", "org", 1, 1},          // neighbours swapped
		{"widgetry", "widgets", 2, 2}, // substitution and insertion
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 2, 3}, // past the limit: limit+1
		{"ab", "abcdef", 2, 3},      // lengths alone exceed it
		{"finança", "financa", 1, 1},
	} {
		if got := editDistance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}

func TestOneEditAway(t *testing.T) {
	got := oneEditAway("ogr")
	for _, want := range []string{"org", "ogre", "or", "gr", "ogx", "aogr"} {
		if !slices.Contains(got, want) {
			t.Errorf("oneEditAway(ogr) lacks %q", want)
		}
	}
	for _, v := range got {
		if v == "ogr" || editDistance(v, "ogr", 1) != 1 {
			t.Errorf("oneEditAway(ogr) has %q, not one edit away", v)
		}
	}
}

func TestGluedTypoVariants(t *testing.T) {
	for _, c := range []struct {
		q       string
		known   []string
		has     []string // among the variants
		lacks   []string // not among them
		howMany int      // -1: any but none
	}{
		// "okf" is known: "arg" is one edit from "org".
		{"okfarg", []string{"okf"}, []string{"org", "ag", "barg"}, []string{"okfa", "okf"}, -1},
		// "arg" is known: the typo may be in "okf".
		{"okfarg", []string{"arg"}, []string{"okg", "kf"}, []string{"org"}, -1},
		// No part known: nothing to correct, nothing looked up.
		{"okfarg", nil, nil, nil, 0},
		// Longer than maxGluedTypoRunes: corrected by similarity, not cut.
		{"kubernetesorg", []string{"kubernetes", "org"}, nil, nil, 0},
		// A known part beside two runes, too short to be a word.
		{"xynotes", []string{"notes"}, nil, nil, 0},
		// Two words: only the one with a known part.
		{"okfarg zzzzz", []string{"okf"}, []string{"org"}, []string{"zzzz"}, -1},
	} {
		known := map[string]bool{}
		for _, k := range c.known {
			known[k] = true
		}
		got := gluedTypoVariants(nameWords(c.q), known)
		if c.howMany >= 0 && len(got) != c.howMany {
			t.Errorf("gluedTypoVariants(%q, %v) = %d strings, want %d", c.q, c.known, len(got), c.howMany)
		}
		if c.howMany < 0 && len(got) == 0 {
			t.Errorf("gluedTypoVariants(%q, %v) is empty", c.q, c.known)
		}
		for _, h := range c.has {
			if !slices.Contains(got, h) {
				t.Errorf("gluedTypoVariants(%q, %v) lacks %q", c.q, c.known, h)
			}
		}
		for _, l := range c.lacks {
			if slices.Contains(got, l) {
				t.Errorf("gluedTypoVariants(%q, %v) has %q", c.q, c.known, l)
			}
		}
	}
}

func TestWordCorrections(t *testing.T) {
	known := map[string]bool{"okf": true, "org": true, "docs": true, "doc": true, "fucina": true}
	for _, c := range []struct {
		word    string
		similar []string
		want    []correction
	}{
		{"okforg", nil, []correction{{"okf org", 1}}}, // glued
		{"okfarg", nil, []correction{{"okf org", 2}}}, // glued, a letter changed
		{"ogr", nil, []correction{{"org", 1}}},        // short: every string one edit away
		{"doc", nil, []correction{{"docs", 1}}},       // itself is not a correction
		{"fucnia", nil, []correction{{"fucina", 1}}},  // swap, found exactly
		{"widgetz", []string{"widgets", "widgetry", "gadgets"}, // by similarity, within maxEdits
			[]correction{{"widgets", 1}, {"widgetry", 2}}}, // gadgets: 3
		{"zzzzzz", []string{"fucina"}, nil},
	} {
		got := wordCorrections(c.word, exactVariants(c.word), known, c.similar)
		if !slices.Equal(got, c.want) {
			t.Errorf("wordCorrections(%q) = %v, want %v", c.word, got, c.want)
		}
	}
}

func TestCandidates(t *testing.T) {
	q := "Deutches-Recht notes"
	words := nameWords(q)
	fixes := [][]correction{{{"deutsches", 1}}, {{"recht2", 1}}, nil}
	got := candidates(q, words, fixes, 2)
	want := []candidate{
		{"deutsches-Recht notes", 1}, // the rest of q as typed
		{"Deutches-recht2 notes", 1},
		{"deutsches-recht2 notes", 2},
	}
	if !slices.Equal(got, want) {
		t.Errorf("candidates = %v, want %v", got, want)
	}
	if got := candidates(q, words, fixes, 1); len(got) != 2 {
		t.Errorf("candidates within 1 edit = %v, want the two single corrections", got)
	}
	// Bounded whatever the corrections.
	many := make([]correction, 40)
	for i := range many {
		many[i] = correction{string(rune('a' + i%26)), 1}
	}
	if got := candidates("a b c", nameWords("a b c"), [][]correction{many, many, many}, 3); len(got) != maxSuggestCandidates {
		t.Errorf("%d candidates, want the cap %d", len(got), maxSuggestCandidates)
	}
}

func TestWordCandidates(t *testing.T) {
	for _, c := range []struct {
		q      string
		fixes  [][]correction
		budget int
		want   []candidate
		fixed  []string
	}{
		// One word: its corrections, closest first, at most MaxSuggestions.
		{"Qiskt", [][]correction{{{"qiskit", 1}, {"qiskat", 2}}}, 2, []candidate{{"qiskit", 1}, {"qiskat", 2}}, []string{"qiskit", "qiskat"}},
		{"qiskt", [][]correction{{{"qiskit", 1}, {"qiskat", 2}}}, 1, []candidate{{"qiskit", 1}}, []string{"qiskit"}},
		{"abcd", [][]correction{{{"abce", 1}, {"abcf", 1}, {"abcg", 1}, {"abch", 1}}}, 1,
			[]candidate{{"abce", 1}, {"abcf", 1}, {"abcg", 1}}, []string{"abce", "abcf", "abcg"}},
		{"okforg", [][]correction{{{"okf org", 1}}}, 2, []candidate{{"okf org", 1}}, []string{"okf org"}},
		// Several: every word that has a correction takes its closest, in one.
		{"qiskt primr-notes", [][]correction{{{"qiskit", 1}}, {{"primer", 1}, {"prime", 1}}, nil}, 3,
			[]candidate{{"qiskit primer-notes", 2}}, []string{"qiskit primer"}},
		{"qiskt primr", [][]correction{{{"qiskit", 1}}, {{"primer", 2}}}, 2, nil, nil}, // over the budget
		{"plain words", [][]correction{nil, nil}, 3, nil, nil},
	} {
		got, fixed := wordCandidates(c.q, nameWords(c.q), c.fixes, c.budget)
		if !slices.Equal(got, c.want) || !slices.Equal(fixed, c.fixed) {
			t.Errorf("wordCandidates(%q) = %v, %q; want %v, %q", c.q, got, fixed, c.want, c.fixed)
		}
	}
}
