package smoke

import (
	"context"
	"fmt"
	"strings"
)

// changeChecks cover the change feed and conditional requests: a page of
// GET /api/changes and the page its next_url names, a refused cursor, and
// a revalidation answered 304.
func (s *suite) changeChecks() []check {
	return []check{
		{name: "GET /api/changes", run: func(ctx context.Context, s *suite) error {
			var page struct {
				Next    string `json:"next"`
				NextURL string `json:"next_url"`
			}
			if err := s.getJSON(ctx, "/api/changes?limit=5", 200, &page, "items", "limit", "next", "next_url", "more"); err != nil {
				return err
			}
			if !strings.HasPrefix(page.NextURL, s.base+"/api/changes?since=") || page.Next == "" {
				return fmt.Errorf("next %q, next_url %q: want a cursor and an absolute URL of this deployment", page.Next, page.NextURL)
			}
			return s.getJSON(ctx, page.NextURL, 200, nil, "items", "next")
		}},
		{name: "GET /api/changes?since=house-smoke (refused)", run: func(ctx context.Context, s *suite) error {
			return s.wantError(ctx, "GET", "/api/changes?since=house-smoke", nil, 400, "since")
		}},
		{name: "GET /api/bundles?limit=1 (If-None-Match)", run: func(ctx context.Context, s *suite) error {
			r, err := s.call(ctx, "GET", "/api/bundles?limit=1", nil, nil)
			if err != nil {
				return err
			}
			tag := r.header.Get("ETag")
			if r.status != 200 || tag == "" || r.header.Get("Cache-Control") == "" {
				return fmt.Errorf("status %d, ETag %q, Cache-Control %q: want 200 with both", r.status, tag, r.header.Get("Cache-Control"))
			}
			again, err := s.call(ctx, "GET", "/api/bundles?limit=1", nil, map[string]string{"If-None-Match": tag})
			if err != nil {
				return err
			}
			if again.status != 304 || len(again.body) != 0 {
				return fmt.Errorf("revalidation: status %d with %d bytes, want 304 and no body", again.status, len(again.body))
			}
			return nil
		}},
	}
}
