package server

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/identitytest"
	"github.com/okfindex/okf-index/pkg/store/storetest"
	"github.com/okfindex/okf-index/services/api/server/account"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// The session's user, profile and keys; no cookie is invalid_session; and
// no answer of a session route carries CORS headers (the contract
// transport checks that on every exchange).
func TestSessionReads(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	tok := e.session("id-1", func(c *identity.SessionClaims) {
		c.Name, c.Locale, c.MFA, c.Methods = "Ana", "pt-BR", identity.MFAVerified, []string{"pwd", "otp"}
	})
	b := e.browser(tok)
	resp, body := b.get("/api/me")
	var me struct{ User account.User }
	if resp.StatusCode != 200 || json.Unmarshal(body, &me) != nil || me.User.IdentityID != "id-1" || me.User.ProductID != "okf" ||
		me.User.Audience != "okf" || me.User.MFAState != "verified" || len(me.User.Methods) != 2 || me.User.SessionID == "" {
		t.Fatalf("me: %d %s", resp.StatusCode, body)
	}
	if resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("me: Cache-Control %q", resp.Header.Get("Cache-Control"))
	}
	for i, want := range []int64{1, 1} {
		resp, body = b.get("/api/account/profile")
		var p struct{ Profile account.ProfileBody }
		if resp.StatusCode != 200 || json.Unmarshal(body, &p) != nil || p.Profile.Name != "Ana" || p.Profile.Locale != "pt-BR" ||
			p.Profile.TimeZone != "UTC" || p.Profile.Theme != "system" || p.Profile.Revision != want {
			t.Fatalf("profile %d: %d %s", i, resp.StatusCode, body)
		}
	}
	// A new name at the house is a change: the revision grows.
	_, body = e.browser(e.session("id-1", func(c *identity.SessionClaims) { c.Name = "Ana Maria" })).get("/api/account/profile")
	if !strings.Contains(string(body), `"revision":2`) {
		t.Errorf("profile after a change: %s", body)
	}
	resp, body = b.get("/api/account/keys")
	if resp.StatusCode != 200 || string(body) != "{\"keys\":[]}\n" {
		t.Errorf("keys: %d %s", resp.StatusCode, body)
	}
	resp, body = b.get("/api/account/avatar")
	wantError(t, "avatar, none", resp, body, 404, apierror.NotFound)
	resp, body = b.get("/api/account/avatar?user=id-2")
	wantError(t, "avatar of another", resp, body, 400, apierror.InvalidRequest)
	for _, p := range []string{"/api/me", "/api/account/profile", "/api/account/keys", "/api/account/avatar"} {
		resp, body := e.browser("").get(p)
		wantError(t, p+" without a session", resp, body, 401, apierror.InvalidSession)
	}
}

// Each forged, foreign or stale session is refused as invalid_session.
func TestSessionSecurity(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	other := identitytest.New(t, config.AlgEdDSA)
	good := e.session("id-1")
	parts := strings.Split(good, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(payload), `"sub":"id-1"`, `"sub":"id-2"`, 1))) + "." + parts[2]
	none := jwt.NewWithClaims(jwt.SigningMethodNone, e.idp.Claims("id-1"))
	noneTok, _ := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	jwks, _ := e.idp.Signer.JWKS()
	hs := jwt.NewWithClaims(jwt.SigningMethodHS256, e.idp.Claims("id-1"))
	hs.Header["kid"] = e.idp.Signer.KID()
	hsTok, _ := hs.SignedString(jwks)
	cases := map[string]string{
		"alg none":         noneTok,
		"HS256 public key": hsTok,
		"key not in JWKS":  other.Session("id-1"),
		"tampered payload": tampered,
		"wrong audience":   e.idp.Session("id-1", func(c *identity.SessionClaims) { c.Audience = jwt.ClaimStrings{"lens"} }),
		"wrong issuer":     e.idp.Session("id-1", func(c *identity.SessionClaims) { c.Issuer = "https://evil.example" }),
		"wrong product":    e.idp.Session("id-1", func(c *identity.SessionClaims) { c.Product = "lens" }),
		"expired": e.idp.Session("id-1", func(c *identity.SessionClaims) {
			c.ExpiresAt = jwt.NewNumericDate(time.Now().Add(-time.Minute))
		}),
		"iat in the future": e.idp.Session("id-1", func(c *identity.SessionClaims) {
			c.IssuedAt = jwt.NewNumericDate(time.Now().Add(10 * time.Minute))
		}),
		"an identity event": e.idp.Event("id-1", identity.EventSessionsEnded, nil),
	}
	for name, tok := range cases {
		resp, body := e.browser(e.secret(tok)).get("/api/me")
		wantError(t, name, resp, body, 401, apierror.InvalidSession)
	}
	resp, _ := e.browser(good).get("/api/me")
	if resp.StatusCode != 200 {
		t.Fatalf("the good session: %d", resp.StatusCode)
	}
}

