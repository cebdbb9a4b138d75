package searchtext

import (
	"slices"
	"testing"
)

func TestAcronyms(t *testing.T) {
	type want struct {
		word, expansion string
		acronyms        []string
	}
	for _, c := range []struct {
		q    string
		want []want
	}{
		{"nlp notes", []want{{"nlp", "natural language processing", nil}, {"notes", "", nil}}},
		{"LLMs", []want{{"llms", "large language model", nil}}},
		{"korean natural language processing notes", []want{{"korean", "", nil},
			{"natural", "", []string{"nlp"}}, {"language", "", []string{"nlp"}}, {"processing", "", []string{"nlp"}}, {"notes", "", nil}}},
		{"evaluating large language models", []want{{"evaluating", "", nil},
			{"large", "", []string{"llm"}}, {"language", "", []string{"llm"}}, {"models", "", []string{"llm"}}}},
		{"internet of things sensors", []want{{"internet", "", []string{"iot"}}, {"things", "", []string{"iot"}}, {"sensors", "", nil}}},
		{"kubernetes k8s", []want{{"kubernetes", "", []string{"k8s"}}, {"k8s", "kubernetes", nil}}},
		{"language natural", []want{{"language", "", nil}, {"natural", "", nil}}}, // out of order
		{`"machine learning"`, []want{{"machine", "", nil}}},                      // a quoted phrase is as written
	} {
		terms := ParseQuery(c.q).Terms
		if len(terms) != len(c.want) {
			t.Errorf("%q: %d terms, want %d", c.q, len(terms), len(c.want))
			continue
		}
		for i, w := range c.want {
			got := terms[i]
			if got.Words[0] != w.word || got.Expansion != w.expansion || !slices.Equal(got.Acronyms, w.acronyms) {
				t.Errorf("%q: term %d = %q expansion %q acronyms %q; want %q %q %q", c.q, i, got.Words, got.Expansion, got.Acronyms, w.word, w.expansion, w.acronyms)
			}
		}
	}
}
