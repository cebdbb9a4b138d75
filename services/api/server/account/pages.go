package account

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/store"
	"github.com/okfindex/okf-index/services/api/server/apierror"
	"github.com/okfindex/okf-index/services/api/server/pages"
	"github.com/okfindex/okf-index/services/api/server/respond"
	"github.com/okfindex/okf-index/services/api/server/web"
)

// The account page of the full variant: /account, the API keys of the
// session's user. Its rows are Full, so a base deployment answers them
// 404. The page lists the keys server-side from the session cookie (it
// works without JavaScript); the writes (create, revoke) need the CSRF
// token in a header, so the page's script sends them to the JSON routes.

// getAccountPage answers GET /account: the session user's keys, or a page
// saying that sign-in happens at the house (no session), or that the
// identity keys cannot be had (503). Never cached, and it varies with the
// cookies.
func (s *Service) getAccountPage(c echo.Context) error {
	v, status, err := s.accountView(c)
	if err != nil {
		return err
	}
	return writePrivatePage(c, status, func(w io.Writer) error { return s.d.Site.Render(w, "account", v) })
}

// getAccountKeys answers GET /account/keys: the key list of the account
// page alone, which the page's script swaps in after a write (not counted:
// the page was). Without a session the list says so; without the identity
// keys it is the account routes' 503.
func (s *Service) getAccountKeys(c echo.Context) error {
	v, _, err := s.accountView(c)
	if err == nil && v.State == web.AccountUnavailable {
		err = authUnavailable()
	}
	if err != nil {
		return err
	}
	return writePrivatePage(c, http.StatusOK, func(w io.Writer) error { return s.d.Site.RenderAccountKeys(w, v) })
}

// accountView reads the request's session and, when it has one, its keys:
// the account page and its status.
func (s *Service) accountView(c echo.Context) (web.AccountView, int, error) {
	in := web.AccountInput{MaxKeys: store.LiveKeyLimit, SignInURL: s.signInURL()}
	status := http.StatusOK
	sess, err := s.currentSession(c)
	var ae *apierror.Error
	switch {
	case errors.As(err, &ae) && ae.Body.Error == apierror.AuthUnavailable:
		in.State, status = web.AccountUnavailable, http.StatusServiceUnavailable
		c.Response().Header().Set(echo.HeaderRetryAfter, apierror.DefaultRetryAfter)
	case err != nil:
		return web.AccountView{}, 0, err
	case sess == nil:
		in.State = web.AccountSignedOut
	default:
		keys, err := s.keyRecords(c.Request().Context(), sess)
		if err != nil {
			return web.AccountView{}, 0, err
		}
		in.State, in.Name, in.AuthTime = web.AccountSignedIn, sess.Name, sess.AuthTime
		in.Reauth, in.SecondFactor = time.Since(sess.AuthTime) > reauthWindow, sess.SecondFactor()
		in.Orgs = keyOrgs(sess, s.product)
		for _, k := range keys {
			in.Keys = append(in.Keys, web.KeyInput{ID: k.ID, Name: k.Name, OrganizationID: k.OrganizationID, Last4: k.Last4,
				CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt, Active: k.Active})
		}
	}
	return web.NewAccountView(in), status, nil
}

// keyOrgs are the organizations of the session in which its user may
// create keys (rule 2 of contract section 5, but the second factor, which
// the page states apart): owner or admin, with this product enabled.
func keyOrgs(sess *identity.Session, product string) []web.OrgInput {
	var out []web.OrgInput
	for _, m := range sess.Orgs {
		if m.Role != identity.RoleOwner && m.Role != identity.RoleAdmin {
			continue
		}
		for _, p := range m.Products {
			if p == product {
				out = append(out, web.OrgInput{ID: m.ID, Role: m.Role})
				break
			}
		}
	}
	return out
}

// writePrivatePage sends a page of one person's data: the security headers
// of every page, never stored by a cache, varying with the cookies, and no
// ETag (nothing to revalidate).
func writePrivatePage(c echo.Context, status int, render func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return err
	}
	h := c.Response().Header()
	pages.SetHeaders(h)
	noStore(c)
	return c.Blob(status, respond.MIMEHTML, buf.Bytes())
}

// signInURL is the identity service's sign-in page with this deployment's
// account page as where to come back, or "" when none is configured.
func (s *Service) signInURL() string {
	u, err := url.Parse(s.d.SignInURL)
	if s.d.SignInURL == "" || err != nil {
		return ""
	}
	q := u.Query()
	q.Set("return_to", s.d.BaseURL+"/account")
	u.RawQuery = q.Encode()
	return u.String()
}