// With the identity keys unreachable and nothing cached, a session route
// answers 503 auth_unavailable and keeps the caller's state: no cookie is
// set or cleared, and the session works once the keys can be had.
func TestAuthUnavailable(t *testing.T) {
	t.Parallel()
	idp := identitytest.New(t, config.AlgEdDSA)
	idp.SetDown(true)
	e := newAccountEnvOn(t, storetest.NewStore(t), idp, "")
	b := e.browser(e.session("id-1"))
	for _, p := range []string{"/api/me", "/api/account/profile", "/api/account/keys", "/api/account/avatar", "/api/auth/bootstrap"} {
		resp, body := b.get(p)
		wantError(t, p, resp, body, 503, apierror.AuthUnavailable)
		if len(resp.Cookies()) != 0 {
			t.Errorf("%s: cookies set %v", p, resp.Header.Values("Set-Cookie"))
		}
	}
	b.csrfCookie = "x"
	resp, body := b.post("/api/auth/logout", "{}")
	wantError(t, "logout", resp, body, 503, apierror.AuthUnavailable)
	if len(resp.Cookies()) != 0 {
		t.Errorf("logout cleared cookies: %v", resp.Header.Values("Set-Cookie"))
	}
	// Without a session, nothing needs the keys.
	if resp, _ := e.browser("").get("/api/auth/bootstrap"); resp.StatusCode != 200 {
		t.Errorf("anonymous bootstrap: %d", resp.StatusCode)
	}
	idp.SetDown(false)
	deadline := time.Now().Add(40 * time.Second)
	for {
		if resp, _ := b.get("/api/me"); resp.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the session still fails after the keys came back")
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// GET /api/auth/bootstrap: the CSRF cookie's attributes, the context in
// the body and the header, and its refusals.
func TestBootstrap(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	resp, body := e.browser(e.session("id-1")).get("/api/auth/bootstrap")
	var bs account.Bootstrap
	if resp.StatusCode != 200 || json.Unmarshal(body, &bs) != nil || bs.CSRF == "" || bs.Context == "" ||
		resp.Header.Get(account.HouseHeader) != bs.Context || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("%d %s %v", resp.StatusCode, body, resp.Header)
	}
	e.secret(bs.CSRF)
	cookies := resp.Header.Values("Set-Cookie")
	if len(cookies) != 1 {
		t.Fatalf("Set-Cookie %v", cookies)
	}
	c := cookies[0]
	e.secret(strings.TrimPrefix(strings.Split(c, ";")[0], account.CSRFCookie+"="))
	for _, attr := range []string{account.CSRFCookie + "=", "Path=/", "HttpOnly", "Secure", "SameSite=Strict"} {
		if !strings.Contains(c, attr) {
			t.Errorf("cookie %q lacks %s", c, attr)
		}
	}
	if strings.Contains(strings.ToLower(c), "domain=") {
		t.Errorf("cookie %q is not host-only", c)
	}
	ctx, _ := base64.RawURLEncoding.DecodeString(bs.Context)
	if !strings.Contains(string(ctx), `"signedIn":true`) {
		t.Errorf("context %s", ctx)
	}
	resp, body = e.browser("").get("/api/auth/bootstrap?x=1")
	wantError(t, "a query", resp, body, 400, apierror.InvalidRequest)
	resp, body = e.send("GET", "/api/auth/bootstrap", http.Header{"Origin": {"https://evil.example"}}, nil)
	wantError(t, "another origin", resp, body, 403, apierror.InvalidOrigin)
	resp, body = e.send("GET", "/api/auth/bootstrap", http.Header{"Sec-Fetch-Site": {"cross-site"}}, nil)
	wantError(t, "cross-site", resp, body, 403, apierror.InvalidOrigin)
}

// A write needs this service's exact Origin, a same-origin fetch, and the
// CSRF token of this browser and session.
func TestWriteChecks(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	b := e.browser(e.session("id-1")).bootstrap()
	other := e.browser(e.session("id-1")).bootstrap()         // another session, another browser
	sameBrowser := &browser{e: e, session: e.session("id-1")} // another session in this browser
	sameBrowser.csrfCookie = b.csrfCookie
	sameBrowser.bootstrap()
	const create = "/api/account/keys/create"
	const body = `{"name":"ci","organizationId":null}`
	for name, edit := range map[string]func(http.Header){
		"no Origin":          func(h http.Header) { h.Del("Origin") },
		"Origin null":        func(h http.Header) { h.Set("Origin", "null") },
		"another Origin":     func(h http.Header) { h.Set("Origin", "https://evil.example") },
		"Origin with a path": func(h http.Header) { h.Set("Origin", publicBase+"/") },
		"cross-site":         func(h http.Header) { h.Set("Sec-Fetch-Site", "cross-site") },
		"same-site":          func(h http.Header) { h.Set("Sec-Fetch-Site", "same-site") },
		"two Origins":        func(h http.Header) { h.Add("Origin", "https://evil.example") },
	} {
		resp, rb := b.post(create, body, edit)
		wantError(t, name, resp, rb, 403, apierror.InvalidOrigin)
	}
	for name, edit := range map[string]func(http.Header){
		"no token":                 func(h http.Header) { h.Del(account.CSRFHeader) },
		"token of another session": func(h http.Header) { h.Set(account.CSRFHeader, sameBrowser.csrf) },
		"token of another browser": func(h http.Header) { h.Set(account.CSRFHeader, other.csrf) },
		"garbage token":            func(h http.Header) { h.Set(account.CSRFHeader, "!!") },
		"no CSRF cookie":           func(h http.Header) { h.Set("Cookie", account.SessionCookie+"="+b.session) },
		"forged CSRF cookie":       func(h http.Header) { h.Set("Cookie", b.cookies()+"x") },
		"another browser's CSRF cookie": func(h http.Header) {
			h.Set("Cookie", account.SessionCookie+"="+b.session+"; "+account.CSRFCookie+"="+other.csrfCookie)
		},
	} {
		resp, rb := b.post(create, body, edit)
		wantError(t, name, resp, rb, 403, apierror.InvalidCSRF)
	}
	resp, rb := e.browser("").bootstrap().post(create, body)
	wantError(t, "no session", resp, rb, 401, apierror.InvalidSession)
	resp, rb = b.post(create, body)
	if resp.StatusCode != 200 {
		t.Fatalf("the same-origin write: %d %s", resp.StatusCode, rb)
	}
	var created account.KeyCreated
	json.Unmarshal(rb, &created)
	e.secret(created.Secret)
}
