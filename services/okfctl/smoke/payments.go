package smoke

import (
	"bytes"
	"context"
	"fmt"
)

// paymentChecks are the checks of the full variant's paid routes, which
// never pay: the credit purchase offers its x402 402 (or says payments are
// not configured), the balance without a token is a 401, and the contact
// route validates a body without sending anything. On the base variant
// the three routes are a 404.
func (s *suite) paymentChecks() []check {
	return []check{
		{name: "POST /api/credito (402 offer, not paid)", full: true, run: func(ctx context.Context, s *suite) error {
			r, err := s.call(ctx, "POST", "/api/credito?usd=1", nil, nil)
			if err != nil {
				return err
			}
			if r.status == 503 {
				return r.expectError(503, "payment_unavailable")
			}
			if err := r.expectJSON(402, nil, "x402Version", "error", "accepts"); err != nil {
				return err
			}
			if r.header.Get("PAYMENT-REQUIRED") == "" {
				return fmt.Errorf("no PAYMENT-REQUIRED header beside the 402")
			}
			return nil
		}},
		{name: "GET /api/credito (no token)", full: true, run: func(ctx context.Context, s *suite) error {
			r, err := s.call(ctx, "GET", "/api/credito", nil, nil)
			if err != nil {
				return err
			}
			return r.expectError(401, "invalid_credit")
		}},
		{name: "POST /api/contact (validated, not sent)", full: true, run: func(ctx context.Context, s *suite) error {
			return s.wantError(ctx, "POST", "/api/contact", []byte(`{"email":"smoke@example.com","message":"smoke"}`), 400, "name")
		}},
		{name: "payment routes (absent on base)", run: func(ctx context.Context, s *suite) error {
			if s.full {
				return nil
			}
			for _, c := range [][2]string{{"POST", "/api/credito?usd=1"}, {"GET", "/api/credito"}, {"POST", "/api/contact"}} {
				r, err := s.call(ctx, c[0], c[1], bytes.NewReader([]byte(`{}`)), map[string]string{"Content-Type": "application/json"})
				if err != nil {
					return err
				}
				if err := r.expectError(404, "not_found"); err != nil {
					return fmt.Errorf("%s %s: %w", c[0], c[1], err)
				}
			}
			return nil
		}},
	}
}
