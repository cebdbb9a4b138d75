package store_test

import (
	"context"
	"fmt"
	"time"

	"github.com/okfindex/okf-index/pkg/indexer"
	"github.com/okfindex/okf-index/pkg/source"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/pkg/wire"
)

// Three bundle roots are parsed as the sweep parses them, written in one
// batch, and searched as GET /api/bundles searches: a plural finds the
// singular, accents do not matter, and by relevance the bundle named for
// the words comes first; a word being typed matches as a prefix.
func ExampleStore_Search() {
	st, done, err := storetest.Open()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

	roots := []struct {
		owner, repo, root string
		stars             int
	}{
		{"acme", "recipes", "---\nokf_version: \"0.2\"\ntitle: Recipe Book\ndescription: Cooking recipes from a family kitchen.\n---\n# Recipe Book\n", 40},
		{"acme", "finance", "---\nokf_version: \"0.2\"\ntitle: Finanças pessoais\ndescription: Orçamento doméstico e investimentos.\n---\n", 5},
		{"zeta", "kitchen-ops", "---\nokf_version: \"0.2\"\ntitle: Kitchen Operations\ndescription: Running a restaurant kitchen, with a recipe index.\n---\n", 900},
	}
	var batch []store.BundleInput
	for _, r := range roots {
		in, err := indexer.FromRepo([]byte(r.root), source.Repo{Owner: r.owner, Name: r.repo, Path: "index.md"},
			indexer.RepoInfo{Stars: r.stars, Language: "Markdown"}, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		batch = append(batch, in)
	}
	if _, err := st.UpsertBundles(ctx, batch); err != nil {
		fmt.Println(err)
		return
	}

	for _, p := range []store.SearchParams{
		{Q: "recipes", Sort: wire.SortRelevance},
		{Q: "financas"},
		{Q: "kitch", Sort: wire.SortStars},
	} {
		page, err := st.Search(ctx, p)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s:", p.Q)
		for _, b := range page {
			fmt.Printf(" %s (%s);", b.Name, *b.Source.Repo)
		}
		fmt.Println()
	}
	// Output:
	// recipes: Recipe Book (acme/recipes); Kitchen Operations (zeta/kitchen-ops);
	// financas: Finanças pessoais (acme/finance);
	// kitch: Kitchen Operations (zeta/kitchen-ops); Recipe Book (acme/recipes);
}
