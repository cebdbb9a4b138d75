package github

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// MaxRawBytes is the most ReadRaw returns: the indexer reads roots up to
// 2 MiB (DESIGN.md), so more is never needed.
const MaxRawBytes = 2 << 20

// ReadRaw reads a file of a repository's default branch in full (up to
// MaxRawBytes) through the REST contents API with the raw media type: the
// fallback for a blob whose GraphQL text GitHub truncated.
func (c *Client) ReadRaw(ctx context.Context, f FileRef) ([]byte, error) {
	segs := strings.Split(f.Path, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := fmt.Sprintf("%s/repos/%s/%s/contents/%s", c.rest, url.PathEscape(f.Repo.Owner),
		url.PathEscape(f.Repo.Name), strings.Join(segs, "/"))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("github: read raw %s %s: %w", f.Repo, f.Path, err)
	}
	req.Header.Set("Accept", "application/vnd.github.raw")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("github: read raw %s %s: %w", f.Repo, f.Path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("github: read raw %s %s: %s", f.Repo, f.Path, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxRawBytes))
	if err != nil {
		return nil, fmt.Errorf("github: read raw %s %s: %w", f.Repo, f.Path, err)
	}
	return b, nil
}
