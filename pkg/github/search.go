package github

import (
	"context"

	"github.com/shurcooL/githubv4"
)

// SearchLimit is the most results GitHub returns for one search; a search
// that matches more must be split (by date window, by size range).
const SearchLimit = 1000

// SearchPage is one page of a repository search.
type SearchPage struct {
	Repos     []RepoRef
	Total     int    // repositoryCount: every match, even past SearchLimit
	EndCursor string // pass as after for the next page
	HasNext   bool
}

// SearchRepositories runs one page (100 results) of a repository search
// (GitHub search syntax: "okf in:readme created:2025-01-01..2025-06-30").
// after is the previous page's EndCursor, or "" for the first page.
func (c *Client) SearchRepositories(ctx context.Context, query, after string) (SearchPage, error) {
	var q struct {
		Search struct {
			RepositoryCount int `graphql:"repositoryCount"`
			PageInfo        struct {
				EndCursor   *string `graphql:"endCursor"`
				HasNextPage bool    `graphql:"hasNextPage"`
			} `graphql:"pageInfo"`
			Nodes []struct {
				Repository struct {
					Owner struct {
						Login string `graphql:"login"`
					} `graphql:"owner"`
					Name string `graphql:"name"`
				} `graphql:"... on Repository"`
			} `graphql:"nodes"`
		} `graphql:"search(query:$q, type:REPOSITORY, first:$first, after:$after)"`
		RateLimit RateLimit `graphql:"rateLimit"`
	}
	var cursor *githubv4.String
	if after != "" {
		cursor = githubv4.NewString(githubv4.String(after))
	}
	vars := map[string]any{"q": githubv4.String(query), "first": githubv4.Int(100), "after": cursor}
	if _, err := c.query(ctx, "search repositories", &q, vars); err != nil {
		return SearchPage{}, err
	}
	c.observe(q.RateLimit)
	page := SearchPage{Total: q.Search.RepositoryCount, HasNext: q.Search.PageInfo.HasNextPage}
	if q.Search.PageInfo.EndCursor != nil {
		page.EndCursor = *q.Search.PageInfo.EndCursor
	}
	for _, n := range q.Search.Nodes {
		if n.Repository.Name != "" {
			page.Repos = append(page.Repos, RepoRef{Owner: n.Repository.Owner.Login, Name: n.Repository.Name})
		}
	}
	return page, nil
}
