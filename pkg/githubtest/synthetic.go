package githubtest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// SyntheticShapes names the bundle layouts AddSyntheticRepos cycles
// through (picked per repository by the seeded generator).
var SyntheticShapes = []string{
	"root",      // index.md at the repository root + concepts/*.md
	"docs-okf",  // docs/okf/index.md + concepts
	"hidden",    // .okf/index.md (hidden directory)
	"multi",     // bundles/a/index.md and bundles/b/index.md
	"group",     // okf/index.md and okf/sub/index.md, both declaring okf_version
	"negative",  // docs/index.md without okf_version (not a bundle)
	"body-only", // index.md mentions okf_version in its body, no frontmatter
}

// SyntheticBundles reports how many bundle roots (index.md files declaring
// okf_version in frontmatter) a shape holds.
func SyntheticBundles(shape string) int {
	switch shape {
	case "multi", "group":
		return 2
	case "negative", "body-only":
		return 0
	}
	return 1
}

// AddSyntheticRepos adds n generated repositories named
// "synth<seed>-<k>/kb-<i>" (owners spread over 100 logins), each with a
// README, a bundle of one of SyntheticShapes and a few small pages
// (~2 KB per repository, so 10,000 repositories stay near 20 MB). A quarter
// carry "okf" in the name, a third mention OKF in the description, a
// quarter have topic "okf"; stars follow a long tail. Same n and seed give
// the same repositories. It returns the full names added, in order.
func (s *Server) AddSyntheticRepos(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	names := make([]string, 0, n)
	for i := range n {
		shape := SyntheticShapes[rng.IntN(len(SyntheticShapes))]
		r := Repo{
			Owner: fmt.Sprintf("synth%d-%02d", seed, i%100),
			Name:  fmt.Sprintf("kb-%05d", i),
			Stars: int(rng.ExpFloat64() * 40),
			Forks: rng.IntN(10),
		}
		if rng.IntN(4) == 0 {
			r.Name = fmt.Sprintf("okf-kb-%05d", i)
		}
		if rng.IntN(3) == 0 {
			r.Description = "Knowledge base published as an OKF bundle"
		} else {
			r.Description = "Project notes and documentation"
		}
		if rng.IntN(4) == 0 {
			r.Topics = []string{"okf", "knowledge-base"}
		}
		r.Archived = rng.IntN(20) == 0
		r.Language = []string{"Go", "Python", "TypeScript", "Markdown", ""}[rng.IntN(5)]
		r.License = []string{"MIT", "Apache-2.0", ""}[rng.IntN(3)]
		r.Files = syntheticFiles(shape, r.Name, rng)
		s.AddRepo(r)
		names = append(names, r.FullName())
	}
	return names
}

func syntheticFiles(shape, name string, rng *rand.Rand) map[string][]byte {
	files := map[string][]byte{}
	readme := "# " + name + "\n\nNotes for this project.\n"
	if rng.IntN(3) == 0 {
		readme += "\nThe knowledge base follows the OKF format.\n"
	}
	files["README.md"] = []byte(readme)
	bundle := func(dir, title string) {
		prefix := ""
		if dir != "" {
			prefix = dir + "/"
		}
		k := 2 + rng.IntN(3)
		var b strings.Builder
		fmt.Fprintf(&b, "---\nokf_version: \"0.%d\"\ntitle: %s\n---\n\n# %s\n\n## Concepts\n\n", 1+rng.IntN(2), title, title)
		for j := range k {
			page := fmt.Sprintf("concepts/topic-%d.md", j)
			fmt.Fprintf(&b, "- [Topic %d](%s): what topic %d means.\n", j, page, j)
			files[prefix+page] = fmt.Appendf(nil, "# Topic %d\n\nTopic %d of %s, explained in a paragraph of text.\n", j, j, title)
		}
		files[prefix+"index.md"] = []byte(b.String())
	}
	switch shape {
	case "root":
		bundle("", name)
	case "docs-okf":
		bundle("docs/okf", name)
	case "hidden":
		bundle(".okf", name)
	case "multi":
		bundle("bundles/a", name+" A")
		bundle("bundles/b", name+" B")
	case "group":
		bundle("okf/sub", name+" sub")
		bundle("okf", name)
	case "negative":
		files["docs/index.md"] = []byte("# Docs\n\n- [Guide](guide.md)\n")
		files["docs/guide.md"] = []byte("# Guide\n\nHow to use it.\n")
	case "body-only":
		files["index.md"] = []byte("# Notes\n\nWe may add okf_version frontmatter later.\n")
	}
	return files
}
