package account

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/services/api/server/respond"
)

// CSRF protection of the session writes (contract 4.5, section 5).
//
// GET /api/auth/bootstrap gives the browser a CSRF cookie, host-only,
// HttpOnly, Secure and SameSite=Strict, holding a random nonce and its
// signature: <nonce>.<HMAC(key, nonce)>. The token it answers is
// HMAC(key, nonce, product, session id): bound to this browser (the nonce
// only its cookie carries) and to its session. Nothing is stored: the
// server recomputes the token from the cookie and the session of the
// write, so a token of another browser, another session or none fails.
// The key is AUTH_CSRF_SECRET (or a random key of the process); no
// secret is ever written anywhere in plain.
//
// A write also needs an Origin exactly equal to PUBLIC_BASE_URL's origin
// ("null" and a missing Origin are refused), and, when the browser sends
// Sec-Fetch-Site, same-origin.

const (
	CSRFCookie  = "__Host-okf-csrf"
	CSRFHeader  = "X-CSRF-Token"
	HouseHeader = "X-House-Context"
)

// Bootstrap is the answer of GET /api/auth/bootstrap.
type Bootstrap struct {
	CSRF    string `json:"csrf"`
	Context string `json:"context"`
}

func (a *Service) mac(parts ...string) []byte {
	m := hmac.New(sha256.New, a.csrfKey)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return m.Sum(nil)
}

var b64 = base64.RawURLEncoding

// cookieNonce returns the nonce of a validly signed CSRF cookie, or "".
func (a *Service) cookieNonce(c echo.Context) string {
	ck, err := c.Cookie(CSRFCookie)
	if err != nil {
		return ""
	}
	nonce, sig, ok := strings.Cut(ck.Value, ".")
	got, err := b64.DecodeString(sig)
	if !ok || err != nil || len(nonce) != 43 || !hmac.Equal(got, a.mac("okf-csrf-cookie", nonce)) {
		return ""
	}
	return nonce
}

// token is the CSRF token of a browser's nonce and a session (nil: none).
func (a *Service) token(nonce string, sess *identity.Session) string {
	sid := ""
	if sess != nil {
		sid = sess.SessionID
	}
	return b64.EncodeToString(a.mac("okf-csrf-token", nonce, a.product, sid))
}

// viewContext is the opaque context of the page (never a credential).
func (a *Service) viewContext(sess *identity.Session) string {
	b, _ := json.Marshal(map[string]any{"v": 1, "product": a.product, "signedIn": sess != nil})
	return b64.EncodeToString(b)
}

// getBootstrap answers GET /api/auth/bootstrap: the CSRF token of this
// browser and session (setting the CSRF cookie when the browser has no
// valid one) and the view context.
func (s *Service) getBootstrap(c echo.Context) error {
	noStore(c)
	req := c.Request()
	if req.URL.RawQuery != "" {
		return invalidRequest("GET /api/auth/bootstrap takes no parameters.")
	}
	if site := req.Header.Get("Sec-Fetch-Site"); site == "cross-site" {
		return invalidOrigin("The bootstrap is for this service's own pages.")
	}
	if o := req.Header.Get(echo.HeaderOrigin); o != "" && o != s.origin {
		return invalidOrigin("The bootstrap is for this service's own pages; the Origin is another site's.")
	}
	sess, err := s.currentSession(c)
	if err != nil {
		return err
	}
	nonce := s.cookieNonce(c)
	if nonce == "" {
		raw := make([]byte, 32)
		rand.Read(raw)
		nonce = b64.EncodeToString(raw)
		c.SetCookie(&http.Cookie{
			Name: CSRFCookie, Value: nonce + "." + b64.EncodeToString(s.mac("okf-csrf-cookie", nonce)),
			Path: "/", HttpOnly: true, Secure: true, SameSite: http.SameSiteStrictMode,
		})
	}
	ctx := s.viewContext(sess)
	c.Response().Header().Set(HouseHeader, ctx)
	return respond.JSON(c, http.StatusOK, Bootstrap{CSRF: s.token(nonce, sess), Context: ctx})
}

// checkOrigin refuses a write that does not come from this service's own
// origin.
func (s *Service) checkOrigin(c echo.Context) error {
	h := c.Request().Header
	if site := h.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		return invalidOrigin("A write must come from this service's own pages (Sec-Fetch-Site: " + site + ").")
	}
	if len(h.Values(echo.HeaderOrigin)) > 1 {
		return invalidOrigin("A write carries one Origin header.")
	}
	switch o := h.Get(echo.HeaderOrigin); o {
	case "":
		return invalidOrigin("A write needs the Origin header of this service's own pages.")
	case s.origin:
		return nil
	}
	return invalidOrigin("The Origin is not this service's: a write must come from " + s.origin + ".")
}

// checkCSRF refuses a write whose X-CSRF-Token is not the one of this
// browser's CSRF cookie and sess.
func (s *Service) checkCSRF(c echo.Context, sess *identity.Session) error {
	nonce := s.cookieNonce(c)
	got, err := b64.DecodeString(c.Request().Header.Get(CSRFHeader))
	want, _ := b64.DecodeString(s.token(nonce, sess))
	if nonce == "" || err != nil || !hmac.Equal(got, want) {
		return invalidCSRF()
	}
	return nil
}

// sessionWrite runs the checks of every session write, in order: origin,
// session (when required), CSRF. sess is nil only when required is false.
func (s *Service) sessionWrite(c echo.Context, required bool) (*identity.Session, error) {
	noStore(c)
	if err := s.checkOrigin(c); err != nil {
		return nil, err
	}
	sess, err := s.currentSession(c)
	if err != nil {
		return nil, err
	}
	if sess == nil && required {
		return nil, invalidSession()
	}
	if err := s.checkCSRF(c, sess); err != nil {
		return nil, err
	}
	return sess, nil
}
