package searchtext

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func FuzzParseQuery(f *testing.F) {
	for _, tt := range parseQueryCases {
		f.Add(tt.q)
	}
	for _, tt := range repoCases {
		f.Add(tt.q)
	}
	f.Add("\x00\xff\"-\"- -\xe5\xa4")
	f.Fuzz(func(t *testing.T, q string) {
		query := ParseQuery(q)
		if len(query.Terms) > MaxTerms || len(query.Excluded) > MaxTerms {
			t.Fatalf("%d terms, %d excluded: over MaxTerms", len(query.Terms), len(query.Excluded))
		}
		for i, term := range query.Terms {
			checkTerm(t, term)
			if term.Prefix && i != len(query.Terms)-1 {
				t.Fatalf("Prefix on term %d of %d", i, len(query.Terms))
			}
			if term.Prefix && (term.Phrase || len(term.Words) != 1 || utf8.RuneCountInString(term.Words[0]) < MinPrefix) {
				t.Fatalf("Prefix on %+v", term)
			}
		}
		for _, term := range query.Excluded {
			checkTerm(t, term)
			if term.Prefix {
				t.Fatalf("Prefix on excluded %+v", term)
			}
		}
		if query.Repo != "" && (query.Repo != strings.ToLower(query.Repo) || query.Key != query.Repo || strings.Count(query.Repo, "/") != 1) {
			t.Fatalf("Repo %q Key %q", query.Repo, query.Key)
		}
		if len(query.Key) > maxQueryBytes || !utf8.ValidString(query.Key) && utf8.ValidString(q) {
			t.Fatalf("Key %q", query.Key)
		}
	})
}

// checkTerm fails t unless term keeps the invariants documented on Term.
func checkTerm(t *testing.T, term Term) {
	t.Helper()
	if len(term.Words) == 0 || len(term.Words) > maxTermWords || len(term.Parts) > maxTermWords {
		t.Fatalf("term %+v: %d words, %d parts", term, len(term.Words), len(term.Parts))
	}
	if len(term.Parts) == 1 {
		t.Fatalf("term %+v: one part", term)
	}
	for _, w := range append(append([]string(nil), term.Words...), term.Parts...) {
		if w == "" || utf8.RuneCountInString(w) > maxWordRunes || w != strings.ToLower(w) {
			t.Fatalf("term %+v: word %q", term, w)
		}
		for _, r := range w {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				t.Fatalf("term %+v: word %q holds %U", term, w, r)
			}
		}
	}
}

func FuzzExpand(f *testing.F) {
	for _, tt := range expandCases {
		f.Add(tt.text)
	}
	for _, tt := range languageCases {
		f.Add(tt.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := Expand(text)
		if len(got) > MaxExpandOutput {
			t.Fatalf("len(Expand) = %d", len(got))
		}
		if got != "" && (got[0] == ' ' || got[len(got)-1] == ' ' || strings.Contains(got, "  ")) {
			t.Fatalf("Expand = %q: empty words", got)
		}
		for _, r := range got {
			if r != ' ' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				t.Fatalf("Expand(%q) = %q holds %U", text, got, r)
			}
		}
		lang := Language(text)
		if lang != Simple && stopFiles[lang] == "" {
			t.Fatalf("Language = %q", lang)
		}
	})
}
