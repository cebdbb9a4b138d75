package okf

import (
	"strings"
	"testing"
)

func TestParseCleansText(t *testing.T) {
	root := Root{URL: "https://raw.githubusercontent.com/o/r/HEAD/index.md", Label: "o/r"}
	for _, tc := range []struct {
		name, src string
		check     func(c Card) bool
	}{
		{"terminal escapes and bidi in every one-line field",
			"---\nokf_version: \"0.2\"\ntitle: \"Evil\\e]0;pwned\\a \\u202Eexe.txt\"\ndescription: \"tag\\e[2J\\u200Bline\"\ntype: \"gu\\u200Dide\\x07\"\n---\n\nBody \x1b[31mred\x1b[0m\n\n- [Con\u202ecept\x1b\x07](a.md) - sum\x07mary\u2066\n",
			func(c Card) bool {
				return len(c.ConceptList) == 1 && c.Name == "Evil]0;pwned exe.txt" && c.Tagline == "tag[2Jline" && c.Type == "guide" &&
					c.ConceptList[0].Name == "Concept" && c.ConceptList[0].Summary == "summary" &&
					strings.HasPrefix(c.Description, "Body [31mred[0m")
			}},
		{"a title of invisible characters only gives way to the H1",
			"---\nokf_version: \"0.2\"\ntitle: \"\\u200B\\u202E\"\n---\n\n# Real \u200bTitle\n",
			func(c Card) bool { return c.Name == "Real Title" && !c.NameFellBack }},
		{"an H1 of invisible characters only is no name",
			"---\nokf_version: \"0.2\"\n---\n\n# \u200b\u2066\n",
			func(c Card) bool { return c.Name == "o/r" && c.NameFellBack }},
		{"a concept URL over the cap is no concept",
			"---\nokf_version: \"0.2\"\n---\n\n- [Long](" + strings.Repeat("a", 2100) + ".md)\n- [Short](b.md)\n",
			func(c Card) bool { return c.Concepts == 1 && c.ConceptList[0].Name == "Short" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.src), root)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(c) {
				t.Errorf("card: name %q tagline %q type %q description %q concepts %d %+v",
					c.Name, c.Tagline, c.Type, c.Description, c.Concepts, c.ConceptList)
			}
		})
	}
}
