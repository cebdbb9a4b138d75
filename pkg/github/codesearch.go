package github

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
)

// CodeHit is one file found by code search.
type CodeHit struct {
	Repo RepoRef
	Path string
}

// CodePage is one page of a code search.
type CodePage struct {
	Hits  []CodeHit
	Total int  // total_count
	Done  bool // no page after this one
}

// CodePerPage is the page size of SearchCode.
const CodePerPage = 100

// SearchCode runs one page (1-based) of a REST code search
// (GET /search/code?q=okf_version+filename:index.md+size:0..999), paced so
// that searches are at least CodeSearchInterval apart.
func (c *Client) SearchCode(ctx context.Context, query string, page int) (CodePage, error) {
	if err := c.paceCodeSearch(ctx); err != nil {
		return CodePage{}, err
	}
	u := c.rest + "/search/code?" + url.Values{
		"q": {query}, "per_page": {strconv.Itoa(CodePerPage)}, "page": {strconv.Itoa(page)},
	}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return CodePage{}, fmt.Errorf("github: code search: %w", err)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	resp, err := c.http.Do(req)
	if err != nil {
		return CodePage{}, fmt.Errorf("github: code search: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return CodePage{}, fmt.Errorf("github: code search: %w", err)
	}
	if resp.StatusCode == http.StatusUnprocessableEntity && page > 1 {
		// Past the last page GitHub can serve (1000 results).
		return CodePage{Done: true}, nil
	}
	if resp.StatusCode != http.StatusOK {
		return CodePage{}, fmt.Errorf("github: code search %q page %d: %s: %.200s", query, page, resp.Status, body)
	}
	var out struct {
		TotalCount int `json:"total_count"`
		Items      []struct {
			Path       string `json:"path"`
			Repository struct {
				Name  string `json:"name"`
				Owner struct {
					Login string `json:"login"`
				} `json:"owner"`
			} `json:"repository"`
		} `json:"items"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return CodePage{}, fmt.Errorf("github: code search: %w", err)
	}
	p := CodePage{Total: out.TotalCount}
	for _, it := range out.Items {
		p.Hits = append(p.Hits, CodeHit{Repo: RepoRef{Owner: it.Repository.Owner.Login, Name: it.Repository.Name}, Path: it.Path})
	}
	p.Done = len(out.Items) < CodePerPage || page*CodePerPage >= min(out.TotalCount, SearchLimit)
	return p, nil
}

// paceCodeSearch waits until the next code search is allowed.
func (c *Client) paceCodeSearch(ctx context.Context) error {
	c.mu.Lock()
	now := c.clock.Now()
	wait := c.nextSearch.Sub(now)
	at := now
	if wait > 0 {
		at = c.nextSearch
	}
	c.nextSearch = at.Add(c.codeInterval)
	c.mu.Unlock()
	if wait <= 0 {
		return nil
	}
	return c.clock.Sleep(ctx, wait)
}
