package smoke

import (
	"bytes"
	"context"
	"fmt"
)

// accountChecks are the checks of the full variant's account routes, made
// without a session: the bootstrap answers, the session routes refuse with
// their names and answer no CORS header, a write from elsewhere is refused,
// and an unknown API key is a 401, never an anonymous request. On the base
// variant every account route is a 404.
func (s *suite) accountChecks() []check {
	accountPaths := []string{"/api/auth/bootstrap", "/api/me", "/api/account/profile", "/api/account/avatar", "/api/account/keys"}
	return []check{
		{name: "GET /api/auth/bootstrap", full: true, run: func(ctx context.Context, s *suite) error {
			r, err := s.callSession(ctx, "GET", "/api/auth/bootstrap", nil, nil)
			if err != nil {
				return err
			}
			if err := r.expectJSON(200, nil, "csrf", "context"); err != nil {
				return err
			}
			if r.header.Get("X-House-Context") == "" || r.header.Get("Cache-Control") != "no-store" {
				return fmt.Errorf("no X-House-Context or no-store")
			}
			return nil
		}},
		{name: "GET /api/me (no session)", full: true, run: func(ctx context.Context, s *suite) error {
			return s.wantSessionError(ctx, "GET", "/api/me", nil, nil, 401, "invalid_session")
		}},
		{name: "GET /api/account/keys (no session)", full: true, run: func(ctx context.Context, s *suite) error {
			return s.wantSessionError(ctx, "GET", "/api/account/keys", nil, nil, 401, "invalid_session")
		}},
		{name: "POST /api/account/keys/create (foreign origin)", full: true, run: func(ctx context.Context, s *suite) error {
			return s.wantSessionError(ctx, "POST", "/api/account/keys/create", []byte(`{"name":"smoke","organizationId":null}`),
				map[string]string{"Origin": "https://house-smoke.invalid", "Content-Type": "application/json"}, 403, "invalid_origin")
		}},
		{name: "GET /api/bundles (unknown API key)", full: true, run: func(ctx context.Context, s *suite) error {
			r, err := s.call(ctx, "GET", "/api/bundles?limit=1", nil, map[string]string{"X-Api-Key": "hsk_house-smoke-unknown-key-000000000000000000000"})
			if err != nil {
				return err
			}
			return r.expectError(401, "invalid_api_key")
		}},
		{name: "account routes (absent on base)", run: func(ctx context.Context, s *suite) error {
			if s.full {
				return nil
			}
			for _, p := range accountPaths {
				r, err := s.call(ctx, "GET", p, nil, nil)
				if err != nil {
					return err
				}
				if err := r.expectError(404, "not_found"); err != nil {
					return fmt.Errorf("%s: %w", p, err)
				}
			}
			return nil
		}},
	}
}

// wantSessionError checks a refusal of a session route.
func (s *suite) wantSessionError(ctx context.Context, method, path string, body []byte, header map[string]string, status int, name string) error {
	r, err := s.callSession(ctx, method, path, bytes.NewReader(body), header)
	if err != nil {
		return err
	}
	return r.expectError(status, name)
}

// expectError checks an error answer's status and name.
func (r response) expectError(status int, name string) error {
	var e struct{ Error, Message string }
	if err := r.expectJSON(status, &e, "error", "message"); err != nil {
		return err
	}
	if e.Error != name {
		return fmt.Errorf("error %q, want %q", e.Error, name)
	}
	return nil
}
