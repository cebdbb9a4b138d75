package account

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// User is the current user of GET /api/me (contract 2.8).
type User struct {
	IdentityID string   `json:"identityId"`
	SessionID  string   `json:"sessionId"`
	ProductID  string   `json:"productId"`
	Audience   string   `json:"audience"`
	AuthTime   string   `json:"authTime"` // RFC 3339, UTC
	Methods    []string `json:"methods"`
	MFAState   string   `json:"mfaState"` // verified or none
}

// ProfileBody is a profile (contract 2.8).
type ProfileBody struct {
	Name     string `json:"name"`
	Locale   string `json:"locale"`
	TimeZone string `json:"timeZone"`
	Theme    string `json:"theme"`
	Revision int64  `json:"revision"`
}

// okAnswer is {ok: true}.
type okAnswer struct {
	OK bool `json:"ok"`
}

// getMe answers GET /api/me with the session's user.
func (s *Service) getMe(c echo.Context) error {
	noStore(c)
	sess, err := s.requireSession(c)
	if err != nil {
		return err
	}
	return respond.JSON(c, http.StatusOK, map[string]User{"user": {
		IdentityID: sess.IdentityID, SessionID: sess.SessionID, ProductID: sess.ProductID, Audience: sess.Audience,
		AuthTime: sess.AuthTime.Format(time.RFC3339), Methods: sess.Methods, MFAState: sess.MFAState,
	}})
}

// getProfile answers GET /api/account/profile: the identity's profile,
// created on first sight and kept in step with the session's name, locale
// and time zone.
func (s *Service) getProfile(c echo.Context) error {
	noStore(c)
	sess, err := s.requireSession(c)
	if err != nil {
		return err
	}
	p, err := s.d.Store.SyncProfile(c.Request().Context(), sess.IdentityID,
		store.ProfileClaims{Name: sess.Name, Locale: sess.Locale, TimeZone: sess.TimeZone})
	if err != nil {
		return err
	}
	return respond.JSON(c, http.StatusOK, map[string]ProfileBody{"profile": {
		Name: p.Name, Locale: p.Locale, TimeZone: p.TimeZone, Theme: p.Theme, Revision: p.Revision,
	}})
}

// getAvatar answers GET /api/account/avatar with the session user's own
// picture: the one the identity service last pushed (POST
// /api/auth/events, picture-changed), checked again as WebP of at most
// 64 KiB. It takes no user id or URL.
func (s *Service) getAvatar(c echo.Context) error {
	noStore(c)
	sess, err := s.requireSession(c)
	if err != nil {
		return err
	}
	if c.Request().URL.RawQuery != "" {
		return invalidRequest("GET /api/account/avatar takes no parameters: it serves your own picture only.")
	}
	b, err := s.d.Store.Avatar(c.Request().Context(), sess.IdentityID)
	if errors.Is(err, store.ErrNoAvatar) || (err == nil && identity.CheckPicture(b) != nil) {
		return apierror.New(apierror.NotFound, "Your account has no picture.")
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, "image/webp", b)
}

// maxEmptyBody caps the body of a write that takes {} (logout).
const maxEmptyBody = 1 << 10

// postLogout answers POST /api/auth/logout: it ends this product's session
// here (other products' sessions of the identity keep working) and clears
// the session and CSRF cookies. Without a session there is nothing to end,
// and the answer is the same.
func (s *Service) postLogout(c echo.Context) error {
	sess, err := s.sessionWrite(c, false)
	if err != nil {
		return err
	}
	var body map[string]json.RawMessage
	b, err := io.ReadAll(io.LimitReader(c.Request().Body, maxEmptyBody+1))
	if err != nil || len(b) > maxEmptyBody || json.Unmarshal(b, &body) != nil || body == nil {
		return invalidRequest("The body of POST /api/auth/logout is the JSON object {}.")
	}
	if sess != nil {
		if err := s.d.Store.RevokeSession(c.Request().Context(), sess.ProductID, sess.SessionID, sess.IdentityID, sess.ExpiresAt); err != nil {
			return err
		}
	}
	clearCookie(c, SessionCookie)
	clearCookie(c, CSRFCookie)
	return respond.JSON(c, http.StatusOK, okAnswer{OK: true})
}
