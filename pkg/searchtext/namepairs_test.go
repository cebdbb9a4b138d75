package searchtext

import "testing"

func TestNamePairs(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"Home Assistant Automations Cookbook", "homeassistant assistantautomations automationscookbook"},
		{"GitHub Actions", "githubactions"},
		{"Docker Compose: a guide", "dockercompose composea aguide"},
		{"C++ Templates", ""},            // "C++" is no word of letters alone
		{"Next.js Handbook", ""},         // "Next.js" is one token, glued by Expand
		{"中药学笔记", ""},                    // CJK: its bigrams join it
		{"a b c d e f g", "ab bc cd de"}, // at most four
		{"Single", ""},
		{"Café Société", "cafésociété"},
		{"2024 Report", ""}, // a word needs a letter
	} {
		if got := NamePairs(c.name); got != c.want {
			t.Errorf("NamePairs(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
