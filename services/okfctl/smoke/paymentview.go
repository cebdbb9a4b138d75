package smoke

import (
	"context"
	"fmt"
)

// paymentViewChecks are the checks of the full variant's payment-view
// signal, POST /api/pagamento/aberto: smoke traffic is never the page's
// signal, so it is ignored (204, no body) and never cached; on the base
// variant the route is a 404.
func (s *suite) paymentViewChecks() []check {
	return []check{
		{name: "POST /api/pagamento/aberto (ignored)", full: true, run: func(ctx context.Context, s *suite) error {
			r, err := s.call(ctx, "POST", "/api/pagamento/aberto", nil, map[string]string{"X-House-Payment-View": "1"})
			if err != nil {
				return err
			}
			if r.status != 204 || len(r.body) != 0 || r.header.Get("Cache-Control") != "no-store" {
				return fmt.Errorf("status %d, %d bytes, Cache-Control %q: want 204, no body, no-store", r.status, len(r.body), r.header.Get("Cache-Control"))
			}
			return nil
		}},
		{name: "POST /api/pagamento/aberto (absent on base)", run: func(ctx context.Context, s *suite) error {
			if s.full {
				return nil
			}
			r, err := s.call(ctx, "POST", "/api/pagamento/aberto", nil, nil)
			if err != nil {
				return err
			}
			return r.expectError(404, "not_found")
		}},
	}
}
