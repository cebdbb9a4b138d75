// Package account serves the full variant's accounts (contract 2.8, 4.5,
// section 5): the global session of the house's identity service (a JWT
// in a cookie, verified by pkg/identity), its CSRF protection, the
// session's user, profile and picture, logout, the API keys of the
// session's user and their check on every other request (the API key
// middleware), the identity service's signed events, and the account
// page. Every row is Full: a base deployment has no accounts and reads
// no key.
package account

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/route"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// Store is what the accounts read and write.
type Store interface {
	SyncProfile(ctx context.Context, identityID string, c store.ProfileClaims) (store.Profile, error)
	Avatar(ctx context.Context, identityID string) ([]byte, error)
	RevokeSession(ctx context.Context, product, sessionID, identityID string, expires time.Time) error
	SessionRevoked(ctx context.Context, product, sessionID, identityID string, issuedAt time.Time) (bool, error)
	ListAPIKeys(ctx context.Context, identityID, product string) ([]store.APIKey, error)
	CreateAPIKey(ctx context.Context, in store.NewAPIKey) (store.APIKey, error)
	RevokeAPIKey(ctx context.Context, identityID, product, id string) error
	APIKeyByHash(ctx context.Context, hash []byte) (store.APIKey, error)
	TouchAPIKey(ctx context.Context, id string, at time.Time) (bool, error)
	ApplyIdentityEvent(ctx context.Context, ev store.IdentityEvent) (applied bool, err error)
}

// Deps are what the account routes need besides the configuration.
type Deps struct {
	Store     Store
	Site      *web.Site // renders the account page
	BaseURL   string    // PUBLIC_BASE_URL without a trailing slash
	SignInURL string    // AUTH_SIGNIN_URL: the identity service's sign-in page, or ""
}

// Service answers the account routes and checks API keys.
type Service struct {
	d        Deps
	verifier *identity.Verifier
	product  string  // this product's id: the audience and product of its sessions
	origin   string  // the exact Origin of a write: PUBLIC_BASE_URL's scheme and host
	csrfKey  []byte  // signs CSRF cookies and tokens
	keyUses  keyUses // when this process last wrote each key's last use
}

// keyUses remembers when this process last wrote each key's last use, so
// that most requests skip the write the store would refuse anyway.
type keyUses struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// Routes are the account's JSON rows of the route table.
func (s *Service) Routes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/api/auth/bootstrap", Summary: "CSRF token and view context of this browser and session", Full: true,
			Handler: s.getBootstrap, Usage: route.NotCounted, Session: true},
		{Method: http.MethodGet, Path: "/api/me", Summary: "The session's user", Full: true,
			Handler: s.getMe, Usage: route.NotCounted, Session: true},
		{Method: http.MethodGet, Path: "/api/account/profile", Summary: "The session user's profile", Full: true,
			Handler: s.getProfile, Usage: route.NotCounted, Session: true},
		{Method: http.MethodGet, Path: "/api/account/avatar", Summary: "The session user's own picture (WebP)", Full: true,
			Handler: s.getAvatar, Usage: route.NotCounted, Session: true},
		{Method: http.MethodPost, Path: "/api/auth/logout", Summary: "End this product's session", Full: true,
			Handler: s.postLogout, Usage: route.NotCounted, Session: true},
		{Method: http.MethodGet, Path: "/api/account/keys", Summary: "The session user's API keys", Full: true,
			Handler: s.listKeys, Usage: route.NotCounted, Session: true},
		{Method: http.MethodPost, Path: "/api/account/keys/create", Summary: "Create an API key", Full: true,
			Handler: s.createKey, Usage: route.NotCounted, Session: true},
		{Method: http.MethodPost, Path: "/api/account/keys/revoke", Summary: "Revoke an API key", Full: true,
			Handler: s.revokeKey, Usage: route.NotCounted, Session: true},
		{Method: http.MethodPost, Path: IdentityEventsPath, Summary: "Receive a signed event of the identity service", Full: true,
			Handler: s.postIdentityEvent, Usage: route.NotCounted, IgnoresAPIKey: true},
	}
}

// PageRoutes are the rows of the account page.
func (s *Service) PageRoutes() []route.Route {
	return []route.Route{
		{Method: http.MethodGet, Path: "/account", Summary: "Web page: your API keys (full variant)", Full: true,
			Handler: s.getAccountPage, Usage: route.CountedAsPage, Session: true},
		{Method: http.MethodGet, Path: "/account/keys", Summary: "Web page: the key list of the account page, alone (full variant)", Full: true,
			Handler: s.getAccountKeys, Usage: route.NotCounted, Session: true},
	}
}

// Origin is the exact Origin of a write from this service's own pages:
// PUBLIC_BASE_URL's scheme and host.
func (s *Service) Origin() string { return s.origin }
