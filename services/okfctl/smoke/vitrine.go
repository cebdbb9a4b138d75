package smoke

import (
	"context"
	"fmt"
)

// vitrineChecks are the checks of the full variant's usage projection: it
// answers with contract version 1 and its five keys, and the operator
// views refuse a caller without the operator token. On the base variant
// the four routes are a 404.
func (s *suite) vitrineChecks() []check {
	operatorViews := []string{"/api/vitrine/operador", "/api/vitrine/painel", "/api/vitrine/cursores"}
	return []check{
		{name: "GET /api/vitrine", full: true, run: func(ctx context.Context, s *suite) error {
			var v struct {
				V int `json:"v"`
			}
			if err := s.getJSON(ctx, "/api/vitrine", 200, &v, "v", "produto", "publicado", "atualizado_em", "stale"); err != nil {
				return err
			}
			if v.V != 1 {
				return fmt.Errorf("v = %d, want 1", v.V)
			}
			return nil
		}},
		{name: "GET /api/vitrine/operador, /painel, /cursores (no token)", full: true, run: func(ctx context.Context, s *suite) error {
			for _, p := range operatorViews {
				r, err := s.call(ctx, "GET", p, nil, nil)
				if err != nil {
					return err
				}
				// 401 where an operator token is configured; 503
				// token_not_configured where none is (contract section 7).
				if err := r.expectError(401, "invalid_token"); err != nil {
					if err503 := r.expectError(503, "token_not_configured"); err503 != nil {
						return fmt.Errorf("%s: %w", p, err)
					}
				}
			}
			return nil
		}},
		{name: "vitrine routes (absent on base)", run: func(ctx context.Context, s *suite) error {
			if s.full {
				return nil
			}
			for _, p := range append([]string{"/api/vitrine"}, operatorViews...) {
				r, err := s.call(ctx, "GET", p, nil, nil)
				if err != nil {
					return err
				}
				if err := r.expectError(404, "not_found"); err != nil {
					return fmt.Errorf("GET %s: %w", p, err)
				}
			}
			return nil
		}},
	}
}
