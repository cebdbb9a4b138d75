package account

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// The global session (contract section 5): a JWT of the house's identity
// service in the __Host-house-auth cookie, verified by pkg/identity and
// checked against the sessions ended here or at the house (pkg/store).

// SessionCookie is the cookie of the house's global session.
const SessionCookie = "__Host-house-auth"

// New builds the account routes of cfg: it loads the identity keys (a
// JWKS URL's are refreshed until ctx ends) and the CSRF key,
// AUTH_CSRF_SECRET or a random key of this process.
func New(ctx context.Context, cfg config.Config, log *slog.Logger, d Deps) (*Service, error) {
	keys, err := identity.NewKeySource(ctx, cfg.Auth, log)
	if err != nil {
		return nil, err
	}
	if !cfg.Auth.Configured() {
		log.Warn("full variant without AUTH_JWKS_URL or AUTH_KEY_FILE: sessions cannot be verified; account routes answer auth_unavailable")
	}
	u, err := url.Parse(cfg.PublicBaseURL)
	if err != nil {
		return nil, err
	}
	key := []byte(cfg.Auth.CSRFSecret)
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	return &Service{
		d:        d,
		verifier: identity.NewVerifier(keys, cfg.Auth, nil),
		product:  cfg.Auth.Audience,
		origin:   u.Scheme + "://" + u.Host,
		csrfKey:  key,
	}, nil
}

// currentSession returns the request's session, or nil when it carries
// none or one that is not a valid, live session of this product. The error
// is auth_unavailable when the keys cannot be had (the session is then
// neither accepted nor refused), or a failure of the database.
func (s *Service) currentSession(c echo.Context) (*identity.Session, error) {
	ck, err := c.Cookie(SessionCookie)
	if err != nil || ck.Value == "" {
		return nil, nil
	}
	ctx := c.Request().Context()
	sess, err := s.verifier.Session(ctx, ck.Value)
	switch {
	case errors.Is(err, identity.ErrUnavailable):
		return nil, authUnavailable()
	case err != nil:
		return nil, nil
	}
	revoked, err := s.d.Store.SessionRevoked(ctx, sess.ProductID, sess.SessionID, sess.IdentityID, sess.IssuedAt)
	if err != nil || revoked {
		return nil, err
	}
	return &sess, nil
}

// requireSession is currentSession with no session an invalid_session.
func (s *Service) requireSession(c echo.Context) (*identity.Session, error) {
	sess, err := s.currentSession(c)
	if err == nil && sess == nil {
		err = invalidSession()
	}
	return sess, err
}

// noStore marks an answer of a session route: never cached, and varying
// with the cookies.
func noStore(c echo.Context) {
	h := c.Response().Header()
	h.Set(echo.HeaderCacheControl, "no-store")
	h.Add(echo.HeaderVary, "Cookie")
}

// clearCookie removes a host-only cookie.
func clearCookie(c echo.Context, name string) {
	c.SetCookie(&http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: true, SameSite: http.SameSiteStrictMode})
}

func invalidSession() error {
	return apierror.New(apierror.InvalidSession, "No valid session of this product: sign in at the house, then retry.")
}

func authUnavailable() error {
	return apierror.New(apierror.AuthUnavailable, "The identity service's keys cannot be reached and none are cached; your session is kept, retry later.")
}

func invalidRequest(message string) error {
	return apierror.New(apierror.InvalidRequest, message)
}

func invalidOrigin(message string) error {
	return apierror.New(apierror.InvalidOrigin, message)
}

func invalidCSRF() error {
	return apierror.New(apierror.InvalidCSRF, "The X-CSRF-Token header is missing or was not issued to this browser and session; GET /api/auth/bootstrap for a fresh one.")
}

func invalidAPIKey(message string) error {
	return apierror.New(apierror.InvalidAPIKey, message)
}
