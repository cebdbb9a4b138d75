package account

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/billing"
	"github.com/okfindex/okf-index/services/api/server/caller"
	"github.com/okfindex/okf-index/services/api/server/route"
)

// API keys as credentials (contract section 5): on the full variant a
// request to any route but the session routes and the identity events may
// present an account key, as Authorization: Bearer hsk_... or X-Api-Key.
// A valid, live key of this product makes the request the account's (or
// its organization's): its successful requests are counted under the key
// (the server's usage counting) and its last use is recorded at most once an hour.
//
// Never a silent anonymous request: every Authorization and X-Api-Key
// header is either exactly one valid credential the route takes or a
// refusal. A key (either header) that is unknown, revoked, inactive, of
// another product or malformed is a 401 invalid_api_key, wherever it is in
// the request; so is an hsk_ key under another scheme or case (Token
// hsk_..., Bearer HSK_...) and any Authorization the route does not take
// (Basic ..., a bare token). A cred_ token is taken only where credit is
// (route.TakesCredit), else 401 invalid_credit; another Bearer token only
// where the operator token is (route.TakesOperatorToken), whose handler
// judges it. Two headers of one kind, or two different keys, are a 400
// invalid_request: which one counts would be a guess. The base variant
// has no accounts and reads no key. The payment view signal reads none
// either: it answers 202 or 204 and nothing else (contract 4.4).

// presentedAPIKeys returns the API keys a request presents (X-Api-Key,
// and Authorization when it carries one), or the refusal of its
// credential headers on route r.
func presentedAPIKeys(h http.Header, r route.Route) ([]string, error) {
	for _, name := range []string{echo.HeaderAuthorization, "X-Api-Key", billing.CreditHeader} {
		if len(h.Values(name)) > 1 {
			return nil, apierror.New(apierror.InvalidRequest, "The request carries "+name+" more than once; send one credential of a kind.")
		}
	}
	var keys []string
	if v := h.Values("X-Api-Key"); len(v) == 1 {
		keys = append(keys, strings.TrimSpace(v[0]))
	}
	auth := strings.TrimSpace(h.Get(echo.HeaderAuthorization))
	if auth == "" {
		return keys, nil
	}
	scheme, cred, _ := strings.Cut(auth, " ")
	cred = strings.TrimSpace(cred)
	bearer := strings.EqualFold(scheme, "Bearer")
	lower := strings.ToLower(cred)
	if lower == "" {
		lower = strings.ToLower(scheme) // a bare value, no scheme
	}
	switch {
	case bearer && strings.HasPrefix(cred, apiKeyPrefix):
		return append(keys, cred), nil
	case strings.HasPrefix(lower, apiKeyPrefix):
		return nil, invalidAPIKey("An API key goes in Authorization: Bearer hsk_... (the prefix in lowercase) or X-Api-Key; this Authorization is not one.")
	case r.Credentials&route.TakesOperatorToken != 0:
		return keys, nil // the handler judges the operator token (and refuses any other)
	case bearer && strings.HasPrefix(cred, billing.CreditPrefix) && r.Credentials&route.TakesCredit != 0:
		return keys, nil // the handler charges it
	case strings.HasPrefix(lower, billing.CreditPrefix):
		if r.Credentials&route.TakesCredit == 0 {
			return nil, billing.InvalidCredit("This route takes no credit token; credit pays POST /api/contact and reads GET /api/credito.")
		}
		return nil, billing.InvalidCredit("A credit token goes in Authorization: Bearer cred_... (the prefix in lowercase) or X-Credito.")
	}
	return nil, invalidAPIKey("This route takes no such Authorization: send an API key (Bearer hsk_... or X-Api-Key), or none.")
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

// APIKeyMiddleware is the middleware that reads the presented keys, by
// the rows of routes (the full variant's table).
func (s *Service) APIKeyMiddleware(routes route.ByPath) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc { return s.authenticateAPIKey(routes, next) }
}

// authenticateAPIKey reads the presented keys of a request.
func (s *Service) authenticateAPIKey(routes route.ByPath, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r, ok := routes.Row(c.Request().Method, c.Path())
		if !ok || r.Session || r.IgnoresAPIKey {
			return next(c)
		}
		keys, err := presentedAPIKeys(c.Request().Header, r)
		if err != nil {
			return err
		}
		var found *store.APIKey
		for _, key := range keys {
			k, err := s.checkAPIKey(c.Request().Context(), key)
			if err != nil {
				return err
			}
			if found != nil && found.ID != k.ID {
				return apierror.New(apierror.InvalidRequest, "The request presents two different API keys; send one.")
			}
			found = &k
		}
		if found == nil {
			return next(c)
		}
		if now := time.Now(); s.keyUses.due(found.ID, now) {
			if _, err := s.d.Store.TouchAPIKey(c.Request().Context(), found.ID, now); err != nil {
				return err
			}
		}
		caller.SetAPIKey(c, *found)
		return next(c)
	}
}

// checkAPIKey is the live key of this product that key is, or its 401.
func (s *Service) checkAPIKey(ctx context.Context, key string) (store.APIKey, error) {
	if len(key) != APIKeyLen || !strings.HasPrefix(key, apiKeyPrefix) {
		return store.APIKey{}, invalidAPIKey("The API key is malformed: keys are hsk_ followed by 43 characters.")
	}
	k, err := s.d.Store.APIKeyByHash(ctx, apiKeyHash(key))
	switch {
	case errors.Is(err, store.ErrKeyNotFound):
		return k, invalidAPIKey("The API key is unknown.")
	case err != nil:
		return k, err
	case k.RevokedAt != nil:
		return k, invalidAPIKey("The API key was revoked.")
	case k.StoppedAt != nil:
		return k, invalidAPIKey("The API key is inactive: a password change or ending all sessions stopped it; create a new one.")
	case k.Product != s.product:
		return k, invalidAPIKey("The API key belongs to another product of the house.")
	}
	return k, nil
}

// KeyUsageMetric is the usage counter of a key's successful requests: the
// key id, which names its account and organization.
func KeyUsageMetric(k store.APIKey) string {
	return "okf_key_" + strings.ReplaceAll(k.ID, "-", "")
}
