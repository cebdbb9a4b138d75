package server

import (
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/caller"
)

// API keys as credentials (contract section 5): on the full variant a
// request to any route but the session routes and the identity events may
// present an account key, as Authorization: Bearer hsk_... or X-Api-Key.
// A valid, live key of this product makes the request the account's (or
// its organization's): its successful requests are counted under the key
// (countUsage) and its last use is recorded at most once an hour. Any
// other key (unknown, revoked, inactive, of another product, malformed) is
// a 401 invalid_api_key: never a silent anonymous request. The base
// variant has no accounts and reads no key. The payment view signal reads
// none either: it answers 202 or 204 and nothing else (contract 4.4).

// presentedAPIKey returns the key a request presents, and whether it
// presents one: X-Api-Key, or a Bearer credential starting hsk_ (another
// Bearer token is the operator's, read by its own route).
func presentedAPIKey(c echo.Context) (string, bool) {
	h := c.Request().Header
	if v := h.Values("X-Api-Key"); len(v) > 0 {
		return strings.TrimSpace(v[0]), true
	}
	scheme, cred, ok := strings.Cut(h.Get(echo.HeaderAuthorization), " ")
	cred = strings.TrimSpace(cred)
	if ok && strings.EqualFold(scheme, "Bearer") && strings.HasPrefix(cred, apiKeyPrefix) {
		return cred, true
	}
	return "", false
}

// keyUses remembers when this process last wrote each key's last use, so
// that most requests skip the write the store would refuse anyway.
type keyUses struct {
	mu   sync.Mutex
	last map[string]time.Time
}

func (u *keyUses) due(id string, now time.Time) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.last == nil {
		u.last = map[string]time.Time{}
	}
	if t, ok := u.last[id]; ok && now.Sub(t) < store.KeyUseInterval {
		return false
	}
	u.last[id] = now
	return true
}

// authenticateAPIKey is the middleware that reads a presented key.
func (s *Server) authenticateAPIKey(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !s.full {
			return next(c)
		}
		route, ok := s.byPath.Row(c.Request().Method, c.Path())
		if !ok || route.Session || route.IgnoresAPIKey {
			return next(c)
		}
		key, presented := presentedAPIKey(c)
		if !presented {
			return next(c)
		}
		if len(key) != apiKeyLen || !strings.HasPrefix(key, apiKeyPrefix) {
			return invalidAPIKey("The API key is malformed: keys are hsk_ followed by 43 characters.")
		}
		ctx := c.Request().Context()
		k, err := s.store.APIKeyByHash(ctx, apiKeyHash(key))
		switch {
		case errors.Is(err, store.ErrKeyNotFound):
			return invalidAPIKey("The API key is unknown.")
		case err != nil:
			return err
		case k.RevokedAt != nil:
			return invalidAPIKey("The API key was revoked.")
		case k.StoppedAt != nil:
			return invalidAPIKey("The API key is inactive: a password change or ending all sessions stopped it; create a new one.")
		case k.Product != s.accounts.product:
			return invalidAPIKey("The API key belongs to another product of the house.")
		}
		if now := time.Now(); s.keyUses.due(k.ID, now) {
			if _, err := s.store.TouchAPIKey(ctx, k.ID, now); err != nil {
				return err
			}
		}
		caller.SetAPIKey(c, k)
		return next(c)
	}
}

// keyUsageMetric is the usage counter of a key's successful requests: the
// key id, which names its account and organization.
func keyUsageMetric(k store.APIKey) string {
	return "okf_key_" + strings.ReplaceAll(k.ID, "-", "")
}
