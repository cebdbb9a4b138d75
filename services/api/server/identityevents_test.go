package server

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/okfindex/okf-index/pkg/config"
	"github.com/okfindex/okf-index/pkg/identity"
	"github.com/okfindex/okf-index/pkg/identitytest"
	"github.com/okfindex/okf-index/services/api/server/account"
	"github.com/okfindex/okf-index/services/api/server/apierror"
)

// postEvent pushes a signed event as the identity service does.
func (e *accountEnv) postEvent(tok string) (*http.Response, []byte) {
	return e.send("POST", account.IdentityEventsPath, http.Header{"Content-Type": {"application/secevent+jwt"}}, []byte(e.secret(tok)))
}

// Logout ends this product's session at once, clears the cookies, and
// leaves the identity's session of another product working.
func TestLogout(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	lens := newAccountEnvOn(t, e.store, e.idp, "lens")
	c := e.idp.Claims("id-1")
	tok := e.secret(e.idp.Mint(c))
	c.Audience, c.Product = jwt.ClaimStrings{"lens"}, "lens" // the same session id, another product
	lensTok := e.secret(e.idp.Mint(c))
	b := e.browser(tok).bootstrap()
	resp, body := b.post("/api/auth/logout", "[]")
	wantError(t, "a body other than {}", resp, body, 400, apierror.InvalidRequest)
	resp, body = b.post("/api/auth/logout", "{}", func(h http.Header) { h.Set("Origin", "null") })
	wantError(t, "Origin null", resp, body, 403, apierror.InvalidOrigin)
	resp, body = b.post("/api/auth/logout", "{}")
	if resp.StatusCode != 200 || string(body) != "{\"ok\":true}\n" {
		t.Fatalf("logout: %d %s", resp.StatusCode, body)
	}
	cleared := strings.Join(resp.Header.Values("Set-Cookie"), "\n")
	if !strings.Contains(cleared, account.SessionCookie+"=;") || !strings.Contains(cleared, account.CSRFCookie+"=;") {
		t.Errorf("cookies not cleared: %s", cleared)
	}
	resp, body = b.get("/api/me")
	wantError(t, "after logout", resp, body, 401, apierror.InvalidSession)
	if resp, body := lens.browser(lensTok).get("/api/me"); resp.StatusCode != 200 {
		t.Errorf("the other product's session: %d %s", resp.StatusCode, body)
	}
	// A logout without a session ends nothing and answers the same.
	if resp, _ := e.browser("").bootstrap().post("/api/auth/logout", "{}"); resp.StatusCode != 200 {
		t.Errorf("anonymous logout: %d", resp.StatusCode)
	}
}

// A password change (or ending all sessions) at the house stops every key
// and every earlier session of the identity; a picture event sets the avatar.
func TestIdentityEvents(t *testing.T) {
	t.Parallel()
	e := newAccountEnv(t)
	b := e.browser(e.session("id-1")).bootstrap()
	k := b.createKey(`{"name":"ci","organizationId":null}`)
	bystander := e.browser(e.session("id-2")).bootstrap()
	k2 := bystander.createKey(`{"name":"other","organizationId":null}`)

	for _, typ := range []string{identity.EventPasswordChanged, identity.EventSessionsEnded} {
		ev := e.idp.Event("id-1", typ, nil)
		for i, want := range []string{`"applied":true`, `"applied":false`} { // a replay changes nothing
			resp, body := e.postEvent(ev)
			if resp.StatusCode != 202 || !strings.Contains(string(body), want) {
				t.Fatalf("%s %d: %d %s", typ, i, resp.StatusCode, body)
			}
		}
	}
	resp, body := e.send("GET", "/api/bundles", http.Header{"X-Api-Key": {k.Secret}}, nil)
	wantError(t, "key after a password change", resp, body, 401, apierror.InvalidAPIKey)
	resp, body = b.get("/api/me")
	wantError(t, "session after a password change", resp, body, 401, apierror.InvalidSession)
	fresh := e.browser(e.session("id-1", func(c *identity.SessionClaims) {
		c.IssuedAt = jwt.NewNumericDate(time.Now().Add(2 * time.Second))
	}))
	keys := fresh.keys()
	if len(keys) != 1 || keys[0].Active || keys[0].RevokedAt != nil {
		t.Errorf("keys after the event: %+v", keys)
	}
	if resp, _ := e.send("GET", "/api/bundles", http.Header{"X-Api-Key": {k2.Secret}}, nil); resp.StatusCode != 200 {
		t.Errorf("another identity's key: %d", resp.StatusCode)
	}

	// The picture.
	pic := base64.StdEncoding.EncodeToString(identitytest.Picture)
	if resp, body := e.postEvent(e.idp.Event("id-1", identity.EventPictureChanged, map[string]any{"webp": pic})); resp.StatusCode != 202 {
		t.Fatalf("picture: %d %s", resp.StatusCode, body)
	}
	resp, body = fresh.get("/api/account/avatar")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/webp" || resp.Header.Get("Cache-Control") != "no-store" ||
		string(body) != string(identitytest.Picture) {
		t.Fatalf("avatar: %d %v", resp.StatusCode, resp.Header)
	}
	resp, body = bystander.get("/api/account/avatar")
	wantError(t, "another identity's avatar", resp, body, 404, apierror.NotFound)
	e.postEvent(e.idp.Event("id-1", identity.EventPictureChanged, map[string]any{"webp": nil}))
	resp, body = fresh.get("/api/account/avatar")
	wantError(t, "removed avatar", resp, body, 404, apierror.NotFound)

	// Refused events.
	for name, tok := range map[string]string{
		"a session":        e.idp.Session("id-1"),
		"another key":      identitytest.New(t, config.AlgEdDSA).Event("id-1", identity.EventPasswordChanged, nil),
		"not a WebP":       e.idp.Event("id-1", identity.EventPictureChanged, map[string]any{"webp": base64.StdEncoding.EncodeToString([]byte("GIF89a"))}),
		"unknown type":     e.idp.Event("id-1", "urn:house:identity:event:other", nil),
		"not a token":      "hello",
		"picture too big":  e.idp.Event("id-1", identity.EventPictureChanged, map[string]any{"webp": base64.StdEncoding.EncodeToString(append(append([]byte{}, identitytest.Picture...), make([]byte, 70000)...))}),
		"tampered subject": strings.Replace(e.idp.Event("id-1", identity.EventPasswordChanged, nil), ".", ".x", 1),
	} {
		resp, body := e.postEvent(tok)
		wantError(t, name, resp, body, 400, apierror.InvalidEvent)
	}
	if resp, body := fresh.get("/api/me"); resp.StatusCode != 200 {
		t.Errorf("refused events changed something: %d %s", resp.StatusCode, body)
	}
}
