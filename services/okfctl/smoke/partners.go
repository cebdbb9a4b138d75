package smoke

import (
	"context"
	"fmt"
)

// partnerChecks are the checks of the full variant's partnership offer:
// GET /api/partners answers its keys with the placements, a strong ETag
// and an hour's cache, and If-None-Match with that ETag is a 304. On the
// base variant the route is a 404.
func (s *suite) partnerChecks() []check {
	return []check{
		{name: "GET /api/partners", full: true, run: func(ctx context.Context, s *suite) error {
			r, err := s.call(ctx, "GET", "/api/partners", nil, nil)
			if err != nil {
				return err
			}
			var doc struct {
				Status     string
				Placements []struct{ ID string }
			}
			if err := r.expectJSON(200, &doc, "status", "modalidades", "placements", "current_sponsors", "stats", "payment", "contact", "politica", "_links"); err != nil {
				return err
			}
			if doc.Status != "sob_consulta" || len(doc.Placements) == 0 {
				return fmt.Errorf("status %q with %d placements, want sob_consulta and the placements", doc.Status, len(doc.Placements))
			}
			tag := r.header.Get("ETag")
			if tag == "" || r.header.Get("Cache-Control") == "" {
				return fmt.Errorf("ETag %q, Cache-Control %q: the answer is not cacheable", tag, r.header.Get("Cache-Control"))
			}
			again, err := s.call(ctx, "GET", "/api/partners", nil, map[string]string{"If-None-Match": tag})
			if err != nil {
				return err
			}
			if again.status != 304 || len(again.body) != 0 {
				return fmt.Errorf("If-None-Match with the ETag: status %d with %d bytes, want 304 and no body", again.status, len(again.body))
			}
			return nil
		}},
		{name: "GET /api/partners (absent on base)", run: func(ctx context.Context, s *suite) error {
			if s.full {
				return nil
			}
			r, err := s.call(ctx, "GET", "/api/partners", nil, nil)
			if err != nil {
				return err
			}
			return r.expectError(404, "not_found")
		}},
	}
}
